/* Runs as clients see them: queueing a run, reading one with its results,
 * listing runs newest first with keyset paging, cancelling. */
#include "store_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SQL_COUNT_QUEUED[] = "SELECT count(*) FROM runs WHERE status = 'queued'";

static const char SQL_INSERT_RUN[] =
	"INSERT INTO runs (experiment, label, status, request, device_req, device_id, total, created_at,"
	" change_seq)"
	" VALUES (?1, ?2, 'queued', ?3, ?4, ?5, ?6, {now},"
	" (SELECT coalesce(max(change_seq), 0) + 1 FROM runs)) RETURNING id";

int wl_store_insert_run(struct wl_store *st, const struct wl_new_run *run, long long *id,
			struct wl_error *err)
{
	struct wl_db_stmt *s;

	if (store_begin(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_COUNT_QUEUED, err);
	if (!s)
		goto fail;
	if (wl_db_step(s) != WL_DB_ROW) {
		store_fail(st, err, "count queued runs");
		goto fail;
	}
	if (wl_db_col_int64(s, 0) >= run->queue_limit) {
		wl_error_set(err, WL_ERR_QUEUE_FULL,
			     "the queue is full (%lld runs queued, the limit is %lld); try again when some have run",
			     (long long)wl_db_col_int64(s, 0), run->queue_limit);
		wl_db_reset(s);
		goto fail;
	}
	wl_db_reset(s);
	s = store_stmt(st, SQL_INSERT_RUN, err);
	if (!s)
		goto fail;
	wl_db_bind_text(s, 1, run->experiment);
	wl_db_bind_text(s, 2, run->label);
	wl_db_bind_text(s, 3, run->request_json);
	wl_db_bind_text(s, 4, run->device_req);
	wl_db_bind_text(s, 5, run->device_id);
	wl_db_bind_int64(s, 6, run->total);
	if (wl_db_step(s) != WL_DB_ROW) {
		store_fail(st, err, "insert run");
		wl_db_reset(s);
		goto fail;
	}
	*id = wl_db_col_int64(s, 0);
	wl_db_reset(s);
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

static const char SQL_GET_RUN[] =
	"SELECT r.id, r.experiment, r.label, r.status, r.created_at, r.started_at, r.finished_at,"
	" r.request, COALESCE(r.device, d.info), r.done, r.total, r.error, r.attempts, r.requeues,"
	" r.source_hash, r.runner_version, r.clocks, r.flush_bytes, r.budget"
	" FROM runs r LEFT JOIN devices d ON d.id = r.device_id WHERE r.id = ?1";

static const char SQL_GET_RESULTS[] =
	"SELECT variant, params, median_ms, min_ms, max_ms, reps, bytes, ops, verified, error, note,"
	" extra, ci_low_ms, ci_high_ms, spread, stopped, discarded FROM results WHERE run_id = ?1"
	" ORDER BY seq";
static const char SQL_GET_SAMPLES[] =
	"SELECT seq, variant, params, samples FROM results WHERE run_id = ?1 ORDER BY seq";

static json_t *col_real_or_null(struct wl_db_stmt *s, int col)
{
	if (wl_db_col_null(s, col))
		return json_null();
	return json_real(wl_db_col_double(s, col));
}

/* bytes or ops per second in G, from a count and a time in ms; null when
 * either is missing. */
static json_t *rate(struct wl_db_stmt *s, int count_col, int ms_col)
{
	double count, ms;

	if (wl_db_col_null(s, count_col) ||
	    wl_db_col_null(s, ms_col))
		return json_null();
	count = wl_db_col_double(s, count_col);
	ms = wl_db_col_double(s, ms_col);
	if (count <= 0 || ms <= 0)
		return json_null();
	return json_real(count / (ms * 1e6));
}

static int get_results(struct wl_store *st, long long id, json_t *results, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_GET_RESULTS, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, id);
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		json_t *bytes = wl_db_col_null(s, 6)
					? json_null()
					: json_integer((json_int_t)wl_db_col_double(s, 6));
		json_t *ops = wl_db_col_null(s, 7)
				      ? json_null()
				      : json_real(wl_db_col_double(s, 7));
		json_t *row = json_pack("{s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:b, s:o, s:o}",
					"variant", store_col_text(s, 0), "params",
					store_col_json(s, 1), "median_ms", col_real_or_null(s, 2),
					"min_ms", col_real_or_null(s, 3), "max_ms",
					col_real_or_null(s, 4), "reps",
					(json_int_t)wl_db_col_int64(s, 5), "bytes", bytes,
					"gbps", rate(s, 6, 2), "ops", ops, "gops", rate(s, 7, 2),
					"verified", wl_db_col_int64(s, 8), "error",
					store_col_text(s, 9), "note", store_col_text(s, 10));

		if (row) {
			json_object_set_new(row, "extra", store_col_json(s, 11));
			json_object_set_new(row, "ci_low_ms", col_real_or_null(s, 12));
			json_object_set_new(row, "ci_high_ms", col_real_or_null(s, 13));
			json_object_set_new(row, "spread", col_real_or_null(s, 14));
			json_object_set_new(row, "stopped", store_col_text(s, 15));
			json_object_set_new(row, "discarded", json_integer(wl_db_col_int64(s, 16)));
		}
		if (!row || json_array_append_new(results, row) < 0) {
			wl_db_reset(s);
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "read results");
		return -1;
	}
	return 0;
}

