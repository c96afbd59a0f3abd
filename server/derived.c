/* Derived figures. Results that belong together — a result and its baseline,
 * the points of one sweep — share a key: the variant and every param but one,
 * as JSON with sorted keys. */
#include "derived.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_view.h"
#include "counted_view.h"
#include "drops.h"
#include "energy_view.h"
#include "points.h"
#include "predictions.h"
#include "regressions.h"
#include "request.h"
#include "verdict.h"

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

/* One point of a sweep: the swept value, the metric and its interval, the
 * result it came from. */
struct sweep_point {
	long long value;
	double metric, lo, hi;
	json_t *result;
};

int wl_run_add_intervals(const struct wl_experiment *exp, json_t *run)
{
	const char *metric = exp && exp->metric == WL_METRIC_THROUGHPUT ? "gops" : "gbps";
	char low[16], high[16];
	json_t *r;
	size_t i;

	snprintf(low, sizeof(low), "%s_low", metric);
	snprintf(high, sizeof(high), "%s_high", metric);
	json_array_foreach(json_object_get(run, "results"), i, r) {
		double rate = json_real_value(json_object_get(r, metric));
		double median = json_real_value(json_object_get(r, "median_ms"));
		json_t *cl = json_object_get(r, "ci_low_ms"), *ch = json_object_get(r, "ci_high_ms");
		double rel;

		if (!json_is_real(json_object_get(r, metric)) || median <= 0 || !json_is_real(cl) ||
		    !json_is_real(ch) || json_real_value(cl) <= 0) {
			json_object_set_new(r, low, json_null());
			json_object_set_new(r, high, json_null());
			json_object_set_new(r, "ci_pct", json_null());
			continue;
		}
		/* Time and rate are inverse: the slow end of the time is the low
		 * end of the rate. */
		json_object_set_new(r, low, json_real(rate * median / json_real_value(ch)));
		json_object_set_new(r, high, json_real(rate * median / json_real_value(cl)));
		rel = (json_real_value(ch) - json_real_value(cl)) / 2 / median;
		json_object_set_new(r, "ci_pct", json_real(100 * rel));
	}
	return 0;
}

int wl_run_add_cache_marks(const struct wl_experiment *exp, json_t *run)
{
	int hot = wl_request_cache(json_object_get(run, "request")) == WL_CACHE_HOT;
	long long cache = json_integer_value(json_object_get(
		json_object_get(json_object_get(run, "device"), "cache"), "bytes"));
	json_t *kernels = json_object_get(json_object_get(run, "request"), "kernels"), *r, *k;
	size_t i, j;

	json_array_foreach(json_object_get(run, "results"), i, r) {
		const char *variant = json_string_value(json_object_get(r, "variant"));
		const struct wl_variant_def *v = exp && variant ? wl_experiment_variant(exp, variant, NULL) : NULL;
		long long values[64];
		int in_cache = 0;

		json_array_foreach(kernels, j, k)
			if (!v && variant && strcmp(json_string_value(json_object_get(k, "name")), variant) == 0)
				v = wl_experiment_variant(exp, json_string_value(json_object_get(k, "like")), NULL);
		if (hot && v && cache > 0 && exp->nparams <= 64 && wl_point_from_json(exp, json_object_get(r, "params"), values) == 0)
			in_cache = wl_variant_cost(exp, v, WL_COST_MEMORY, values) <= (double)cache;
		json_object_set_new(r, "in_cache", json_boolean(in_cache));
	}
	return 0;
}

