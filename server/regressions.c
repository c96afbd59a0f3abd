/* Comparisons beyond the noise (see regressions.h). A result without an
 * interval (runs from before sampling was driven by noise) counts as its
 * median alone. */
#include "regressions.h"

#include <string.h>

enum wl_verdict wl_time_verdict(double m, double lo, double hi, double base_m, double base_lo,
				double base_hi, double min_change)
{
	double change = base_m > 0 ? (m - base_m) / base_m : 0;

	if (hi < base_lo && -change > min_change)
		return WL_FASTER;
	if (lo > base_hi && change > min_change)
		return WL_SLOWER;
	return WL_SAME;
}

const char *wl_verdict_name(enum wl_verdict v)
{
	return v == WL_FASTER ? "faster" : v == WL_SLOWER ? "slower" : "same";
}

/* A result's interval of time, or its median twice. */
static void interval(const json_t *r, double *lo, double *hi)
{
	json_t *l = json_object_get(r, "ci_low_ms"), *h = json_object_get(r, "ci_high_ms");
	double m = json_real_value(json_object_get(r, "median_ms"));

	*lo = json_is_real(l) ? json_real_value(l) : m;
	*hi = json_is_real(h) ? json_real_value(h) : m;
}

static const json_t *same_point(const json_t *results, const json_t *r)
{
	const json_t *p;
	size_t i;

	json_array_foreach(results, i, p)
		if (json_equal(json_object_get(p, "variant"), json_object_get(r, "variant")) &&
		    json_equal(json_object_get(p, "params"), json_object_get(r, "params")) &&
		    json_is_true(json_object_get(p, "verified")) && json_is_real(json_object_get(p, "median_ms")))
			return p;
	return NULL;
}

/* Whether two requests time in the same cache mode (absent: the old, hot). */
static int same_mode(const json_t *a, const json_t *b)
{
	const char *x = json_string_value(json_object_get(a, "cache"));
	const char *y = json_string_value(json_object_get(b, "cache"));

	return strcmp(x ? x : "hot", y ? y : "hot") == 0;
}

int wl_run_add_previous(struct wl_store *st, json_t *run, struct wl_error *err)
{
	const char *device = json_string_value(json_object_get(json_object_get(run, "device"), "id"));
	const char *experiment = json_string_value(json_object_get(run, "experiment"));
	json_t *ids = NULL, *prev = NULL, *id, *r;
	json_t *noise = json_object_get(json_object_get(run, "request"), "noise");
	double min_change = json_is_number(noise) ? json_number_value(noise) : 0.01;
	size_t i, j;
	int rc = -1;

	json_object_set_new(run, "previous", json_null());
	if (!device || !experiment)
		return 0;
	if (wl_store_previous_runs(st, device, experiment, json_integer_value(json_object_get(run, "id")), 20,
				   &ids, err) < 0)
		return -1;
	/* The latest one in the same mode that measured any of this run's
	 * points. */
	json_array_foreach(ids, i, id) {
		int shared = 0;

		if (wl_store_get_run(st, json_integer_value(id), 1, &prev, err) < 0)
			goto out;
		json_array_foreach(json_object_get(run, "results"), j, r)
			shared |= same_point(json_object_get(prev, "results"), r) != NULL;
		if (shared && same_mode(json_object_get(prev, "request"), json_object_get(run, "request")))
			break;
		json_decref(prev);
		prev = NULL;
	}
	if (!prev) {
		rc = 0;
		goto out;
	}
	json_object_set_new(run, "previous", json_pack("{s:O, s:O, s:f}", "run", json_object_get(prev, "id"),
						       "url", json_object_get(prev, "url"), "min_change_pct",
						       100 * min_change));
	json_array_foreach(json_object_get(run, "results"), i, r) {
		const json_t *p = same_point(json_object_get(prev, "results"), r);
		double lo, hi, base_lo, base_hi, m = json_real_value(json_object_get(r, "median_ms"));
		double pm;

		if (!p || !json_is_true(json_object_get(r, "verified")) || !json_is_real(json_object_get(r, "median_ms")))
			continue;
		interval(r, &lo, &hi);
		interval(p, &base_lo, &base_hi);
		pm = json_real_value(json_object_get(p, "median_ms"));
		json_object_set_new((json_t *)r, "previous",
				    json_pack("{s:s, s:f, s:f}", "verdict",
					      wl_verdict_name(wl_time_verdict(m, lo, hi, pm, base_lo, base_hi, min_change)),
					      "change_pct", 100 * (m - pm) / pm, "median_ms", pm));
	}
	rc = 0;
out:
	json_decref(prev);
	json_decref(ids);
	return rc;
}
