/* One run as clients see it: the run with its results (rates and intervals
 * derived in SQL), and its kept samples. */
#include "store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_db.h"
#include "store_traces.h"

static const char SQL_GET_RUN[] =
	"SELECT r.id, r.experiment, r.label, r.status, r.created_at, r.started_at, r.finished_at,"
	" r.request, COALESCE(r.device, d.info), r.done, r.total, r.error, r.attempts, r.requeues,"
	" r.source_hash, r.runner_version, r.clocks, r.flush_bytes, r.budget, r.explain, r.explained_at, r.explain_ms"
	" FROM runs r LEFT JOIN devices d ON d.id = r.device_id WHERE r.id = ?1";

static const char SQL_GET_RESULTS[] =
	"SELECT variant, params, median_ms, min_ms, max_ms, reps, bytes, ops, verified, error, note,"
	" extra, ci_low_ms, ci_high_ms, spread, stopped, discarded, energy, seq, runner_id, device_id"
	" FROM results WHERE run_id = ?1"
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
		long long verified = wl_db_col_int64(s, 8);
		json_t *row = json_pack("{s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
					"variant", store_col_text(s, 0), "params",
					store_col_json(s, 1), "median_ms", col_real_or_null(s, 2),
					"min_ms", col_real_or_null(s, 3), "max_ms",
					col_real_or_null(s, 4), "reps",
					(json_int_t)wl_db_col_int64(s, 5), "bytes", bytes,
					"gbps", rate(s, 6, 2), "ops", ops, "gops", rate(s, 7, 2),
					"verified", verified < 0 ? json_null() : json_boolean(verified), "error",
					store_col_text(s, 9), "note", store_col_text(s, 10));

		if (row) {
			json_object_set_new(row, "extra", store_col_json(s, 11));
			json_object_set_new(row, "ci_low_ms", col_real_or_null(s, 12));
			json_object_set_new(row, "ci_high_ms", col_real_or_null(s, 13));
			json_object_set_new(row, "spread", col_real_or_null(s, 14));
			json_object_set_new(row, "stopped", store_col_text(s, 15));
			json_object_set_new(row, "discarded", json_integer(wl_db_col_int64(s, 16)));
			json_object_set_new(row, "energy", store_col_json(s, 17));
			json_object_set_new(row, "seq", json_integer(wl_db_col_int64(s, 18)));
			/* Who measured it, where it was recorded (a shared run's
			 * points are measured by several devices). */
			if (!wl_db_col_null(s, 19))
				json_object_set_new(row, "runner_id", json_integer(wl_db_col_int64(s, 19)));
			if (!wl_db_col_null(s, 20))
				json_object_set_new(row, "device_id", store_col_text(s, 20));
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
	struct wl_db_stmt *s;

	if (store_run_row(st, SQL_RUN_EXISTS, id, "find a run", &s, err) < 0)
		return -1;
	wl_db_reset(s);
	return 0;
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

	/* One read transaction, so the run and its results agree. */
	if (store_begin_read(st, err) < 0)
		return -1;
	if (store_run_row(st, SQL_GET_RUN, id, "read run", &s, err) < 0)
		goto fail;
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
		json_object_set_new(run, "explain", store_col_text(s, 19));
		json_object_set_new(run, "explained_at", store_col_text(s, 20));
		json_object_set_new(run, "explain_ms", wl_db_col_null(s, 21) ? json_null() :
				    json_real(wl_db_col_double(s, 21)));
	}
	wl_db_reset(s);
	if (!run) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	json_object_set_new(run, "url", json_sprintf("/runs/%lld", id));
	if (with_results) {
		json_t *traces = json_array();

		results = json_array();
		if (!results || json_object_set_new(run, "results", results) < 0 ||
		    get_results(st, id, results, err) < 0 || !traces ||
		    json_object_set_new(run, "traces", traces) < 0 ||
		    store_read_traces(st, id, traces, err) < 0)
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
