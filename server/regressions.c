/* Comparisons beyond the noise (see regressions.h). A result without an
 * interval (runs from before sampling was driven by noise) counts as its
 * median alone. */
#include "regressions.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "energy_view.h"
#include "request.h"

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

/* The least relative change that counts for a run: its request's noise
 * target (the default where it has none, request.h). */
static double run_min_change(const json_t *run)
{
	struct wl_run_settings set;

	/* A field no validator writes reads as absent: the run is still judged. */
	(void)wl_run_settings_read(json_object_get(run, "request"), &set, NULL);
	return set.noise;
}

/* A result's interval of time, or its median twice. */
static void interval(const json_t *r, double *lo, double *hi)
{
	json_t *l = json_object_get(r, "ci_low_ms"), *h = json_object_get(r, "ci_high_ms");
	double m = json_number_value(json_object_get(r, "median_ms"));

	*lo = json_is_number(l) ? json_number_value(l) : m;
	*hi = json_is_number(h) ? json_number_value(h) : m;
}

/* Whether r is a judged time: verified with a median. */
static int timed(const json_t *r)
{
	return r && json_is_true(json_object_get(r, "verified")) &&
	       json_is_number(json_object_get(r, "median_ms"));
}

static const json_t *same_point(const json_t *results, const json_t *r)
{
	const json_t *p;
	size_t i;

	json_array_foreach(results, i, p)
		if (json_equal(json_object_get(p, "variant"), json_object_get(r, "variant")) &&
		    json_equal(json_object_get(p, "params"), json_object_get(r, "params")) && timed(p))
			return p;
	return NULL;
}

/* Whether r may be a row's fastest or count in a spread between runs: a
 * verified time above 0. A median of 0 or below is no measurement (a timer
 * that read nothing), and a failed or unverified result did not do the
 * work; none of them says how fast the kernel is. */
static int positive_time(const json_t *r)
{
	return timed(r) && json_number_value(json_object_get(r, "median_ms")) > 0;
}

/* Whether two requests time in the same cache mode. */
static int same_mode(const json_t *a, const json_t *b)
{
	return wl_request_cache(a) == wl_request_cache(b);
}

/* What must agree for two runs' times of a point to be repeats of one
 * measurement: the device (its snapshot's id), the language and the cache
 * mode. */
struct setting {
	const char *device, *language, *cache;
};

/* run's setting into *s; 0 when the run has no device (it never started). */
static int setting_of(const json_t *run, struct setting *s)
{
	struct wl_run_settings set;

	/* Absent fields as request.h says (runs from before CUDA are OpenCL's,
	 * from before cold mode hot); one no validator writes reads as absent. */
	(void)wl_run_settings_read(json_object_get(run, "request"), &set, NULL);
	s->device = json_string_value(json_object_get(json_object_get(run, "device"), "id"));
	s->language = wl_language_name(set.language);
	s->cache = wl_cache_mode_name(set.cache);
	return s->device != NULL;
}

static int same_setting(const struct setting *a, const struct setting *b)
{
	return strcmp(a->device, b->device) == 0 && strcmp(a->language, b->language) == 0 &&
	       strcmp(a->cache, b->cache) == 0;
}

static double median_ms(const json_t *r)
{
	return json_number_value(json_object_get(r, "median_ms"));
}


/* The verdict on cell r against base as {"verdict", "change_pct"}, or null
 * values where it cannot be judged. */
static void judge(json_t *cell, const json_t *r, const json_t *base, double min_change)
{
	double lo, hi, base_lo, base_hi, m, bm;

	if (!timed(r) || !timed(base) || r == base) {
		json_object_set_new(cell, "verdict", json_null());
		json_object_set_new(cell, "change_pct", json_null());
		return;
	}
	m = json_number_value(json_object_get(r, "median_ms"));
	bm = json_number_value(json_object_get(base, "median_ms"));
	interval(r, &lo, &hi);
	interval(base, &base_lo, &base_hi);
	json_object_set_new(cell, "verdict", json_string(wl_verdict_name(
		wl_time_verdict(m, lo, hi, bm, base_lo, base_hi, min_change))));
	json_object_set_new(cell, "change_pct", bm > 0 ? json_real(100 * (m - bm) / bm) : json_null());
}

/* Of a row's results (run_ids[i] measured results[i]), the run whose time is
 * apart from and below by more than min_change every other positive
 * verified one, or 0; 0 also where fewer than two are. A zero, failed or
 * unverified result is never the fastest and never stands in the way of
 * one. */
