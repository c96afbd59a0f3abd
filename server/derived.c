/* Derived figures: a result's baseline is the result of the same variant whose
 * params equal its own except that the baseline param has the baseline value.
 * Baselines are found through a key (variant and the other params, with sorted
 * keys), one pass to collect them and one to divide. */
#include "derived.h"

#include <stdlib.h>
#include <string.h>

/* "variant|{params without the baseline param}"; caller frees. */
static char *baseline_key(const json_t *result, const char *param)
{
	json_t *params = json_deep_copy(json_object_get(result, "params"));
	const char *variant = json_string_value(json_object_get(result, "variant"));
	char *text, *key = NULL;

	if (!params || !variant) {
		json_decref(params);
		return NULL;
	}
	json_object_del(params, param);
	text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(params);
	if (text && asprintf(&key, "%s|%s", variant, text) < 0)
		key = NULL;
	free(text);
	return key;
}

int wl_run_add_slowdown(const struct wl_experiment *exp, json_t *run)
{
	json_t *results = json_object_get(run, "results"), *baselines, *r;
	const char *param;
	size_t i;

	if (!exp || exp->baseline_param < 0 || !json_is_array(results))
		return 0;
	param = exp->params[exp->baseline_param].name;
	baselines = json_object();
	if (!baselines)
		return -1;
	json_array_foreach(results, i, r) {
		json_t *v = json_object_get(json_object_get(r, "params"), param);
		char *key;

		if (json_integer_value(v) != exp->baseline_value || !json_is_real(json_object_get(r, "median_ms")))
			continue;
		key = baseline_key(r, param);
		if (key)
			json_object_set(baselines, key, json_object_get(r, "median_ms"));
		free(key);
	}
	json_array_foreach(results, i, r) {
		char *key = baseline_key(r, param);
		json_t *base = key ? json_object_get(baselines, key) : NULL;
		json_t *median = json_object_get(r, "median_ms");

		if (base && json_is_real(median) && json_real_value(base) > 0)
			json_object_set_new(r, "slowdown", json_real(json_real_value(median) / json_real_value(base)));
		else
			json_object_set_new(r, "slowdown", json_null());
		free(key);
	}
	json_decref(baselines);
	return 0;
}
