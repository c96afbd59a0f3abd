/* Comparisons beyond the noise (see regressions.h). A result without an
 * interval (runs from before sampling was driven by noise) counts as its
 * median alone. */
#include "regressions.h"

#include <string.h>

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
 * target, or the request's default where it has none. */
static double run_min_change(const json_t *run)
{
	json_t *noise = json_object_get(json_object_get(run, "request"), "noise");

	return json_is_number(noise) ? json_number_value(noise) : WL_NOISE_DEFAULT;
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

/* Whether two requests time in the same cache mode (absent: the old, hot). */
static int same_mode(const json_t *a, const json_t *b)
{
	const char *x = json_string_value(json_object_get(a, "cache"));
	const char *y = json_string_value(json_object_get(b, "cache"));

	return strcmp(x ? x : "hot", y ? y : "hot") == 0;
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
 * apart from and below by more than min_change every other timed one, or 0;
 * 0 also where fewer than two are timed. */
static long long fastest(const json_t *results, const json_t *run_ids, double min_change)
{
	const json_t *best = NULL, *r;
	long long best_run = 0;
	size_t i, count = 0;

	json_array_foreach(results, i, r)
		if (timed(r) && ++count && (!best || json_number_value(json_object_get(r, "median_ms")) <
						  json_number_value(json_object_get(best, "median_ms")))) {
			best = r;
			best_run = json_integer_value(json_array_get(run_ids, i));
		}
	if (!best)
		return 0;
	json_array_foreach(results, i, r) {
		double lo, hi, best_lo, best_hi, m, bm;

		if (r == best || !timed(r))
			continue;
		interval(r, &lo, &hi);
		interval(best, &best_lo, &best_hi);
		m = json_number_value(json_object_get(r, "median_ms"));
		bm = json_number_value(json_object_get(best, "median_ms"));
		if (!(best_hi < lo) || !(m > 0) || (m - bm) / m <= min_change)
			return 0;
	}
	return count > 1 ? best_run : 0;
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
	row = json_pack("{s:s, s:O, s:O, s:[], s:[], s:[]}", "experiment", experiment, "variant",
			json_object_get(r, "variant"), "params", json_object_get(r, "params"), "cells",
			"results", "runs");
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
			json_array_append(json_object_get(row, "results"), (json_t *)r);
			json_array_append(json_object_get(row, "runs"), json_object_get(run, "id"));
		}
	}
	json_array_foreach(rows, i, row) {
		json_t *results = json_object_get(row, "results"), *ids = json_object_get(row, "runs");
		const json_t *base = NULL;
		long long best = fastest(results, ids, min_change);

		/* The first run's result of this row, if it measured it. */
		json_array_foreach(ids, j, run)
			if (json_equal(run, json_object_get(first, "id")))
				base = json_array_get(results, j);
		json_array_foreach(results, j, r) {
			json_t *cell = json_pack("{s:O}", "run", json_array_get(ids, j));

			if (!cell)
				goto fail;
			judge(cell, r, base, min_change);
			json_array_append_new(json_object_get(row, "cells"), cell);
		}
		json_object_set_new(row, "fastest", best ? json_integer(best) : json_null());
		json_object_del(row, "results");
		json_object_del(row, "runs");
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
