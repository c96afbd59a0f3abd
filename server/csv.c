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

int wl_results_csv(const struct wl_experiment *exp, const json_t *run, char **out, size_t *len)
{
	static const char *const tail[] = { "median_ms", "min_ms", "max_ms", "reps", "bytes", "gbps",
					    "gops" };
	/* The model's figures (predictions.h), each as predicted_<name>; empty
	 * where the variant declares no accesses. */
	static const char *const predicted[] = { "efficiency", "sectors_per_request",
						 "conflict_degree", "pct", "ms", "ratio" };
	/* The run's trace of the row's variant (docs/api.md, "Traced accesses"),
	 * each as traced_<name>; empty where it was not traced. */
	static const char *const traced[] = { "efficiency", "sectors_per_request", "conflict_degree" };
	/* The model's ceilings (ceilings.h), each as predicted_<name>; empty
	 * where its time is the copy ceiling's alone. */
	static const char *const ceilings[] = { "dram_ms", "cache_ms", "local_ms", "latency_ms", "barrier_ms" };
	json_t *results = json_object_get(run, "results"), *first = json_array_get(results, 0);
	json_t *kernels = json_object_get(json_object_get(run, "request"), "kernels"), *k;
	const char *names[64];
	size_t nnames = 0, i;
	json_t *row;
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
	for (i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		fprintf(f, ",%s", tail[i]);
	fputs(",verified,custom", f);
	for (i = 0; i < sizeof(predicted) / sizeof(predicted[0]); i++)
		fprintf(f, ",predicted_%s", predicted[i]);
	fputs(",predicted_source", f);
	for (i = 0; i < sizeof(traced) / sizeof(traced[0]); i++)
		fprintf(f, ",traced_%s", traced[i]);
	fputs(",predicted_binding", f);
	for (i = 0; i < sizeof(ceilings) / sizeof(ceilings[0]); i++)
		fprintf(f, ",predicted_%s", ceilings[i]);
	fputs(",predicted_launch_ms\r\n", f);
	json_array_foreach(results, i, row) {
		json_t *params = json_object_get(row, "params");
		const char *variant = json_string_value(json_object_get(row, "variant"));

		put_field(f, variant ? variant : "");
		for (size_t p = 0; p < nnames; p++) {
			fputc(',', f);
			put_number(f, json_object_get(params, names[p]));
		}
		for (size_t t = 0; t < sizeof(tail) / sizeof(tail[0]); t++) {
			fputc(',', f);
			put_number(f, json_object_get(row, tail[t]));
		}
		int custom = 0;
		size_t c;

		json_array_foreach(kernels, c, k)
			custom |= variant && json_is_string(json_object_get(k, "name")) &&
				  strcmp(json_string_value(json_object_get(k, "name")), variant) == 0;
		fprintf(f, ",%s,%s", json_is_true(json_object_get(row, "verified")) ? "true" : "false",
			custom ? "true" : "false");
		for (size_t t = 0; t < sizeof(predicted) / sizeof(predicted[0]); t++) {
			fputc(',', f);
			put_number(f, json_object_get(json_object_get(row, "prediction"), predicted[t]));
		}
		{
			const char *source = json_string_value(json_object_get(json_object_get(row, "prediction"), "source"));
			const json_t *tr = json_object_get(json_object_get(wl_run_trace_of(run, row), "figures"),
							   "traced");

			fputc(',', f);
			put_field(f, source ? source : "");
			for (size_t t = 0; t < sizeof(traced) / sizeof(traced[0]); t++) {
				fputc(',', f);
				put_number(f, json_object_get(tr, traced[t]));
			}
		}
		{
			const json_t *pr = json_object_get(row, "prediction");
			const char *binding = json_string_value(json_object_get(pr, "binding"));

			fputc(',', f);
			put_field(f, binding ? binding : "");
			for (size_t t = 0; t < sizeof(ceilings) / sizeof(ceilings[0]); t++) {
				fputc(',', f);
				put_number(f, json_object_get(json_object_get(pr, "ceilings"), ceilings[t]));
			}
			fputc(',', f);
			put_number(f, json_object_get(pr, "launch_ms"));
		}
		fputs("\r\n", f);
	}
	if (fclose(f) != 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
