/* A running run's results, written a few rows at a time, each batch one
 * transaction that also advances the run's progress. */
#include "store.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_db.h"

static const char SQL_INSERT_RESULT[] =
	"INSERT INTO results (run_id, seq, variant, params, median_ms, min_ms, max_ms, reps, bytes,"
	" ops, verified, error, note, extra, ci_low_ms, ci_high_ms, spread, stopped, discarded, samples, energy,"
	" runner_id, device_id)"
	" VALUES (?1, coalesce(CAST(?23 AS BIGINT), (SELECT COALESCE(MAX(seq), 0) + 1 FROM results WHERE run_id = ?1)), ?2, ?3, ?4,"
	" ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)";
/* The run's own runner writes its results, and so does a device that holds
 * an unfinished point of a shared run (store_shared.c). */
static const char SQL_ADVANCE[] =
	"UPDATE runs SET done = done + 1 WHERE id = ?1 AND status = 'running' AND (runner_id = ?2"
	" OR (shared = 1 AND EXISTS (SELECT 1 FROM run_points p WHERE p.run_id = ?1 AND p.runner_id = ?2"
	"  AND p.done = 0)))";

static void bind_positive_or_null(struct wl_db_stmt *s, int i, double v)
{
	if (v > 0)
		wl_db_bind_double(s, i, v);
	else
		wl_db_bind_null(s, i);
}

/* Insert one result inside the caller's transaction. */
static int insert_result(struct wl_store *st, long long runner_id, long long run_id,
			 const struct wl_result_row *r, struct wl_error *err)
{
	struct wl_db_stmt *s;
	int rc;

	s = store_stmt(st, SQL_ADVANCE, err);
	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_int64(s, 2, runner_id);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "advance progress");
		return -1;
	}
	if (wl_db_changes(st->db) != 1) {
		wl_error_set(err, WL_ERR_CONFLICT, "run %lld is no longer running on runner %lld", run_id,
			     runner_id);
		return -1;
	}
	s = store_stmt(st, SQL_INSERT_RESULT, err);
	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, r->variant);
	wl_db_bind_text(s, 3, r->params_json);
	if (r->reps == 0) {
		/* The point never ran (a wrong result keeps its time, unverified). */
		wl_db_bind_null(s, 4);
		wl_db_bind_null(s, 5);
		wl_db_bind_null(s, 6);
	} else {
		wl_db_bind_double(s, 4, r->median_ms);
		wl_db_bind_double(s, 5, r->min_ms);
		wl_db_bind_double(s, 6, r->max_ms);
	}
	wl_db_bind_int64(s, 7, r->reps);
	bind_positive_or_null(s, 8, r->bytes);
	bind_positive_or_null(s, 9, r->ops);
	wl_db_bind_int64(s, 10, r->verified < 0 ? -1 : r->verified ? 1 : 0);
	wl_db_bind_text(s, 11, r->error);
	wl_db_bind_text(s, 12, r->note);
	wl_db_bind_text(s, 13, r->extra_json);
	bind_positive_or_null(s, 14, r->reps ? r->ci_low_ms : 0);
	bind_positive_or_null(s, 15, r->reps ? r->ci_high_ms : 0);
	if (r->reps)
		wl_db_bind_double(s, 16, r->spread);
	else
		wl_db_bind_null(s, 16);
	wl_db_bind_text(s, 17, r->stopped);
	wl_db_bind_int64(s, 18, r->discarded);
	if (r->samples && r->reps > 0)
		wl_db_bind_blob(s, 19, r->samples, (size_t)r->reps * sizeof(float));
	else
		wl_db_bind_null(s, 19);
	wl_db_bind_text(s, 20, r->energy_json);
	wl_db_bind_int64(s, 21, runner_id);
	wl_db_bind_text(s, 22, r->device_id);
	if (r->seq > 0)
		wl_db_bind_int64(s, 23, r->seq);
	else
		wl_db_bind_null(s, 23);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "insert result");
		return -1;
	}
	return 0;
}

int wl_store_add_results(struct wl_store *st, long long runner_id, long long run_id,
			 const struct wl_result_row *rows, size_t n, struct wl_error *err)
{
	if (store_begin(st, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (insert_result(st, runner_id, run_id, &rows[i], err) < 0) {
			store_rollback(st);
			return -1;
		}
	return store_commit(st, err);
}

int wl_store_add_result(struct wl_store *st, long long runner_id, long long run_id,
			const struct wl_result_row *r, struct wl_error *err)
{
	return wl_store_add_results(st, runner_id, run_id, r, 1, err);
}

static const char SQL_SET_EXTRA[] = "UPDATE results SET extra = ?3 WHERE run_id = ?1 AND seq = ?2";

int wl_store_set_result_extras(struct wl_store *st, const struct wl_result_extra *rows, size_t n,
			       struct wl_error *err)
{
	if (n == 0)
		return 0;
	if (store_begin(st, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct wl_db_stmt *s = store_stmt(st, SQL_SET_EXTRA, err);
		int rc;

		if (!s) {
			store_rollback(st);
			return -1;
		}
		wl_db_bind_int64(s, 1, rows[i].run_id);
		wl_db_bind_int64(s, 2, rows[i].seq);
		wl_db_bind_text(s, 3, rows[i].extra_json);
		rc = wl_db_step(s);
		wl_db_reset(s);
		if (rc != WL_DB_DONE) {
			store_fail(st, err, "write a result's extra");
			store_rollback(st);
			return -1;
		}
	}
	return store_commit(st, err);
}

static const char SQL_REPLACE_EXTRA[] = "UPDATE results SET extra = ?3 WHERE run_id = ?1 AND extra = ?2";

int wl_store_replace_result_extras(struct wl_store *st, long long run_id, const char *was, const char *now,
				   long long *changed, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_REPLACE_EXTRA, err);
	int rc;

	*changed = 0;
	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, was);
	wl_db_bind_text(s, 3, now);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "replace results' extra");
		return -1;
	}
	*changed = wl_db_changes(st->db);
	return 0;
}
