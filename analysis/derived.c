/* Derived figures (see analysis.h): the steps that need no model — the
 * variants, slowdowns, intervals, cache marks and the copy ceiling — and
 * the one derivation that runs every step in order, with the read of a
 * stored run before it. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_json.h"

int wl_run_add_slowdown(struct wl_run *run)
{
	const struct wl_experiment *exp = run->exp;
	const char *param;
	json_t *baselines;
	size_t i;

	if (!exp || exp->baseline_param < 0 || !run->nresults)
		return 0;
	param = exp->params[exp->baseline_param].name;
	baselines = json_object();
	if (!baselines)
		return -1;
	for (i = 0; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];
		char *key;

		if (wl_result_param(r, param) != exp->baseline_value || isnan(r->median_ms))
			continue;
		key = wl_sweep_key(r, param);
		if (key)
			json_object_set_new(baselines, key, json_real(r->median_ms));
		free(key);
	}
	for (i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		char *key = wl_sweep_key(r, param);
		json_t *base = key ? json_object_get(baselines, key) : NULL;

		r->slowdown = base && !isnan(r->median_ms) && json_real_value(base) > 0 ?
			r->median_ms / json_real_value(base) : NAN;
		json_object_set_new(r->json, "slowdown", isnan(r->slowdown) ? json_null() : json_real(r->slowdown));
		free(key);
	}
	json_decref(baselines);
	return 0;
}

int wl_run_add_intervals(struct wl_run *run)
{
	const char *metric = wl_run_metric(run);
	char low[16], high[16];

	snprintf(low, sizeof(low), "%s_low", metric);
	snprintf(high, sizeof(high), "%s_high", metric);
	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		double rate = wl_result_rate(run, r), median = r->median_ms, cl = r->ci_low_ms, ch = r->ci_high_ms;

		if (isnan(rate) || !(median > 0) || isnan(cl) || isnan(ch) || !(cl > 0)) {
			json_object_set_new(r->json, low, json_null());
			json_object_set_new(r->json, high, json_null());
			json_object_set_new(r->json, "ci_pct", json_null());
			continue;
		}
		/* Time and rate are inverse: the slow end of the time is the low
		 * end of the rate. */
		r->rate_low = rate * median / ch;
		r->rate_high = rate * median / cl;
		r->ci_pct = 100 * ((ch - cl) / 2 / median);
		json_object_set_new(r->json, low, json_real(r->rate_low));
		json_object_set_new(r->json, high, json_real(r->rate_high));
		json_object_set_new(r->json, "ci_pct", json_real(r->ci_pct));
	}
	return 0;
}

/* The built-in whose harness runs r: its own variant, or a custom kernel's
 * like; NULL where neither is in the experiment. */
static const struct wl_variant_def *harness_of(const struct wl_run *run, const struct wl_result *r)
{
	const struct wl_variant_def *v = NULL;

	if (!run->exp || !r->variant)
		return NULL;
	v = wl_experiment_variant(run->exp, r->variant, NULL);
	for (size_t j = 0; !v && j < run->nkernels; j++) {
		const struct wl_run_kernel *k = &run->kernels[j];

		if (k->name && strcmp(k->name, r->variant) == 0 && k->like)
			v = wl_experiment_variant(run->exp, k->like, NULL);
	}
	return v;
}

int wl_run_add_cache_marks(struct wl_run *run)
{
	int hot = run->settings.cache == WL_CACHE_HOT;

	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		const struct wl_variant_def *v = harness_of(run, r);
		int in_cache = 0;

		if (hot && v && run->cache_bytes > 0 && run->exp->nparams <= 64 && r->values)
			in_cache = wl_variant_cost(run->exp, v, WL_COST_MEMORY, r->values) <= (double)run->cache_bytes;
		json_object_set_new(r->json, "in_cache", json_boolean(in_cache));
	}
	return 0;
}