static const char SQL_RUN_EXISTS[] = "SELECT 1 FROM runs WHERE id = ?1";

/* 0 when run id exists, else -1 with WL_ERR_NOT_FOUND (or a store error). */
static int run_exists(struct wl_store *st, long long id, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_RUN_EXISTS, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, id);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc == WL_DB_ROW)
		return 0;
	if (rc == WL_DB_DONE)
		wl_error_set(err, WL_ERR_NOT_FOUND, "run %lld does not exist", id);
	else
		store_fail(st, err, "find a run");
	return -1;
}

int wl_store_get_samples(struct wl_store *st, long long id, json_t **out, struct wl_error *err)
{
	struct wl_db_stmt *s;
	json_t *list = json_array();
	int rc;

	if (!list || run_exists(st, id, err) < 0) {
		json_decref(list);
		return -1;
	}
	s = store_stmt(st, SQL_GET_SAMPLES, err);
	if (!s) {
		json_decref(list);
		return -1;
	}
	wl_db_bind_int64(s, 1, id);
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		size_t bytes = 0;
		const float *blob = wl_db_col_blob(s, 3, &bytes);
		size_t n = bytes / sizeof(float);
		json_t *samples = json_array();

		for (size_t i = 0; samples && blob && i < n; i++) {
			float v;
			char text[32];

			/* A float holds 7 digits: print those, not the double's tail. */
			memcpy(&v, blob + i, sizeof(v));
			snprintf(text, sizeof(text), "%.7g", (double)v);
			json_array_append_new(samples, json_real(strtod(text, NULL)));
		}
		json_array_append_new(list, json_pack("{s:I, s:o, s:o, s:o}", "seq",
						      (json_int_t)wl_db_col_int64(s, 0), "variant",
						      store_col_text(s, 1), "params", store_col_json(s, 2),
						      "samples_ms", samples ? samples : json_null()));
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "read samples");
		json_decref(list);
		return -1;
	}
	*out = json_pack("{s:I, s:o}", "run", (json_int_t)id, "results", list);
	return 0;
}

int wl_store_get_run(struct wl_store *st, long long id, int with_results, json_t **out,
		     struct wl_error *err)
{
	struct wl_db_stmt *s;
	json_t *run = NULL, *results;
	int rc;