static long long fastest(const json_t *results, const json_t *run_ids, double min_change)
{
	const json_t *best = NULL, *r;
	long long best_run = 0;
	double bm = 0, best_lo, best_hi;
	size_t i, count = 0;

	json_array_foreach(results, i, r) {
		if (!positive_time(r))
			continue;
		count++;
		if (!best || median_ms(r) < bm) {
			best = r;
			bm = median_ms(r);
			best_run = json_integer_value(json_array_get(run_ids, i));
		}
	}
	if (count < 2)
		return 0;
	interval(best, &best_lo, &best_hi);
	json_array_foreach(results, i, r) {
		double lo, hi, m = median_ms(r);

		if (r == best || !positive_time(r))
			continue;
		interval(r, &lo, &hi);
		if (!(best_hi < lo) || (m - bm) / m <= min_change)
			return 0;
	}
	return best_run;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The repeats of one setting, starting at results[first]: every positive
 * verified result from there on whose run (runs_of[i], id ids[i]) has the
 * same setting, marked in taken. Its entry ({"device", "language", "cache",
 * "runs", "medians_ms", "median_ms", "spread_pct", "apart"}) into *out, or
 * NULL where fewer than two runs are; -1 when out of memory. medians has
 * room for every result. */
static int repeat_entry(const json_t *results, const json_t *ids, const json_t *runs_of, size_t first,
			char *taken, double *medians, double min_change, json_t **out)
{
	struct setting want, s;
	json_t *runs = json_array(), *values = json_array(), *r;
	const json_t *quick = NULL, *slow = NULL;
	double lo, hi, qlo, qhi, mid;
	size_t i, k = 0;
	int rc = -1;

	*out = NULL;
	if (!runs || !values)
		goto out;
	setting_of(json_array_get(runs_of, first), &want);
	for (i = first; i < json_array_size(results); i++) {
		r = json_array_get(results, i);
		if (taken[i] || !positive_time(r) || !setting_of(json_array_get(runs_of, i), &s) ||
		    !same_setting(&want, &s))
			continue;
		taken[i] = 1;
		medians[k++] = median_ms(r);
		if (json_array_append(runs, json_array_get(ids, i)) < 0 ||
		    json_array_append_new(values, json_real(median_ms(r))) < 0)
			goto out;
		if (!quick || median_ms(r) < median_ms(quick))
			quick = r;
		if (!slow || median_ms(r) > median_ms(slow))
			slow = r;
	}
	if (k < 2) {
		rc = 0;
		goto out;
	}
	qsort(medians, k, sizeof(*medians), cmp_double);
	mid = k % 2 ? medians[k / 2] : (medians[k / 2 - 1] + medians[k / 2]) / 2;
	interval(slow, &lo, &hi);
	interval(quick, &qlo, &qhi);
	/* Apart: the slowest run's time is slower than the quickest's by the
	 * rule of a verdict, so the runs disagree by more than their noise. */
	*out = json_pack("{s:s, s:s, s:s, s:O, s:O, s:f, s:f, s:b}", "device", want.device, "language",
			 want.language, "cache", want.cache, "runs", runs, "medians_ms", values, "median_ms", mid,
			 "spread_pct", 100 * (medians[k - 1] - medians[0]) / mid, "apart",
			 wl_time_verdict(median_ms(slow), lo, hi, median_ms(quick), qlo, qhi, min_change) ==
				 WL_SLOWER);
	rc = *out ? 0 : -1;
out:
	json_decref(runs);
	json_decref(values);
	return rc;
}

/* The spread between runs that measured a row in one setting: "repeats",
 * an entry per setting (first-seen order) where two or more runs have a
 * positive verified time; [] where none has. -1 when out of memory, with
 * row unchanged. */
static int add_repeats(json_t *row, const json_t *results, const json_t *ids, const json_t *runs_of,
		       double min_change)
{
	size_t n = json_array_size(results), i;
	char *taken = calloc(n + 1, 1);
	double *medians = calloc(n + 1, sizeof(*medians));
	json_t *repeats = json_array(), *entry;
	struct setting s;
	int rc = -1;

	/* wl_compare fills the three side by side, one entry per result. */
	assert(json_array_size(ids) == n && json_array_size(runs_of) == n);
	if (!taken || !medians || !repeats)
		goto out;
	for (i = 0; i < n; i++) {
		if (taken[i] || !positive_time(json_array_get(results, i)) ||
		    !setting_of(json_array_get(runs_of, i), &s))
			continue;
		if (repeat_entry(results, ids, runs_of, i, taken, medians, min_change, &entry) < 0)
			goto out;
		if (entry && json_array_append_new(repeats, entry) < 0)
			goto out;
	}
	if (json_object_set(row, "repeats", repeats) < 0)
		goto out;
	rc = 0;
out:
	json_decref(repeats);
	free(medians);
	free(taken);
	return rc;
}

/* Into cell, r's energy as the compare table shows it: {"j_per_launch",
 * "avg_w", "pj_per_useful_byte", "nj_per_op", "throttled"} — the figures
 * that need no prediction, which a stored run has not — or null, with
 * "energy_error" where the device could not measure it. -1 when out of
 * memory. */
static int energy_cell(json_t *cell, const json_t *r)
{
	static const char *const keys[] = { "j_per_launch", "avg_w", "pj_per_useful_byte", "nj_per_op", "throttled" };
	json_t *figures, *brief = NULL;
	const char *error;

	if (wl_result_energy(r, &figures, &error) < 0)
		return -1;
	if (figures && !(brief = json_object()))
		goto fail;
	for (size_t i = 0; figures && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_object_set(brief, keys[i], json_object_get(figures, keys[i])) < 0)
			goto fail;
	json_decref(figures);
	if (json_object_set_new(cell, "energy", brief ? brief : json_null()) < 0 ||
	    (error && json_object_set_new(cell, "energy_error", json_string(error)) < 0))
		return -1;
	return 0;
fail:
	json_decref(brief);
	json_decref(figures);
	return -1;
}

/* The row of rows for (experiment, r's variant and params), added when new. */
static json_t *row_of(json_t *rows, const char *experiment, const json_t *r)
{
	json_t *row;
	size_t i;

	json_array_foreach(rows, i, row)
		if (strcmp(json_string_value(json_object_get(row, "experiment")), experiment) == 0 &&
		    json_equal(json_object_get(row, "variant"), json_object_get(r, "variant")) &&
		    json_equal(json_object_get(row, "params"), json_object_get(r, "params")))
			return row;
	row = json_pack("{s:s, s:O, s:O, s:[], s:[], s:[], s:[]}", "experiment", experiment, "variant",
			json_object_get(r, "variant"), "params", json_object_get(r, "params"), "cells",
			"results", "runs", "runs_of");
	if (row && json_array_append_new(rows, row) < 0)
		return NULL;
	return row;
}

json_t *wl_compare(const json_t *runs)
{
	const json_t *first = json_array_get(runs, 0), *run, *r;
	double min_change = run_min_change(first);
	json_t *rows = json_array(), *row;
	size_t i, j;

	if (!rows)
		return NULL;
	json_array_foreach(runs, i, run) {
		const char *experiment = json_string_value(json_object_get(run, "experiment"));

		json_array_foreach(json_object_get(run, "results"), j, r) {
			row = experiment ? row_of(rows, experiment, r) : NULL;
			if (!row)
				continue;
			/* A row keeps, side by side, each result, its run's id
			 * and its run, until it is judged. */
			if (json_array_append(json_object_get(row, "results"), (json_t *)r) < 0 ||
			    json_array_append(json_object_get(row, "runs"), json_object_get(run, "id")) < 0 ||
			    json_array_append(json_object_get(row, "runs_of"), (json_t *)run) < 0)
				goto fail;
		}
	}
	json_array_foreach(rows, i, row) {
		json_t *results = json_object_get(row, "results"), *ids = json_object_get(row, "runs");
		const json_t *base = NULL;
		long long best = fastest(results, ids, min_change);

		if (add_repeats(row, results, ids, json_object_get(row, "runs_of"), min_change) < 0)
			goto fail;

		/* The first run's result of this row, if it measured it. */
		json_array_foreach(ids, j, run)
			if (json_equal(run, json_object_get(first, "id")))
				base = json_array_get(results, j);
		json_array_foreach(results, j, r) {
			json_t *cell = json_pack("{s:O}", "run", json_array_get(ids, j));

			if (!cell)
				goto fail;
			judge(cell, r, base, min_change);
			if (json_array_append_new(json_object_get(row, "cells"), cell) < 0 || energy_cell(cell, r) < 0)
				goto fail;
		}
		json_object_set_new(row, "fastest", best ? json_integer(best) : json_null());
		json_object_del(row, "results");
		json_object_del(row, "runs");
		json_object_del(row, "runs_of");
	}
	return json_pack("{s:f, s:f, s:o}", "noise", min_change, "min_change_pct", 100 * min_change,
			 "rows", rows);
fail:
	json_decref(rows);
	return NULL;
}

int wl_run_add_previous(struct wl_store *st, json_t *run, struct wl_error *err)
{
	const char *device = json_string_value(json_object_get(json_object_get(run, "device"), "id"));
	const char *experiment = json_string_value(json_object_get(run, "experiment"));
	json_t *ids = NULL, *prev = NULL, *id, *r;
	double min_change = run_min_change(run);
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
		json_t *cell;

		if (!p || !timed(r))
			continue;
		cell = json_pack("{s:O}", "median_ms", json_object_get(p, "median_ms"));
		if (!cell) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
		judge(cell, r, p, min_change);
		json_object_set_new((json_t *)r, "previous", cell);
	}
	rc = 0;
out:
	json_decref(prev);
	json_decref(ids);
	return rc;
}
