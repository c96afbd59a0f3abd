/* What a device's past says: earlier runs of an experiment (for the
 * regression check), its copy ceiling as of a time, and the totals kept per
 * status and duration for /metrics, and the pace of its last runs (an
 * estimate before queueing). */
#include "store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_db.h"

static const char SQL_PREVIOUS_RUNS[] =
	"SELECT id FROM runs WHERE device_id = ?1 AND experiment = ?2 AND status = 'done' AND id < ?3"
	" ORDER BY id DESC LIMIT ?4";

int wl_store_previous_runs(struct wl_store *st, const char *device_id, const char *experiment,
			   long long before_id, int limit, json_t **out, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_PREVIOUS_RUNS, err);
	json_t *ids = json_array();
	int rc;

	if (!s || !ids) {
		json_decref(ids);
		return -1;
	}
	wl_db_bind_text(s, 1, device_id);
	wl_db_bind_text(s, 2, experiment);
	wl_db_bind_int64(s, 3, before_id);
	wl_db_bind_int64(s, 4, limit);
	while ((rc = wl_db_step(s)) == WL_DB_ROW)
		json_array_append_new(ids, json_integer(wl_db_col_int64(s, 0)));
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "find previous runs");
		json_decref(ids);
		return -1;
	}
	*out = ids;
	return 0;
}

/* The copy ceiling (store.h): the best verified result of a built-in copy
 * variant (their names ?3..?10, NULL where fewer: a custom kernel never sets
 * it) in the last ?11 copy runs on device ?1 in cache mode ?12 that finished
 * by ?2 (NULL: now) with such a result; where that mode has none, in the last
 * ?11 of the other mode. Each half is a backward seek on
 * runs_by_device_experiment (migration 3) that stops at its ?11th run, so
 * the cost does not grow with the history. A run's mode is its request's
 * "cache", read as request.h reads it: "cold", else hot. */
#define RECENT_COPY \
	"SELECT r.id, {run_cache} AS cache FROM runs r WHERE r.device_id = ?1 AND r.experiment = 'copy'" \
	" AND r.status = 'done' AND r.finished_at <= COALESCE(?2, {now}) AND r.id <= COALESCE(?13, r.id)" \
	" AND EXISTS (SELECT 1 FROM results b WHERE b.run_id = r.id" \
	"   AND b.variant IN (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)" \
	"   AND b.verified = 1 AND b.median_ms > 0 AND b.bytes > 0)"
static const char SQL_COPY_CEILING[] =
	"SELECT s.run_id, s.variant, s.params, s.bytes / (s.median_ms * 1e6) AS gbps, w.cache FROM ("
	"  SELECT id, cache, 0 AS other FROM (" RECENT_COPY " AND {run_cache} = ?12"
	"    ORDER BY r.finished_at DESC, r.id DESC LIMIT ?11) mine"
	"  UNION ALL"
	"  SELECT id, cache, 1 AS other FROM (" RECENT_COPY " AND {run_cache} <> ?12"
	"    ORDER BY r.finished_at DESC, r.id DESC LIMIT ?11) theirs"
	" ) w JOIN results s ON s.run_id = w.id"
	" WHERE s.variant IN (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
	" AND s.verified = 1 AND s.median_ms > 0 AND s.bytes > 0"
	" ORDER BY w.other, gbps DESC, s.run_id DESC LIMIT 1";

int wl_store_copy_ceiling(struct wl_store *st, const char *device_id, const char *before, long long upto_id,
			  const char *cache, const char *const *variants, size_t nvariants, json_t **out,
			  struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_COPY_CEILING, err);
	int rc;

	*out = NULL;
	if (!s)
		return -1;
	wl_db_bind_text(s, 1, device_id);
	wl_db_bind_text(s, 2, before);
	for (size_t i = 0; i < WL_STORE_CEILING_VARIANTS; i++)
		wl_db_bind_text(s, (int)i + 3, i < nvariants ? variants[i] : NULL);
	wl_db_bind_int64(s, 11, WL_STORE_CEILING_RUNS);
	wl_db_bind_text(s, 12, cache && strcmp(cache, "cold") == 0 ? "cold" : "hot");
	if (upto_id > 0)
		wl_db_bind_int64(s, 13, upto_id);
	else
		wl_db_bind_null(s, 13);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW)
		*out = json_pack("{s:I, s:o, s:o, s:f, s:o, s:o}", "run", (json_int_t)wl_db_col_int64(s, 0),
				 "variant", store_col_text(s, 1), "params", store_col_json(s, 2), "gbps",
				 wl_db_col_double(s, 3), "cache", store_col_text(s, 4), "url",
				 json_sprintf("/runs/%lld", (long long)wl_db_col_int64(s, 0)));
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "find the copy ceiling");
		return -1;
	}
	return 0;
}

