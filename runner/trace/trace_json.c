/* A counted trace as JSON (see trace_json.h). */
#include "trace_json.h"

#include "work_json.h"

static json_t *figures_json(const struct wl_site_figures *f, int local)
{
	double moved = f->sectors_per_request * WL_MODEL_SECTOR;

	if (local)
		return json_pack("{s:f, s:f}", "requests", f->requests, "conflict_degree", f->bank_degree);
	return json_pack("{s:f, s:f, s:f, s:f}", "requests", f->requests, "sectors_per_request",
			 f->sectors_per_request, "lines_per_request", f->lines_per_request, "efficiency",
			 moved > 0 ? f->useful_per_request / moved : 0);
}

json_t *wl_traced_json(const struct wl_trace_figures *tr)
{
	static const char *const ops[] = { "load", "store", "atomic" };
	const struct wl_prediction *t = &tr->total;
	json_t *sites = json_array();

	for (int i = 0; sites && i < tr->nsites; i++) {
		const struct wl_trace_site *s = &tr->sites[i];
		json_t *o = figures_json(&s->figures, s->local);

		json_object_set_new(o, "line", json_integer(s->line));
		json_object_set_new(o, "op", json_string(ops[s->op]));
		json_object_set_new(o, "space", json_string(s->local ? "local" : "global"));
		json_array_append_new(sites, o);
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:I, s:I, s:{s:i, s:[I, I, I], s:[I, I, I]}, s:o}", "sites", sites,
			 "efficiency", t->has_global ? json_real(t->efficiency) : json_null(), "sectors_per_request",
			 t->has_global ? json_real(t->sectors_per_request) : json_null(),
			 "conflict_degree", t->has_local ? json_real(t->conflict_degree) : json_null(),
			 "records", (json_int_t)tr->records, "dropped", (json_int_t)tr->dropped,
			 "launch", "dims", tr->dims, "groups", (json_int_t)tr->groups[0], (json_int_t)tr->groups[1],
			 (json_int_t)tr->groups[2], "local", (json_int_t)tr->local[0], (json_int_t)tr->local[1],
			 (json_int_t)tr->local[2], "work", wl_work_to_json(&t->work));
}
