/* Runs entering and leaving the queue at a client's word: queueing a run
 * (refused when the queue is full) and cancelling one. The runner's side is
 * store_claim.c's. */
#include "store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_db.h"

static const char SQL_COUNT_QUEUED[] = "SELECT count(*) FROM runs WHERE status = 'queued'";

static const char SQL_INSERT_RUN[] =
	"INSERT INTO runs (experiment, label, status, request, device_req, device_id, total, language, shared,"
	" created_at, change_seq)"
	" VALUES (?1, ?2, 'queued', ?3, ?4, ?5, ?6, ?7, ?8, {now},"
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
	wl_db_bind_text(s, 7, run->language);
	wl_db_bind_int64(s, 8, run->shared ? 1 : 0);
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

static const char SQL_RUN_STATUS[] = "SELECT status FROM runs WHERE id = ?1";
static const char SQL_CANCEL_QUEUED[] =
	"UPDATE runs SET status = 'cancelled', finished_at = {now}"
	", error = 'cancelled before it started' WHERE id = ?1";
static const char SQL_CANCEL_RUNNING[] = "UPDATE runs SET cancel_requested = 1 WHERE id = ?1";

int wl_store_cancel_run(struct wl_store *st, long long id, struct wl_error *err)
{
	struct wl_db_stmt *s;
	char status[16];

	if (store_begin(st, err) < 0)
		return -1;
	if (store_run_row(st, SQL_RUN_STATUS, id, "read run status", &s, err) < 0)
		goto fail;
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
