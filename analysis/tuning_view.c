/* What a tuning run found (see analysis.h, "tuning"): at each size, the
 * fastest verified configuration and its margin over the catalog's default
 * settings. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#define TUNED_MAX 64

/* Whether a and b agree on the params marked in which (1: tuned, 0: not). */
static int agree(const struct wl_run *run, const long long *a, const long long *b, const unsigned char *tuned, int which)
{
	for (size_t p = 0; p < run->exp->nparams; p++)
		if (tuned[p] == which && a[p] != b[p])
			return 0;
	return 1;
}

/* The params of values marked in tuned (which 1) or not (0), as an object. */
static json_t *params_of(const struct wl_run *run, const long long *values, const unsigned char *tuned, int which)
{
	json_t *o = json_object();

	for (size_t p = 0; o && p < run->exp->nparams; p++)
		if (tuned[p] == which && json_object_set_new(o, run->exp->params[p].name, json_integer(values[p])) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/* Whether values hold the catalog's default of every tuned param (where
 * each default is one value). */
static int is_default(const struct wl_run *run, const long long *values, const unsigned char *tuned)
{
	for (size_t p = 0; p < run->exp->nparams; p++) {
		const json_t *d = run->exp->params[p].default_spec;

		if (tuned[p] && (!json_is_integer(d) || json_integer_value(d) != values[p]))
			return 0;
	}
	return 1;
}

static int usable(const struct wl_result *r)
{
	return r->values && r->verified && r->median_ms > 0;
}

/* One size's entry: the size's first result is run->results[first]. */
static json_t *size_entry(const struct wl_run *run, size_t first, const unsigned char *tuned, unsigned char *done)
{
	const struct wl_result *best = NULL, *base = NULL;
	size_t configs = 0;
	json_t *o;

	for (size_t i = first; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];
		int fresh = 1;

		if (!r->values || !agree(run, r->values, run->results[first].values, tuned, 0))
			continue;
		done[i] = 1;
		for (size_t j = first; j < i && fresh; j++)
			fresh = !(run->results[j].values && agree(run, run->results[j].values, run->results[first].values, tuned, 0) &&
				  agree(run, r->values, run->results[j].values, tuned, 1));
		configs += fresh;
		if (usable(r) && (!best || r->median_ms < best->median_ms))
			best = r;
	}
	for (size_t i = first; best && i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];

		if (usable(r) && agree(run, r->values, best->values, tuned, 0) && is_default(run, r->values, tuned) &&
		    r->variant && best->variant && strcmp(r->variant, best->variant) == 0)
			base = r;
	}
	o = json_pack("{s:o, s:I, s:o, s:o, s:o}", "at", params_of(run, run->results[first].values, tuned, 0),
		      "configurations", (json_int_t)configs,
		      "best", best ? json_pack("{s:o, s:s?, s:f}", "config", params_of(run, best->values, tuned, 1), "variant",
					      best->variant, "median_ms", best->median_ms) : json_null(),
		      "baseline", base ? json_pack("{s:o, s:f}", "config", params_of(run, base->values, tuned, 1),
						   "median_ms", base->median_ms) : json_null(),
		      "margin", base ? json_real(base->median_ms / best->median_ms) : json_null());
	return o;
}

int wl_run_add_tuning(struct wl_run *run)
{
	const json_t *tune = json_object_get(json_object_get(run->json, "request"), "tune");
	unsigned char tuned[TUNED_MAX] = { 0 }, *done;
	json_t *sizes, *o;
	size_t i;
	json_t *v;

	if (!tune || !run->exp || run->exp->nparams > TUNED_MAX)
		return 0;
	json_array_foreach(json_object_get(tune, "params"), i, v) {
		int p = wl_experiment_param(run->exp, json_string_value(v));

		if (p >= 0)
			tuned[p] = 1;
	}
	if (!(sizes = json_array()) || !(done = calloc(run->nresults ? run->nresults : 1, 1))) {
		json_decref(sizes);
		return -1;
	}
	for (i = 0; i < run->nresults; i++)
		if (!done[i] && run->results[i].values && json_array_append_new(sizes, size_entry(run, i, tuned, done)) < 0)
			break;
	free(done);
	o = json_pack("{s:O, s:O, s:O, s:O, s:O?, s:o}", "params", json_object_get(tune, "params"), "strategy",
		      json_object_get(tune, "strategy"), "objective", json_object_get(tune, "objective"), "space",
		      json_object_get(tune, "space"), "budget", json_object_get(tune, "budget"), "sizes", sizes);
	return o && json_object_set_new(run->json, "tuning", o) == 0 ? 0 : -1;
}