	/* One read transaction, so the run and its results agree. */
	if (store_begin_read(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_GET_RUN, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, id);
	rc = wl_db_step(s);
	if (rc == WL_DB_DONE) {
		wl_db_reset(s);
		wl_error_set(err, WL_ERR_NOT_FOUND, "run %lld does not exist", id);
		goto fail;
	}
	if (rc != WL_DB_ROW) {
		store_fail(st, err, "read run");
		wl_db_reset(s);
		goto fail;
	}
	run = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:I, s:I}, s:o, s:I, s:I, s:o, s:o}",
			"id", (json_int_t)wl_db_col_int64(s, 0), "experiment",
			store_col_text(s, 1), "label", store_col_text(s, 2), "status",
			store_col_text(s, 3), "created_at", store_col_text(s, 4), "started_at",
			store_col_text(s, 5), "finished_at", store_col_text(s, 6), "request",
			store_col_json(s, 7), "device", store_col_json(s, 8), "progress", "done",
			(json_int_t)wl_db_col_int64(s, 9), "total",
			(json_int_t)wl_db_col_int64(s, 10), "error", store_col_text(s, 11),
			"attempts", (json_int_t)wl_db_col_int64(s, 12), "requeues",
			(json_int_t)wl_db_col_int64(s, 13), "source_hash",
			store_col_text(s, 14), "runner_version", store_col_text(s, 15));
	if (run) {
		json_object_set_new(run, "clocks", store_col_json(s, 16));
		json_object_set_new(run, "flush_bytes", wl_db_col_null(s, 17) ? json_null() :
				    json_integer(wl_db_col_int64(s, 17)));
		json_object_set_new(run, "budget", store_col_json(s, 18));
	}
	wl_db_reset(s);
	if (!run) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	json_object_set_new(run, "url", json_sprintf("/runs/%lld", id));
	if (with_results) {
		results = json_array();
		if (!results || json_object_set_new(run, "results", results) < 0 ||
		    get_results(st, id, results, err) < 0)
			goto fail;
	}
	store_commit(st, NULL);
	*out = run;
	return 0;
fail:
	json_decref(run);
	store_rollback(st);
	return -1;
}

/* The columns of a run's summary, as the list and the change feed give it. */
#define SUMMARY_COLUMNS \
	"r.id, r.experiment, r.label, r.status, r.created_at, r.started_at, r.finished_at," \
	" r.device_id, COALESCE(r.device, d.info), r.done, r.total, r.error, r.change_seq" \
	" FROM runs r LEFT JOIN devices d ON d.id = r.device_id"

/* The list, one statement per set of filters given, so that each names only
 * its own columns and the engine walks the index of the filter ((status, id),
 * (experiment, id), (device_id, id)) rather than every run newest first: a
 * filter that matches few of a million runs costs a few rows, not a million.
 * (A "?2 IS NULL OR experiment = ?2" form cannot use an index.) A label of 3
 * characters or more is looked up in the trigram index of labels first; the
 * text test that follows keeps one meaning for both ways and both engines.
 * Indexed by LIST_* bits. */
#define LIST_EXPERIMENT 1
#define LIST_DEVICE 2
#define LIST_STATUS 4
#define LIST_LABEL 8
#define LIST_SQL(filters)                                                                 \
	"SELECT " SUMMARY_COLUMNS " WHERE r.id < ?1" filters                                \
	" AND (CAST(?6 AS TEXT) IS NULL OR {strpos}(lower(r.label), lower(?6)) > 0) ORDER BY r.id DESC LIMIT ?5"
#define LIST_SQL_BY(label)                                                                \
	LIST_SQL(label ""), LIST_SQL(label " AND r.experiment = ?2"),                       \
	LIST_SQL(label " AND r.device_id = ?3"),                                            \
	LIST_SQL(label " AND r.experiment = ?2 AND r.device_id = ?3"),                      \
	LIST_SQL(label " AND r.status = ?4"),                                               \
	LIST_SQL(label " AND r.experiment = ?2 AND r.status = ?4"),                         \
	LIST_SQL(label " AND r.device_id = ?3 AND r.status = ?4"),                          \
	LIST_SQL(label " AND r.experiment = ?2 AND r.device_id = ?3 AND r.status = ?4")