static const char SQL_DURATIONS[] = "SELECT bucket, n, sum_s FROM run_durations";

int wl_store_run_durations(struct wl_store *st, long long counts[WL_STORE_DURATION_BUCKETS],
			   long long *total, double *sum_s, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_DURATIONS, err);
	long long per_bucket[WL_STORE_DURATION_BUCKETS + 1] = { 0 };
	int rc;

	if (!s)
		return -1;
	*total = 0;
	*sum_s = 0;
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		long long b = wl_db_col_int64(s, 0);

		if (b >= 0 && b <= WL_STORE_DURATION_BUCKETS)
			per_bucket[b] += wl_db_col_int64(s, 1);
		*total += wl_db_col_int64(s, 1);
		*sum_s += wl_db_col_double(s, 2);
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "read run durations");
		return -1;
	}
	for (int i = 0; i < WL_STORE_DURATION_BUCKETS; i++)
		counts[i] = per_bucket[i] + (i ? counts[i - 1] : 0);
	return 0;
}

/* The last runs done of an experiment on a device: the pace a new one can
 * be estimated at (their start and end as stored: ISO 8601 in UTC). */
static const char SQL_PACE[] =
	"SELECT total, started_at, finished_at FROM runs WHERE experiment = ?1 AND device_id = ?2"
	" AND status = 'done' AND started_at IS NOT NULL AND finished_at IS NOT NULL AND total > 0"
	" ORDER BY id DESC LIMIT 10";

/* Seconds since 1970 of "2026-11-25T01:02:23.744Z", or -1. */
static double iso_seconds(const char *text)
{
	struct tm tm = { 0 };
	double frac = 0;
	int n = 0;

	if (!text || sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
			    &tm.tm_min, &tm.tm_sec, &n) != 6)
		return -1;
	if (text[n] == '.')
		frac = strtod(text + n, NULL);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) + frac;
}

int wl_store_run_pace(struct wl_store *st, const char *experiment, const char *device_id, int *runs,
		      double *seconds, long long *measurements, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_PACE, err);
	int rc;

	*runs = 0;
	*seconds = 0;
	*measurements = 0;
	if (!s)
		return -1;
	wl_db_bind_text(s, 1, experiment);
	wl_db_bind_text(s, 2, device_id);
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		double from = iso_seconds(wl_db_col_text(s, 1)), to = iso_seconds(wl_db_col_text(s, 2));

		if (from < 0 || to < from)
			continue;
		(*runs)++;
		*seconds += to - from;
		*measurements += wl_db_col_int64(s, 0);
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "read the pace of earlier runs");
		return -1;
	}
	return 0;
}

static const char SQL_COUNT_RUNS[] = "SELECT status, n FROM run_counts";

int wl_store_count_runs(struct wl_store *st, json_t **out, struct wl_error *err)
{
	static const char *const statuses[] = { "queued", "running", "done", "failed", "cancelled" };
	struct wl_db_stmt *s = store_stmt(st, SQL_COUNT_RUNS, err);
	json_t *counts;
	int rc;

	if (!s)
		return -1;
	counts = json_object();
	for (size_t i = 0; counts && i < sizeof(statuses) / sizeof(statuses[0]); i++)
		json_object_set_new(counts, statuses[i], json_integer(0));
	while ((rc = wl_db_step(s)) == WL_DB_ROW)
		json_object_set_new(counts, wl_db_col_text(s, 0),
				    json_integer(wl_db_col_int64(s, 1)));
	wl_db_reset(s);
	if (rc != WL_DB_DONE || !counts) {
		store_fail(st, err, "count runs");
		json_decref(counts);
		return -1;
	}
	*out = counts;
	return 0;
}
