/* Results to CSV through a memory stream. Fields that could hold a comma, a
 * quote or a line break are quoted; numbers are written in full precision. */
#include "csv.h"
#include "predictions.h"

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

/* The columns after the parameters: the measurement's. */
static const char *const tail[] = { "median_ms", "min_ms", "max_ms", "reps", "bytes", "gbps", "gops" };
/* The model's figures (predictions.h), each as predicted_<name>; empty where
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
/* Where the model sends the traffic (model/traffic.h), each as
 * predicted_<name>, and the kernel's own bytes; then the built-in whose
 * harness ran the row. */
static const char *const traffic[] = { "dram_read_bytes", "dram_write_bytes", "l2_hit_pct", "own_bytes" };
/* How far each median can be trusted and how its sampling ended, and its
 * share of the copy ceiling: the run page's figures, last so that no
 * earlier column moves. */
static const char *const sampling[] = { "ci_low_ms", "ci_high_ms", "ci_pct", "spread" };
/* The result's energy (energy_view.h), each as energy_<name>, after every
 * earlier column; empty where it was not measured, and energy_error then
 * says why where the device could not. */
static const char *const energy[] = { "j_per_launch", "avg_w", "idle_w", "pj_per_useful_byte",
				      "pj_per_moved_byte" };
static const char *const later_energy[] = { "nj_per_op", "pj_per_useful_byte_above_idle", "moved_bytes" };

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
static void put_energy(FILE *f, const json_t *row)
{
	const json_t *e = json_object_get(row, "energy"), *throttled = json_object_get(e, "throttled");

	put_values(f, e, energy, COUNT(energy));
	fputs(json_is_boolean(throttled) ? (json_is_true(throttled) ? ",true" : ",false") : ",", f);
	put_values(f, e, later_energy, COUNT(later_energy));
	fputc(',', f);
	put_field(f, json_string_value(json_object_get(e, "moved_bytes_from")) ?: "");
	fputc(',', f);
	put_field(f, json_string_value(json_object_get(row, "energy_error")) ?: "");
}

/* One result's row. */
static void put_row(FILE *f, const json_t *run, const json_t *row, const char *const *names, size_t nnames)
{
	const json_t *kernels = json_object_get(json_object_get(run, "request"), "kernels"), *k;
	const json_t *pr = json_object_get(row, "prediction");
	const char *variant = json_string_value(json_object_get(row, "variant"));
	const char *source = json_string_value(json_object_get(pr, "source"));
	const char *binding = json_string_value(json_object_get(pr, "binding"));
	int custom = 0;
	size_t c;

	put_field(f, variant ? variant : "");
	put_values(f, json_object_get(row, "params"), names, nnames);
	put_values(f, row, tail, COUNT(tail));
	json_array_foreach(kernels, c, k)
		custom |= variant && json_is_string(json_object_get(k, "name")) &&
			  strcmp(json_string_value(json_object_get(k, "name")), variant) == 0;
	fprintf(f, ",%s,%s", json_is_true(json_object_get(row, "verified")) ? "true" : "false",
		custom ? "true" : "false");
	put_values(f, pr, predicted, COUNT(predicted));
	fputc(',', f);
	put_field(f, source ? source : "");
	put_values(f, json_object_get(json_object_get(wl_run_trace_of(run, row), "figures"), "traced"), traced,
		   COUNT(traced));
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
	put_field(f, json_string_value(json_object_get(row, "like")) ?: "");
	put_values(f, row, sampling, COUNT(sampling));
	fputc(',', f);
	put_field(f, json_string_value(json_object_get(row, "stopped")) ?: "");
	fputc(',', f);
	put_number(f, json_object_get(row, "ceiling_pct"));
	put_energy(f, row);
	fputs("\r\n", f);
}

int wl_results_csv(const struct wl_experiment *exp, const json_t *run, char **out, size_t *len)
{
	json_t *results = json_object_get(run, "results"), *first = json_array_get(results, 0), *row;
	const char *names[64];
	size_t nnames = 0, i;
	FILE *f;

	if (exp) {
		for (i = 0; i < exp->nparams && i < 64; i++)
			names[nnames++] = exp->params[i].name;
	} else if (first) {
		const char *key;
		json_t *v;

		json_object_foreach(json_object_get(first, "params"), key, v)
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
	fputs(",energy_moved_bytes_from,energy_error\r\n", f);
	json_array_foreach(results, i, row)
		put_row(f, run, row, names, nnames);
	if (fclose(f) != 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
