/* A tuning run's whole space as CSV (see analysis.h, wl_tuning_space_csv):
 * every configuration ranked, beside what the run measured of it. */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The key a configuration is found by: its params, all of them, sorted. */
static char *key_of(const json_t *params)
{
	return json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
}

/* The run's measured configurations, by key_of their params: each size's
 * space entry, its "at" and "config" joined. NULL when out of memory. */
static json_t *measured_by_key(const struct wl_run *run)
{
	json_t *map = json_object(), *size, *entry;
	size_t i, j;

	json_array_foreach(json_object_get(json_object_get(run->json, "tuning"), "sizes"), i, size) {
		json_array_foreach(json_object_get(size, "space"), j, entry) {
			json_t *all = json_deep_copy(json_object_get(size, "at"));
			char *key;

			if (!all || json_object_update(all, json_object_get(entry, "config")) < 0 || !(key = key_of(all))) {
				json_decref(all);
				json_decref(map);
				return NULL;
			}
			json_object_set(map, key, entry);
			free(key);
			json_decref(all);
		}
	}
	return map;
}

/* A number cell (%.6g), empty where v is not a number. */
static void number_cell(FILE *f, const json_t *v)
{
	if (json_is_number(v))
		fprintf(f, "%.6g", json_number_value(v));
}

int wl_tuning_space_csv(const struct wl_run *run, const json_t *ranked, char **out, size_t *len)
{
	json_t *measured = measured_by_key(run), *row;
	FILE *f;
	size_t i;

	*out = NULL;
	*len = 0;
	if (!measured || !(f = open_memstream(out, len))) {
		json_decref(measured);
		return -1;
	}
	for (size_t p = 0; p < run->exp->nparams; p++)
		fprintf(f, "%s,", run->exp->params[p].name);
	fprintf(f, "rank,predicted_ms,measured_ms,variant,energy_j\r\n");
	json_array_foreach(ranked, i, row) {
		const json_t *params = json_object_get(row, "params"), *m;
		char *key = key_of(params);

		m = key ? json_object_get(measured, key) : NULL;
		free(key);
		for (size_t p = 0; p < run->exp->nparams; p++)
			fprintf(f, "%lld,", (long long)json_integer_value(json_object_get(params, run->exp->params[p].name)));
		fprintf(f, "%lld,", (long long)json_integer_value(json_object_get(row, "rank")));
		number_cell(f, json_object_get(row, "predicted_ms"));
		fputc(',', f);
		number_cell(f, json_object_get(m, "median_ms"));
		fprintf(f, ",%s,", json_string_value(json_object_get(m, "variant")) ?: "");
		number_cell(f, json_object_get(m, "energy_j"));
		fprintf(f, "\r\n");
	}
	json_decref(measured);
	if (fclose(f) != 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
