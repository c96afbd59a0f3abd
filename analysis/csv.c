/* Results to CSV through a memory stream (see analysis.h, "CSV"). Fields
 * that could hold a comma, a quote or a line break are quoted; numbers are
 * written in full precision, integers as the store keeps them (bytes, reps,
 * params) and the rest as reals. The model's, the trace's and the energy's
 * figures are written from the documents the derivation made of them. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void put_number(FILE *f, const json_t *v)
{
	if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(f, "%.9g", json_real_value(v));
	/* null: an empty field */
}

/* A stored figure: an empty field where it is NAN (null). */
static void put_real(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

static void put_integer(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, ",%lld", (long long)v);
	else
		fputc(',', f);
}

/* The columns after the parameters: the measurement's (put_row writes
 * them in this order). */
static const char *const tail[] = { "median_ms", "min_ms", "max_ms", "reps", "bytes", "gbps", "gops" };
/* The model's figures (wl_run_add_predictions), each as predicted_<name>; empty where
 * the variant declares no accesses. */
static const char *const predicted[] = { "efficiency", "sectors_per_request", "conflict_degree", "pct", "ms",
					 "ratio" };
/* The run's trace of the row's variant (docs/api.md, "Traced accesses"),
 * each as traced_<name>; empty where it was not traced. */
static const char *const traced[] = { "efficiency", "sectors_per_request", "conflict_degree" };
/* The model's ceilings (ceilings.h), each as predicted_<name>; empty where
 * its time is the copy ceiling's alone. The first level's came later and
 * goes last, after the launch, so that no column moves. */
static const char *const ceilings[] = { "dram_ms", "cache_ms", "local_ms", "latency_ms", "barrier_ms" };
static const char *const later_ceilings[] = { "l1_ms", "issue_ms" };
/* The work-group starts' ceiling came after the runner and device columns:
 * it goes after them. */
static const char *const last_ceilings[] = { "groups_ms" };
/* The waves' waits at barriers for their loads, part of DRAM's time
 * (model/ceilings.h): the prediction's own field, last. */
static const char *const drains[] = { "drain_ms" };
/* Where the model sends the traffic (model/traffic.h), each as
 * predicted_<name>, and the kernel's own bytes; then the built-in whose
 * harness ran the row. */
static const char *const traffic[] = { "dram_read_bytes", "dram_write_bytes", "l2_hit_pct", "own_bytes" };
/* How far each median can be trusted and how its sampling ended, and its
 * share of the copy ceiling: the run page's figures, last so that no
 * earlier column moves (put_row writes them in this order). */
static const char *const sampling[] = { "ci_low_ms", "ci_high_ms", "ci_pct", "spread" };
/* The result's energy (wl_result_energy), each as energy_<name>, after every
 * earlier column; empty where it was not measured, and energy_error then
 * says why where the device could not. */
static const char *const energy[] = { "j_per_launch", "avg_w", "idle_w", "pj_per_useful_byte",
				      "pj_per_moved_byte" };
static const char *const later_energy[] = { "nj_per_op", "pj_per_useful_byte_above_idle", "moved_bytes" };

/* A model-strategy tuning run's rank of the row's configuration (each as
 * tuning_<name>), then the runner and device that measured the row; last,
 * so that no earlier column moves. */
static const char *const ranked[] = { "rank", "predicted_ms" };
static const char *const measured_by[] = { "runner_id" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ",name" for each of names with prefix. */
static void put_header(FILE *f, const char *prefix, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, ",%s%s", prefix, names[i]);
}

/* ",value" for each of names in obj. */
static void put_values(FILE *f, const json_t *obj, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputc(',', f);
		put_number(f, json_object_get(obj, names[i]));
	}
}

/* The energy columns of a result's row. */
static void put_energy(FILE *f, const struct wl_result *r)
{
	const json_t *e = r->energy_figures, *throttled = json_object_get(e, "throttled");

	put_values(f, e, energy, COUNT(energy));
	fputs(json_is_boolean(throttled) ? (json_is_true(throttled) ? ",true" : ",false") : ",", f);
	put_values(f, e, later_energy, COUNT(later_energy));
	fputc(',', f);
	put_field(f, json_string_value(json_object_get(e, "moved_bytes_from")) ?: "");
	fputc(',', f);
	put_field(f, r->energy_error ?: "");
}

/* Whether r is one of the run's custom kernels'. */
static int is_custom(const struct wl_run *run, const struct wl_result *r)
{
	int custom = 0;

	for (size_t c = 0; c < run->nkernels; c++)
		custom |= r->variant && run->kernels[c].name && strcmp(run->kernels[c].name, r->variant) == 0;
	return custom;
}

