/* Comparisons beyond the noise (see analysis.h, "times told apart beyond the
 * noise"): the rule, a run's previous, and the compare page's table. A
 * result without an interval (runs from before sampling was driven by noise)
 * counts as its median alone. */
#include "analysis.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
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

/* A result's median, 0 where it has none. */
static double median_ms(const struct wl_result *r)
{
	return isnan(r->median_ms) ? 0 : r->median_ms;
}

/* A result's interval of time, or its median twice. */
static void interval(const struct wl_result *r, double *lo, double *hi)
{
	*lo = isnan(r->ci_low_ms) ? median_ms(r) : r->ci_low_ms;
	*hi = isnan(r->ci_high_ms) ? median_ms(r) : r->ci_high_ms;
}

enum wl_verdict wl_result_verdict(const struct wl_run *run, const struct wl_result *a, const struct wl_result *b,
				  int per_work, double min_change)
{
	int ops = run->exp && run->exp->metric == WL_METRIC_THROUGHPUT;
	double wa = per_work ? (ops ? a->ops : a->bytes) : 1, wb = per_work ? (ops ? b->ops : b->bytes) : 1;
	double alo, ahi, blo, bhi;

	if (median_ms(a) <= 0 || median_ms(b) <= 0 || isnan(wa) || isnan(wb) || wa <= 0 || wb <= 0)
		return WL_SAME;
	interval(a, &alo, &ahi);
	interval(b, &blo, &bhi);
	return wl_time_verdict(median_ms(a) / wa, alo / wa, ahi / wa, median_ms(b) / wb, blo / wb, bhi / wb,
			       min_change);
}

/* Whether r is a judged time: verified with a median. */
static int timed(const struct wl_result *r)
{
	return r && r->verified && !isnan(r->median_ms);
}

/* Whether a and b are results of the same variant and point. */
static int same_row(const struct wl_result *a, const struct wl_result *b)
{
	return a->variant && b->variant && strcmp(a->variant, b->variant) == 0 && json_equal(a->params, b->params);
}

/* prev's judged result of r's variant and point, or NULL. */
static const struct wl_result *same_point(const struct wl_run *prev, const struct wl_result *r)
{
	for (size_t i = 0; i < prev->nresults; i++)
		if (same_row(&prev->results[i], r) && timed(&prev->results[i]))
			return &prev->results[i];
	return NULL;
}

/* Whether r may be a row's fastest or count in a spread between runs: a
 * verified time above 0. A median of 0 or below is no measurement (a timer
 * that read nothing), and a failed or unverified result did not do the
 * work; none of them says how fast the kernel is. */
static int positive_time(const struct wl_result *r)
{
	return timed(r) && r->median_ms > 0;
}

/* What must agree for two runs' times of a point to be repeats of one
 * measurement: the device (its snapshot's id), the language and the cache
 * mode. */
struct setting {
	const char *device, *language, *cache;
};

/* run's setting into *s; 0 when the run has no device (it never started). */
static int setting_of(const struct wl_run *run, struct setting *s)
{
	s->device = run->device_id;
	s->language = wl_language_name(run->settings.language);
	s->cache = wl_cache_mode_name(run->settings.cache);
	return s->device != NULL;
}

static int same_setting(const struct setting *a, const struct setting *b)
{
	return strcmp(a->device, b->device) == 0 && strcmp(a->language, b->language) == 0 &&
	       strcmp(a->cache, b->cache) == 0;
}

/* The verdict on cell r against base as {"verdict", "change_pct"}, or null
 * values where it cannot be judged. */
static void judge(json_t *cell, const struct wl_result *r, const struct wl_result *base, double min_change)
{
	double lo, hi, base_lo, base_hi, m, bm;

	if (!timed(r) || !timed(base) || r == base) {
		json_object_set_new(cell, "verdict", json_null());
		json_object_set_new(cell, "change_pct", json_null());
		return;
	}
	m = r->median_ms;
	bm = base->median_ms;
	interval(r, &lo, &hi);
	interval(base, &base_lo, &base_hi);
	json_object_set_new(cell, "verdict", json_string(wl_verdict_name(
		wl_time_verdict(m, lo, hi, bm, base_lo, base_hi, min_change))));
	json_object_set_new(cell, "change_pct", bm > 0 ? json_real(100 * (m - bm) / bm) : json_null());
}

/* One row of the compare table: a result of one variant at one point in
 * each run that measured it, side by side. */
struct row {
	const char *experiment;
	const struct wl_result *first;	/* the result that opened it */
	json_t *json;
	size_t n, cap;
	const struct wl_result **results;
	const struct wl_run **runs;
};

/* Of a row's results, the run whose time is apart from and below by more
 * than min_change every other positive verified one, or 0; 0 also where
 * fewer than two are. A zero, failed or unverified result is never the
 * fastest and never stands in the way of one. */
