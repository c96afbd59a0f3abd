/* Drops below both neighbours (see analysis.h, "drops"): the rule on one
 * sweep's figures, and a run's sweeps searched with it. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t wl_find_drops(const double *y, const double *lo, const double *hi, size_t n, double threshold,
		     struct wl_drop *out, size_t max)
{
	size_t found = 0;

	for (size_t i = 1; i + 1 < n; i++) {
		double trend = y[i - 1] < y[i + 1] ? y[i - 1] : y[i + 1];

		if (trend <= 0 || y[i] >= (1.0 - threshold) * trend)
			continue;
		if (lo && hi && (hi[i] >= lo[i - 1] || hi[i] >= lo[i + 1]))
			continue;	/* within the noise of a neighbour */
		if (found < max) {
			out[found].index = i;
			out[found].trend = trend;
			out[found].below = 1.0 - y[i] / trend;
		}
		found++;
	}
	return found;
}

long long wl_pow2_divisor(long long v)
{
	return v > 0 ? v & -v : 0;
}

/* One point of a sweep: the swept value, the rate and its interval, the
 * result it came from. */
struct sweep_point {
	long long value;
	double metric, lo, hi;
	struct wl_result *result;
};

static int by_value(const void *a, const void *b)
{
	const struct sweep_point *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

/* The run's verified rated results grouped into sweeps (same variant and
 * params but the swept one), in first-seen order: group[i] is result i's
 * sweep or -1, *nsweeps how many, *longest the most points of one. */
static int group_sweeps(const struct wl_run *run, const char *param, long *group, long *nsweeps, size_t *longest)
{
	json_t *index = json_object();
	size_t *sizes = calloc(run->nresults + 1, sizeof(*sizes));
	int rc = -1;

	*nsweeps = 0;
	*longest = 0;
	if (!index || !sizes)
		goto out;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];
		char *k = r->verified && !isnan(wl_result_rate(run, r)) ? wl_sweep_key(r, param) : NULL;
		json_t *at = k ? json_object_get(index, k) : NULL;

		group[i] = -1;
		if (!k)
			continue;
		if (!at) {
			at = json_integer((*nsweeps)++);
			json_object_set_new(index, k, at);
		}
		group[i] = (long)json_integer_value(at);
		if (++sizes[group[i]] > *longest)
			*longest = sizes[group[i]];
		free(k);
	}
	rc = 0;
out:
	json_decref(index);
	free(sizes);
	return rc;
}

/* The drops of sweep g (its points into pts, room for every result) into
 * drops; found has room for every result. */
static int sweep_drops(struct wl_run *run, const char *param, const long *group, long g, struct sweep_point *pts,
		       struct wl_drop *found, json_t *drops)
{
	const char *metric = wl_run_metric(run);
	size_t n = 0, ndrops, i;
	double *y;

	for (i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];

		if (group[i] != g)
			continue;
		pts[n].value = wl_result_param(r, param);
		pts[n].metric = pts[n].lo = pts[n].hi = wl_result_rate(run, r);
		if (!isnan(r->rate_low) && !isnan(r->rate_high)) {
			pts[n].lo = r->rate_low;
			pts[n].hi = r->rate_high;
		}
		pts[n++].result = r;
	}
	y = malloc(3 * (n + 1) * sizeof(double));
	if (!y)
		return -1;
	qsort(pts, n, sizeof(*pts), by_value);
	for (i = 0; i < n; i++) {
		y[i] = pts[i].metric;
		y[n + 1 + i] = pts[i].lo;
		y[2 * (n + 1) + i] = pts[i].hi;
	}
	ndrops = wl_find_drops(y, y + n + 1, y + 2 * (n + 1), n, run->exp->drops_threshold, found, run->nresults);
	free(y);
	for (i = 0; i < ndrops; i++) {
		struct sweep_point *p = &pts[found[i].index];
		json_t *d = json_pack("{s:s, s:O, s:I, s:f, s:f, s:f, s:I}", "variant", p->result->variant, "params",
				      p->result->params, "value", (json_int_t)p->value, metric, p->metric, "trend",
				      found[i].trend, "below_pct", 100.0 * found[i].below, "pow2",
				      (json_int_t)wl_pow2_divisor(p->value));

		if (d)
			json_array_append_new(drops, d);
		for (size_t k = 0; k < run->nresults; k++)
			run->results[k].in_drop |= run->results[k].variant == p->result->variant ||
				(run->results[k].variant && strcmp(run->results[k].variant, p->result->variant) == 0);
	}
	return 0;
}

int wl_run_add_drops(struct wl_run *run)
{
	const struct wl_experiment *exp = run->exp;
	long *group = NULL, nsweeps;
	struct sweep_point *pts = NULL;
	struct wl_drop *found = NULL;
	json_t *drops = NULL;
	size_t longest;
	int rc = -1;

	if (!exp || exp->drops_param < 0 || !run->has_results)
		return 0;
	group = calloc(run->nresults + 1, sizeof(*group));
	pts = calloc(run->nresults + 1, sizeof(*pts));
	found = calloc(run->nresults + 1, sizeof(*found));
	drops = json_array();
	if (!group || !pts || !found || !drops ||
	    group_sweeps(run, exp->params[exp->drops_param].name, group, &nsweeps, &longest) < 0)
		goto out;
	/* No verdict on drops before the run is done, nor over a sweep of fewer
	 * than three points: a drop needs neighbours on both sides. */
	if (!wl_run_is_finished(run) || longest < 3) {
		rc = json_object_set_new(run->json, "drops", json_null());
		goto out;
	}
	for (long g = 0; g < nsweeps; g++)
		if (sweep_drops(run, exp->params[exp->drops_param].name, group, g, pts, found, drops) < 0)
			goto out;
	json_object_set_new(run->json, "drops", drops);
	drops = NULL;
	rc = 0;
out:
	json_decref(drops);
	free(group);
	free(pts);
	free(found);
	return rc;
}