static const char *const SQL_LIST_RUNS[16] = {
	LIST_SQL_BY(""),
	LIST_SQL_BY(" AND {label_match}"),
};

/* Characters (not bytes) of UTF-8 text. */
static size_t utf8_chars(const char *t)
{
	size_t n = 0;

	for (; *t; t++)
		n += ((unsigned char)*t & 0xC0) != 0x80;
	return n;
}

/* The summary in the statement's current row (SUMMARY_COLUMNS), or NULL when
 * out of memory. */
static json_t *summary_row(struct wl_db_stmt *s)
{
	/* The device's name and type, from its stored description. */
	json_t *device = store_col_json(s, 8);
	json_t *row = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:o, s:O, s:O}, s:{s:I, s:I}, s:o}",
				"id", (json_int_t)wl_db_col_int64(s, 0), "experiment",
				store_col_text(s, 1), "label", store_col_text(s, 2), "status",
				store_col_text(s, 3), "created_at", store_col_text(s, 4),
				"started_at", store_col_text(s, 5), "finished_at",
				store_col_text(s, 6), "device", "id", store_col_text(s, 7), "name",
				json_object_get(device, "name") ? json_object_get(device, "name") : json_null(),
				"type",
				json_object_get(device, "type") ? json_object_get(device, "type") : json_null(),
				"progress", "done", (json_int_t)wl_db_col_int64(s, 9), "total",
				(json_int_t)wl_db_col_int64(s, 10), "error", store_col_text(s, 11));

	json_decref(device);
	if (row) {
		json_object_set_new(row, "url",
				    json_sprintf("/runs/%lld", (long long)wl_db_col_int64(s, 0)));
		json_object_set_new(row, "change", json_integer(wl_db_col_int64(s, 12)));
	}
	return row;
}

int wl_store_list_runs(struct wl_store *st, const struct wl_run_filter *f, json_t **runs,
		       int *more, struct wl_error *err)
{
	int which = (f->experiment ? LIST_EXPERIMENT : 0) | (f->device ? LIST_DEVICE : 0) |
		    (f->status ? LIST_STATUS : 0) | (f->label && utf8_chars(f->label) >= 3 ? LIST_LABEL : 0);
	struct wl_db_stmt *s = store_stmt(st, SQL_LIST_RUNS[which], err);
	json_t *list;
	long long n = 0;
	int rc;

	if (!s)
		return -1;
	list = json_array();
	if (!list) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	wl_db_bind_int64(s, 1, f->before > 0 ? f->before : INT64_MAX);
	wl_db_bind_text(s, 2, f->experiment);
	wl_db_bind_text(s, 3, f->device);
	wl_db_bind_text(s, 4, f->status);
	wl_db_bind_int64(s, 5, f->limit + 1);
	wl_db_bind_text(s, 6, f->label && f->label[0] ? f->label : NULL);
	*more = 0;
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		json_t *row;

		if (++n > f->limit) {
			*more = 1;
			break;
		}
		row = summary_row(s);
		if (!row || json_array_append_new(list, row) < 0) {
			rc = WL_DB_ERROR;
			break;
		}
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE && rc != WL_DB_ROW) {
		store_fail(st, err, "list runs");
		json_decref(list);
		return -1;
	}
	*runs = list;
	return 0;
}

static const char SQL_LAST_CHANGE[] = "SELECT coalesce(max(change_seq), 0) FROM runs";
static const char SQL_CHANGES[] =
	"SELECT " SUMMARY_COLUMNS " WHERE r.change_seq > ?1 ORDER BY r.change_seq LIMIT ?2";