static long long fastest(const struct row *row, double min_change)
{
	const struct wl_result *best = NULL;
	long long best_run = 0;
	double bm = 0, best_lo, best_hi;
	size_t i, count = 0;

	for (i = 0; i < row->n; i++) {
		const struct wl_result *r = row->results[i];

		if (!positive_time(r))
			continue;
		count++;
		if (!best || median_ms(r) < bm) {
			best = r;
			bm = median_ms(r);
			best_run = row->runs[i]->id;
		}
	}
	if (count < 2)
		return 0;
	interval(best, &best_lo, &best_hi);
	for (i = 0; i < row->n; i++) {
		const struct wl_result *r = row->results[i];
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

/* The repeats of one setting, starting at the row's result first: every
 * positive verified result from there on whose run has the same setting,
 * marked in taken. Its entry ({"device", "language", "cache", "runs",
 * "medians_ms", "median_ms", "spread_pct", "apart"}) into *out, or NULL
 * where fewer than two runs are; -1 when out of memory. medians has room
 * for every result. */
static int repeat_entry(const struct row *row, size_t first, char *taken, double *medians, double min_change,
			json_t **out)
{
	struct setting want, s;
	json_t *runs = json_array(), *values = json_array();
	const struct wl_result *quick = NULL, *slow = NULL;
	double lo, hi, qlo, qhi, mid;
	size_t i, k = 0;
	int rc = -1;

	*out = NULL;
	if (!runs || !values)
		goto out;
	setting_of(row->runs[first], &want);
	for (i = first; i < row->n; i++) {
		const struct wl_result *r = row->results[i];

		if (taken[i] || !positive_time(r) || !setting_of(row->runs[i], &s) || !same_setting(&want, &s))
			continue;
		taken[i] = 1;
		medians[k++] = median_ms(r);
		if (json_array_append_new(runs, json_integer(row->runs[i]->id)) < 0 ||
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
 * the row unchanged. */
static int add_repeats(const struct row *row, double min_change)
{
	char *taken = calloc(row->n + 1, 1);
	double *medians = calloc(row->n + 1, sizeof(*medians));
	json_t *repeats = json_array(), *entry;
	struct setting s;
	int rc = -1;

	if (!taken || !medians || !repeats)
		goto out;
	for (size_t i = 0; i < row->n; i++) {
		if (taken[i] || !positive_time(row->results[i]) || !setting_of(row->runs[i], &s))
			continue;
		if (repeat_entry(row, i, taken, medians, min_change, &entry) < 0)
			goto out;
		if (entry && json_array_append_new(repeats, entry) < 0)
			goto out;
	}
	if (json_object_set(row->json, "repeats", repeats) < 0)
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
static int energy_cell(json_t *cell, const struct wl_result *r)
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

/* The cells of row, each judged against base (the first run's result, or
 * NULL), and what the row's fastest and repeats are. -1 when out of
 * memory. */
static int judge_row(const struct row *row, const struct wl_result *base, double min_change)
{
	long long best = fastest(row, min_change);

	if (add_repeats(row, min_change) < 0)
		return -1;
	for (size_t j = 0; j < row->n; j++) {
		json_t *cell = json_pack("{s:I}", "run", (json_int_t)row->runs[j]->id);

		if (!cell)
			return -1;
		judge(cell, row->results[j], base, min_change);
		if (json_array_append_new(json_object_get(row->json, "cells"), cell) < 0 ||
		    energy_cell(cell, row->results[j]) < 0)
			return -1;
	}
	return json_object_set_new(row->json, "fastest", best ? json_integer(best) : json_null());
}

/* The row of rows (nrows of them) that result r of an experiment's run
 * belongs to, or -1 where none yet. */
static long row_of(const struct row *rows, size_t nrows, const char *experiment, const struct wl_result *r)
{
	for (size_t k = 0; k < nrows; k++)
		if (strcmp(rows[k].experiment, experiment) == 0 && same_row(rows[k].first, r))
			return (long)k;
	return -1;
}

/* A new row for r (of experiment), appended to list; -1 when out of
 * memory. */
static int new_row(struct row *row, const char *experiment, const struct wl_result *r, json_t *list)
{
	row->experiment = experiment;
	row->first = r;
	row->json = json_pack("{s:s, s:s, s:O, s:[]}", "experiment", experiment, "variant", r->variant, "params",
			      r->params, "cells");
	return row->json && json_array_append(list, row->json) == 0 ? 0 : -1;
}

/* Each result of runs into its row, in first-seen order (rows and where
 * have room for every result): where[t] is the t-th result's row, -1 for
 * one that names no variant or point. The rows' count, or -1 when out of
 * memory. */
static long find_rows(const struct wl_run *runs, size_t n, struct row *rows, long *where, json_t *list)
{
	size_t nrows = 0, t = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < runs[i].nresults; j++, t++) {
			const struct wl_result *r = &runs[i].results[j];
			long k = runs[i].experiment ? row_of(rows, nrows, runs[i].experiment, r) : -1;

			if (k < 0 && runs[i].experiment && r->variant && r->params) {
				if (new_row(&rows[nrows], runs[i].experiment, r, list) < 0)
					return -1;
				k = (long)nrows++;
			}
			where[t] = k;
			if (k >= 0)
				rows[k].n++;
		}
	}
	return (long)nrows;
}

/* Each row's results and their runs side by side, as find_rows placed
 * them. -1 when out of memory. */
static int fill_rows(const struct wl_run *runs, size_t n, struct row *rows, size_t nrows, const long *where)
{
	size_t t = 0;

	for (size_t k = 0; k < nrows; k++) {
		rows[k].cap = rows[k].n;
		rows[k].results = calloc(rows[k].cap + 1, sizeof(*rows[k].results));
		rows[k].runs = calloc(rows[k].cap + 1, sizeof(*rows[k].runs));
		if (!rows[k].results || !rows[k].runs)
			return -1;
		rows[k].n = 0;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < runs[i].nresults; j++, t++) {
			struct row *row = where[t] >= 0 ? &rows[where[t]] : NULL;

			if (!row)
				continue;
			/* The same results as find_rows counted, in the same order. */
			assert(row->n < row->cap);
			row->results[row->n] = &runs[i].results[j];
			row->runs[row->n++] = &runs[i];
		}
	}
	return 0;
}

json_t *wl_compare(const struct wl_run *runs, size_t n)
{
	/* The min change is the first run's noise target (its default where
	 * the request has none). */
	double min_change = n ? runs[0].settings.noise : WL_NOISE_DEFAULT;
	size_t total = 0, i;
	json_t *list = json_array(), *out = NULL;
	struct row *rows;
	long *where, nrows = 0;

	for (i = 0; i < n; i++)
		total += runs[i].nresults;
	rows = calloc(total + 1, sizeof(*rows));
	where = calloc(total + 1, sizeof(*where));
	if (!list || !rows || !where || (nrows = find_rows(runs, n, rows, where, list)) < 0 ||
	    fill_rows(runs, n, rows, (size_t)nrows, where) < 0)
		goto out;
	for (long k = 0; k < nrows; k++) {
		const struct wl_result *base = NULL;

		/* The first run's result of this row, if it measured it. */
		for (size_t j = 0; j < rows[k].n; j++)
			if (rows[k].runs[j]->id == runs[0].id)
				base = rows[k].results[j];
		if (judge_row(&rows[k], base, min_change) < 0)
			goto out;
	}
	out = json_pack("{s:f, s:f, s:O}", "noise", min_change, "min_change_pct", 100 * min_change, "rows", list);
out:
	for (long k = 0; rows && k < nrows; k++) {
		json_decref(rows[k].json);
		free(rows[k].results);
		free(rows[k].runs);
	}
	free(rows);
	free(where);
	json_decref(list);
	return out;
}

/* The latest of ids (newest first) that is a run in run's cache mode and
 * measured any of its points, typed into *prev (prev->json NULL: none). */
static int previous_of(const struct wl_run *run, struct wl_store *st, const json_t *ids, struct wl_run *prev,
		       struct wl_error *err)
{
	const json_t *id;
	size_t i;

	memset(prev, 0, sizeof(*prev));
	json_array_foreach(ids, i, id) {
		json_t *stored = NULL;
		int shared = 0, rc;

		if (wl_store_get_run(st, json_integer_value(id), 1, &stored, err) < 0)
			return -1;
		rc = wl_run_read(run->cat, stored, prev, err);
		json_decref(stored);
		if (rc < 0)
			return -1;
		for (size_t j = 0; j < run->nresults; j++)
			shared |= same_point(prev, &run->results[j]) != NULL;
		if (shared && prev->settings.cache == run->settings.cache)
			return 0;
		wl_run_free(prev);
	}
	return 0;
}

int wl_run_add_previous(struct wl_run *run, struct wl_store *st, struct wl_error *err)
{
	double min_change = run->settings.noise;
	json_t *ids = NULL;
	struct wl_run prev = { 0 };
	int rc = -1;

	json_object_set_new(run->json, "previous", json_null());
	if (!run->device_id || !run->experiment)
		return 0;
	if (wl_store_previous_runs(st, run->device_id, run->experiment, run->id, 20, &ids, err) < 0 ||
	    previous_of(run, st, ids, &prev, err) < 0)
		goto out;
	if (!prev.json) {
		rc = 0;
		goto out;
	}
	json_object_set_new(run->json, "previous", json_pack("{s:I, s:s, s:f}", "run", (json_int_t)prev.id, "url",
							     prev.url, "min_change_pct", 100 * min_change));
	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		const struct wl_result *p = same_point(&prev, r);
		json_t *cell;

		if (!p || !timed(r))
			continue;
		cell = json_pack("{s:f}", "median_ms", p->median_ms);
		if (!cell) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
		judge(cell, r, p, min_change);
		json_object_set_new(r->json, "previous", cell);
	}
	rc = 0;
out:
	wl_run_free(&prev);
	json_decref(ids);
	return rc;
}