int wl_run_add_ceiling(struct wl_run *run, struct wl_store *st, struct wl_error *err)
{
	const char *copies[WL_STORE_CEILING_VARIANTS];
	json_t *ceiling = NULL;
	size_t i, ncopies = 0;

	/* The ceiling is the built-in copy variants': never a custom kernel's. */
	for (const struct wl_experiment *c = run->cat ? wl_catalog_find(run->cat, "copy") : NULL;
	     c && ncopies < c->nvariants && ncopies < WL_STORE_CEILING_VARIANTS; ncopies++)
		copies[ncopies] = c->variants[ncopies].id;
	if (run->device_id && ncopies &&
	    wl_store_copy_ceiling(st, run->device_id, run->finished_at, run->id, wl_cache_mode_name(run->settings.cache),
				  copies, ncopies, &ceiling, err) < 0)
		return -1;
	run->ceiling_gbps = json_real_value(json_object_get(ceiling, "gbps"));
	for (i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		double gbps = r->gbps;

		json_object_set_new(r->json, "peak_pct", run->peak_gbps > 0 && !isnan(gbps) ?
				    json_real(100.0 * gbps / run->peak_gbps) : json_null());
		r->ceiling_pct = ceiling && run->exp && run->exp->metric == WL_METRIC_BANDWIDTH && !isnan(gbps) ?
			100.0 * gbps / run->ceiling_gbps : NAN;
		json_object_set_new(r->json, "ceiling_pct",
				    isnan(r->ceiling_pct) ? json_null() : json_real(r->ceiling_pct));
	}
	json_object_set_new(run->json, "ceiling", ceiling ? ceiling : json_null());
	return 0;
}

/* The variants' list as the run's JSON shows it; NULL when out of memory. */
static json_t *variants_json(const struct wl_run *run)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; list && i < run->nbuiltins; i++)
		if (json_array_append_new(list, json_pack("{s:s, s:s, s:b}", "id", run->builtins[i], "title",
							  run->variants[i].title, "custom", 0)) < 0)
			goto fail;
	for (i = 0; list && i < run->nkernels; i++) {
		const struct wl_run_kernel *k = &run->kernels[i];

		if (!k->name || json_array_append_new(list, json_pack("{s:s, s:s, s:b, s:O}", "id", k->name, "title",
								      k->name, "custom", 1, "like", k->like_json)) < 0)
			goto fail;
	}
	return list;
fail:
	json_decref(list);
	return NULL;
}

int wl_run_add_variants(struct wl_run *run)
{
	json_t *list = variants_json(run);

	if (!list)
		return -1;
	/* Each result says whether it is a custom kernel's, and which built-in
	 * its harness is (its own for a built-in). */
	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];

		r->custom = 0;
		r->like = r->variant;
		for (size_t j = 0; r->variant && j < run->nkernels; j++)
			if (run->kernels[j].name && strcmp(run->kernels[j].name, r->variant) == 0) {
				r->custom = 1;
				r->like = run->kernels[j].like ? run->kernels[j].like : r->variant;
			}
		json_object_set_new(r->json, "custom", json_boolean(r->custom));
		if (r->like)
			json_object_set_new(r->json, "like", json_string(r->like));
	}
	if (run->own) {
		json_t *own = wl_experiment_to_json(run->own);

		/* Where its rate's bytes come from: its cost.bytes, or its
		 * buffers (each input read once, each output written once). */
		if (!own || json_object_set_new(own, "bytes_from", json_string(run->own->has_cost[WL_COST_BYTES] ?
										"cost" : "buffers")) < 0 ||
		    json_object_set_new(run->json, "own_experiment", own) < 0) {
			json_decref(list);
			return -1;
		}
	}
	return json_object_set_new(run->json, "variants", list) < 0 ? -1 : 0;
}

int wl_run_derive(struct wl_run *run, struct wl_store *st, struct wl_error *err)
{
	if (wl_run_add_variants(run) < 0 || wl_run_add_slowdown(run) < 0 || wl_run_add_intervals(run) < 0 ||
	    wl_run_add_cache_marks(run) < 0 || wl_run_add_drops(run) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_run_add_ceiling(run, st, err) < 0 || wl_run_add_occupancy(run, st, err) < 0)
		return -1;
	if (wl_run_add_predictions(run) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_run_add_trust(run, st, err) < 0)
		return -1;
	if (wl_run_add_counted(run) < 0 || wl_run_add_energy(run) < 0 || wl_run_add_verdict(run) < 0 ||
	    wl_run_add_tuning(run) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_run_add_previous(run, st, err) < 0)
		return -1;
	if (wl_run_add_since(run) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return 0;
}

int wl_run_load(const struct wl_catalog *cat, struct wl_store *st, long long id, struct wl_run *run,
		struct wl_error *err)
{
	json_t *stored = NULL;
	int rc = -1;

	memset(run, 0, sizeof(*run));
	if (wl_store_get_run(st, id, 1, &stored, err) < 0 || wl_run_read(cat, stored, run, err) < 0)
		goto out;
	if (wl_run_derive(run, st, err) < 0) {
		wl_run_free(run);
		goto out;
	}
	rc = 0;
out:
	json_decref(stored);
	return rc;
}