/* One result's row. */
static void put_row(FILE *f, const struct wl_run *run, const struct wl_result *r, const char *const *names,
		    size_t nnames)
{
	const struct wl_run_trace *trace = wl_run_trace_of(run, r);
	const json_t *pr = r->prediction;
	const char *source = json_string_value(json_object_get(pr, "source"));
	const char *binding = json_string_value(json_object_get(pr, "binding"));

	put_field(f, r->variant ? r->variant : "");
	put_values(f, r->params, names, nnames);
	put_real(f, r->median_ms);
	put_real(f, r->min_ms);
	put_real(f, r->max_ms);
	put_integer(f, r->reps);
	put_integer(f, r->bytes);
	put_real(f, r->gbps);
	put_real(f, r->gops);
	fprintf(f, ",%s,%s", r->unchecked ? "" : r->verified ? "true" : "false", is_custom(run, r) ? "true" : "false");
	put_values(f, pr, predicted, COUNT(predicted));
	fputc(',', f);
	put_field(f, source ? source : "");
	put_values(f, json_object_get(trace ? trace->figures : NULL, "traced"), traced, COUNT(traced));
	fputc(',', f);
	put_field(f, binding ? binding : "");
	put_values(f, json_object_get(pr, "ceilings"), ceilings, COUNT(ceilings));
	fputc(',', f);
	put_number(f, json_object_get(pr, "launch_ms"));
	put_values(f, json_object_get(pr, "ceilings"), later_ceilings, COUNT(later_ceilings));
	put_values(f, json_object_get(pr, "traffic"), traffic, COUNT(traffic));
	fputc(',', f);
	put_number(f, json_object_get(pr, "own_gbps"));
	fputc(',', f);
	put_field(f, r->like ?: "");
	put_real(f, r->ci_low_ms);
	put_real(f, r->ci_high_ms);
	put_real(f, r->ci_pct);
	put_real(f, r->spread);
	fputc(',', f);
	put_field(f, r->stopped ?: "");
	put_real(f, r->ceiling_pct);
	put_energy(f, r);
	/* A tuning run's: the model's rank of the row's configuration and
	 * what it predicted when ranking; who measured it. */
	put_values(f, json_object_get(r->json, "ranked"), ranked, COUNT(ranked));
	put_values(f, r->json, measured_by, COUNT(measured_by));
	fputc(',', f);
	put_field(f, json_string_value(json_object_get(r->json, "device_id")) ?: "");
	put_values(f, json_object_get(pr, "ceilings"), last_ceilings, COUNT(last_ceilings));
	put_values(f, pr, drains, COUNT(drains));
	fputs("\r\n", f);
}

int wl_results_csv(const struct wl_run *run, char **out, size_t *len)
{
	const struct wl_experiment *exp = run->exp;
	const json_t *first = run->nresults ? run->results[0].params : NULL;
	const char *names[64];
	size_t nnames = 0, i;
	FILE *f;

	if (exp) {
		for (i = 0; i < exp->nparams && i < 64; i++)
			names[nnames++] = exp->params[i].name;
	} else if (first) {
		const char *key;
		json_t *v;

		json_object_foreach((json_t *)first, key, v)
			if (nnames < 64)
				names[nnames++] = key;
	}
	f = open_memstream(out, len);
	if (!f)
		return -1;
	fputs("variant", f);
	for (i = 0; i < nnames; i++) {
		fputc(',', f);
		put_field(f, names[i]);
	}
	put_header(f, "", tail, COUNT(tail));
	fputs(",verified,custom", f);
	put_header(f, "predicted_", predicted, COUNT(predicted));
	fputs(",predicted_source", f);
	put_header(f, "traced_", traced, COUNT(traced));
	fputs(",predicted_binding", f);
	put_header(f, "predicted_", ceilings, COUNT(ceilings));
	fputs(",predicted_launch_ms", f);
	put_header(f, "predicted_", later_ceilings, COUNT(later_ceilings));
	put_header(f, "predicted_", traffic, COUNT(traffic));
	fputs(",own_gbps,like", f);
	put_header(f, "", sampling, COUNT(sampling));
	fputs(",stopped,ceiling_pct", f);
	put_header(f, "energy_", energy, COUNT(energy));
	fputs(",energy_throttled", f);
	put_header(f, "energy_", later_energy, COUNT(later_energy));
	fputs(",energy_moved_bytes_from,energy_error", f);
	put_header(f, "tuning_", ranked, COUNT(ranked));
	fputs(",runner_id,device_id", f);
	put_header(f, "predicted_", last_ceilings, COUNT(last_ceilings));
	put_header(f, "predicted_", drains, COUNT(drains));
	fputs("\r\n", f);
	for (i = 0; i < run->nresults; i++)
		put_row(f, run, &run->results[i], names, nnames);
	if (fclose(f) != 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