int wl_store_changes(struct wl_store *st, long long after, long long limit, json_t **runs,
		     long long *last, struct wl_error *err)
{
	struct wl_db_stmt *s;
	json_t *list = NULL;
	int rc;

	/* One read transaction, so *last is no older than the runs read. */
	if (store_begin_read(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_LAST_CHANGE, err);
	if (!s)
		goto fail;
	if (wl_db_step(s) != WL_DB_ROW) {
		store_fail(st, err, "read the last change");
		wl_db_reset(s);
		goto fail;
	}
	*last = wl_db_col_int64(s, 0);
	wl_db_reset(s);
	list = json_array();
	if (!list) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	s = store_stmt(st, SQL_CHANGES, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, after);
	wl_db_bind_int64(s, 2, limit);
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		json_t *row = summary_row(s);

		if (!row || json_array_append_new(list, row) < 0) {
			rc = WL_DB_ERROR;
			break;
		}
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "read changed runs");
		goto fail;
	}
	store_commit(st, NULL);
	*runs = list;
	return 0;
fail:
	json_decref(list);
	store_rollback(st);
	return -1;
}

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

static const char SQL_RUN_STATUS[] = "SELECT status FROM runs WHERE id = ?1";
static const char SQL_CANCEL_QUEUED[] =
	"UPDATE runs SET status = 'cancelled', finished_at = {now}"
	", error = 'cancelled before it started' WHERE id = ?1";
static const char SQL_CANCEL_RUNNING[] = "UPDATE runs SET cancel_requested = 1 WHERE id = ?1";

int wl_store_cancel_run(struct wl_store *st, long long id, struct wl_error *err)
{
	struct wl_db_stmt *s;
	char status[16];
	int rc;

	if (store_begin(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_RUN_STATUS, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, id);
	rc = wl_db_step(s);
	if (rc == WL_DB_DONE) {
		wl_db_reset(s);
		wl_error_set(err, WL_ERR_NOT_FOUND, "run %lld does not exist", id);
		goto fail;
	}
	if (rc != WL_DB_ROW) {
		wl_db_reset(s);
		store_fail(st, err, "read run status");
		goto fail;
	}
	snprintf(status, sizeof(status), "%s", wl_db_col_text(s, 0));
	wl_db_reset(s);
	if (strcmp(status, "queued") && strcmp(status, "running")) {
		wl_error_set(err, WL_ERR_CONFLICT, "run %lld is already %s and cannot be cancelled",
			     id, status);
		goto fail;
	}
	if (store_step_id(st, strcmp(status, "queued") == 0 ? SQL_CANCEL_QUEUED : SQL_CANCEL_RUNNING,
			  id, NULL, NULL, "cancel run", err) < 0)
		goto fail;
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

static const char SQL_COPY_CEILING[] =
	"SELECT s.run_id, s.variant, s.params, s.bytes / (s.median_ms * 1e6) AS gbps FROM results s"
	" WHERE s.run_id = (SELECT id FROM runs WHERE experiment = 'copy' AND device_id = ?1"
	"   AND status = 'done' AND finished_at <= COALESCE(?2, {now})"
	"   ORDER BY finished_at DESC, id DESC LIMIT 1)"
	" AND s.verified = 1 AND s.median_ms > 0 AND s.bytes > 0"
	" ORDER BY gbps DESC LIMIT 1";

int wl_store_copy_ceiling(struct wl_store *st, const char *device_id, const char *before,
			  json_t **out, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_COPY_CEILING, err);
	int rc;

	*out = NULL;
	if (!s)
		return -1;
	wl_db_bind_text(s, 1, device_id);
	wl_db_bind_text(s, 2, before);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW)
		*out = json_pack("{s:I, s:o, s:o, s:f, s:o}", "run", (json_int_t)wl_db_col_int64(s, 0),
				 "variant", store_col_text(s, 1), "params", store_col_json(s, 2), "gbps",
				 wl_db_col_double(s, 3), "url",
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