static int by_value(const void *a, const void *b)
{
	const struct sweep_point *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

int wl_run_add_drops(const struct wl_experiment *exp, json_t *run)
{
	json_t *results = json_object_get(run, "results"), *drops, *sweeps, *r, *members;
	const char *param, *metric, *key;
	char lo_key[16], hi_key[16];
	size_t i, count = json_array_size(results), longest = 0;
	struct sweep_point *pts = NULL;
	struct wl_drop *found = NULL;
	int rc = -1;

	if (!exp || exp->drops_param < 0 || !json_is_array(results))
		return 0;
	param = exp->params[exp->drops_param].name;
	metric = exp->metric == WL_METRIC_THROUGHPUT ? "gops" : "gbps";
	snprintf(lo_key, sizeof(lo_key), "%s_low", metric);
	snprintf(hi_key, sizeof(hi_key), "%s_high", metric);
	drops = json_array();
	sweeps = json_object();
	pts = calloc(count + 1, sizeof(*pts));
	found = calloc(count + 1, sizeof(*found));
	if (!drops || !sweeps || !pts || !found)
		goto out;
	/* Group the verified points into sweeps. */
	json_array_foreach(results, i, r) {
		char *k;

		if (!json_is_true(json_object_get(r, "verified")) || !json_is_real(json_object_get(r, metric)))
			continue;
		k = baseline_key(r, param);
		if (!k)
			continue;
		members = json_object_get(sweeps, k);
		if (!members) {
			members = json_array();
			json_object_set_new(sweeps, k, members);
		}
		json_array_append(members, r);
		free(k);
	}
	/* No verdict on drops before the run is done, nor over a sweep of fewer
	 * than three points: a drop needs neighbours on both sides. */
	json_object_foreach(sweeps, key, members)
		longest = json_array_size(members) > longest ? json_array_size(members) : longest;
	if (!wl_run_is_finished(run) || longest < 3) {
		rc = json_object_set_new(run, "drops", json_null());
		goto out;
	}
	json_object_foreach(sweeps, key, members) {
		size_t n = json_array_size(members), ndrops;
		double *y = malloc(3 * (n + 1) * sizeof(double)), *lo = y + n + 1, *hi = lo + n + 1;

		if (!y)
			goto out;
		for (i = 0; i < n; i++) {
			r = json_array_get(members, i);
			pts[i].value = json_integer_value(json_object_get(json_object_get(r, "params"), param));
			pts[i].metric = json_real_value(json_object_get(r, metric));
			pts[i].lo = pts[i].hi = pts[i].metric;
			if (json_is_real(json_object_get(r, lo_key)) && json_is_real(json_object_get(r, hi_key))) {
				pts[i].lo = json_real_value(json_object_get(r, lo_key));
				pts[i].hi = json_real_value(json_object_get(r, hi_key));
			}
			pts[i].result = r;
		}
		qsort(pts, n, sizeof(*pts), by_value);
		for (i = 0; i < n; i++) {
			y[i] = pts[i].metric;
			lo[i] = pts[i].lo;
			hi[i] = pts[i].hi;
		}
		ndrops = wl_find_drops(y, lo, hi, n, exp->drops_threshold, found, count);
		free(y);
		for (i = 0; i < ndrops; i++) {
			struct sweep_point *p = &pts[found[i].index];
			json_t *d = json_pack("{s:O, s:O, s:I, s:f, s:f, s:f, s:I}", "variant",
					      json_object_get(p->result, "variant"), "params",
					      json_object_get(p->result, "params"), "value",
					      (json_int_t)p->value, metric, p->metric, "trend",
					      found[i].trend, "below_pct", 100.0 * found[i].below, "pow2",
					      (json_int_t)wl_pow2_divisor(p->value));

			if (d)
				json_array_append_new(drops, d);
		}
	}
	json_object_set_new(run, "drops", drops);
	drops = NULL;
	rc = 0;
out:
	json_decref(drops);
	json_decref(sweeps);
	free(pts);
	free(found);
	return rc;
}

int wl_run_add_ceiling(const struct wl_experiment *exp, const struct wl_catalog *cat, struct wl_store *st,
		       json_t *run, struct wl_error *err)
{
	const char *device = json_string_value(json_object_get(json_object_get(run, "device"), "id"));
	const char *finished = json_string_value(json_object_get(run, "finished_at"));
	const char *copies[WL_STORE_CEILING_VARIANTS];
	json_t *ceiling = NULL, *r;
	size_t i, ncopies = 0;

	/* The ceiling is the built-in copy variants': never a custom kernel's. */
	for (const struct wl_experiment *c = wl_catalog_find(cat, "copy"); c && ncopies < c->nvariants &&
	     ncopies < WL_STORE_CEILING_VARIANTS; ncopies++)
		copies[ncopies] = c->variants[ncopies].id;
	if (device && ncopies && wl_store_copy_ceiling(st, device, finished, copies, ncopies, &ceiling, err) < 0)
		return -1;
	double peak = json_real_value(json_object_get(json_object_get(run, "clocks"), "peak_gbps"));

	json_array_foreach(json_object_get(run, "results"), i, r) {
		json_t *gbps = json_object_get(r, "gbps");

		/* The share of the theoretical peak, where NVML told it. */
		json_object_set_new(r, "peak_pct", peak > 0 && json_is_real(gbps) ?
				    json_real(100.0 * json_real_value(gbps) / peak) : json_null());
		if (ceiling && exp && exp->metric == WL_METRIC_BANDWIDTH && json_is_real(gbps))
			json_object_set_new(r, "ceiling_pct",
					    json_real(100.0 * json_real_value(gbps) /
						      json_real_value(json_object_get(ceiling, "gbps"))));
		else
			json_object_set_new(r, "ceiling_pct", json_null());
	}
	json_object_set_new(run, "ceiling", ceiling ? ceiling : json_null());
	return 0;
}

int wl_run_add_variants(const struct wl_experiment *exp, json_t *run)
{
	json_t *request = json_object_get(run, "request"), *list = json_array(), *customs = json_object();
	json_t *v, *r;
	size_t i;
	int rc = -1;

	if (!list || !customs)
		goto out;
	json_array_foreach(json_object_get(request, "variants"), i, v) {
		const struct wl_variant_def *def = exp ? wl_experiment_variant(exp, json_string_value(v), NULL) : NULL;

		if (json_array_append_new(list, json_pack("{s:O, s:s, s:b}", "id", v, "title",
							  def && def->title ? def->title : json_string_value(v),
							  "custom", 0)) < 0)
			goto out;
	}
	json_array_foreach(json_object_get(request, "kernels"), i, v) {
		json_t *name = json_object_get(v, "name");

		if (!json_is_string(name) ||
		    json_array_append_new(list, json_pack("{s:O, s:O, s:b, s:O}", "id", name, "title", name,
							  "custom", 1, "like", json_object_get(v, "like"))) < 0)
			goto out;
		json_object_set(customs, json_string_value(name), json_is_string(json_object_get(v, "like")) ?
			json_object_get(v, "like") : json_null());
	}
	/* Each result says whether it is a custom kernel's, and which built-in
	 * its harness is (its own for a built-in). */
	json_array_foreach(json_object_get(run, "results"), i, r) {
		json_t *variant = json_object_get(r, "variant");
		json_t *like = json_object_get(customs, json_string_value(variant));

		json_object_set_new(r, "custom", json_boolean(like != NULL));
		json_object_set(r, "like", like && !json_is_null(like) ? like : variant);
	}
	json_object_set(run, "variants", list);
	rc = 0;
out:
	json_decref(list);
	json_decref(customs);
	return rc;
}

int wl_run_is_finished(const json_t *run)
{
	const char *status = json_string_value(json_object_get(run, "status"));

	return status && (strcmp(status, "done") == 0 || strcmp(status, "failed") == 0 ||
			  strcmp(status, "cancelled") == 0);
}

int wl_run_is_settled(const json_t *run)
{
	const char *explain = json_string_value(json_object_get(run, "explain"));

	return wl_run_is_finished(run) && !(explain && strcmp(explain, "pending") == 0);
}

int wl_run_is_final(const json_t *run)
{
	return wl_run_is_settled(run) && !json_object_get(run, "predictions_pending");
}

int wl_run_derive(const struct wl_experiment *exp, const struct wl_catalog *cat, struct wl_store *st, json_t *run,
		  struct wl_error *err)
{
	if (wl_run_add_variants(exp, run) < 0 || wl_run_add_slowdown(exp, run) < 0 ||
	    wl_run_add_intervals(exp, run) < 0 || wl_run_add_cache_marks(exp, run) < 0 ||
	    wl_run_add_drops(exp, run) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_run_add_ceiling(exp, cat, st, run, err) < 0 || wl_run_add_occupancy(cat->gpu_limits, st, run, err) < 0)
		return -1;
	if (wl_run_add_predictions(exp, run) < 0 || wl_run_add_counted(run) < 0 || wl_run_add_energy(run) < 0 ||
	    wl_run_add_verdict(exp, run) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return wl_run_add_previous(st, run, err);
}
