/* A shared run: a tuning run's points measured by every idle device of one
 * model at once. The device that claims the run (store_claim.c) opens one
 * row per point in run_points; it and the devices that join the run take
 * the first free point in turn, each in a write transaction, so no point is
 * measured twice; a result is written only by a device that holds an
 * unfinished point of the run or by the run's own runner (store_results.c).
 * A device that dies gives its points back (the supervisor, or recovery
 * for a runner that is gone), and the run's own device measures what is
 * left before it finishes the run. */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language.h"
#include "store_db.h"

/* Requeue (store_finish.c) drops a run's points with its results too. */
static const char SQL_DROP_POINTS[] = "DELETE FROM run_points WHERE run_id = ?1";
static const char SQL_OPEN_POINT[] = "INSERT INTO run_points (run_id, point, rows) VALUES (?1, ?2, ?3)";

int wl_store_open_points(struct wl_store *st, long long run_id, long long npoints, long long rows,
			 struct wl_error *err)
{
	struct wl_db_stmt *s;

	if (store_begin(st, err) < 0)
		return -1;
	if (store_step_id(st, SQL_DROP_POINTS, run_id, NULL, NULL, "drop a run's points", err) < 0)
		goto fail;
	for (long long i = 0; i < npoints; i++) {
		int rc;

		if (!(s = store_stmt(st, SQL_OPEN_POINT, err)))
			goto fail;
		wl_db_bind_int64(s, 1, run_id);
		wl_db_bind_int64(s, 2, i);
		wl_db_bind_int64(s, 3, rows);
		rc = wl_db_step(s);
		wl_db_reset(s);
		if (rc != WL_DB_DONE) {
			store_fail(st, err, "open a run's points");
			goto fail;
		}
	}
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

static const char SQL_FIRST_FREE[] =
	"SELECT min(p.point) FROM run_points p JOIN runs r ON r.id = p.run_id"
	" WHERE p.run_id = ?1 AND p.runner_id IS NULL AND r.status = 'running' AND r.cancel_requested = 0";
static const char SQL_LAST_FREE[] =
	"SELECT max(p.point) FROM run_points p JOIN runs r ON r.id = p.run_id"
	" WHERE p.run_id = ?1 AND p.runner_id IS NULL AND r.status = 'running' AND r.cancel_requested = 0";
static const char SQL_TAKE[] =
	"UPDATE run_points SET runner_id = ?3, device_id = ?4"
	" WHERE run_id = ?1 AND point = ?2 AND runner_id IS NULL";

int wl_store_take_point(struct wl_store *st, long long runner_id, long long run_id, const char *device_id,
			int last, long long *point, struct wl_error *err)
{
	struct wl_db_stmt *s;
	int rc;

	*point = -1;
	if (store_begin(st, err) < 0)
		return -1;
	if (!(s = store_stmt(st, last ? SQL_LAST_FREE : SQL_FIRST_FREE, err)))
		goto fail;
	wl_db_bind_int64(s, 1, run_id);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW && !wl_db_col_null(s, 0))
		*point = wl_db_col_int64(s, 0);
	wl_db_reset(s);
	if (rc != WL_DB_ROW) {
		store_fail(st, err, "find a free point");
		goto fail;
	}
	if (*point < 0) {
		store_rollback(st);
		return 0;
	}
	if (!(s = store_stmt(st, SQL_TAKE, err)))
		goto fail;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_int64(s, 2, *point);
	wl_db_bind_int64(s, 3, runner_id);
	wl_db_bind_text(s, 4, device_id);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "take a point");
		goto fail;
	}
	/* The writers' turn was ours: the row was free when read. */
	if (wl_db_changes(st->db) != 1) {
		wl_error_set(err, WL_ERR_CONFLICT, "point %lld of run %lld was taken by another device", *point,
			     run_id);
		goto fail;
	}
	return store_commit(st, err);
fail:
	*point = -1;
	store_rollback(st);
	return -1;
}

static const char SQL_MEASURED[] =
	"UPDATE run_points SET done = 1 WHERE run_id = ?1 AND point = ?2 AND device_id = ?3";

int wl_store_point_measured(struct wl_store *st, long long run_id, long long point, const char *device_id,
			    struct wl_error *err)
{
	struct wl_db_stmt *s;
	int rc;

	if (store_begin(st, err) < 0)
		return -1;
	if (!(s = store_stmt(st, SQL_MEASURED, err))) {
		store_rollback(st);
		return -1;
	}
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_int64(s, 2, point);
	wl_db_bind_text(s, 3, device_id);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "mark a point measured");
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err);
}

static const char SQL_LEFT[] =
	"SELECT r.status, (SELECT count(*) FROM run_points p WHERE p.run_id = r.id AND p.runner_id IS NULL),"
	" (SELECT count(*) FROM run_points p WHERE p.run_id = r.id AND p.runner_id IS NOT NULL AND p.done = 0)"
	" FROM runs r WHERE r.id = ?1";

int wl_store_points_left(struct wl_store *st, long long run_id, long long *free_points, long long *busy,
			 int *running, struct wl_error *err)
{
	struct wl_db_stmt *s;

	*free_points = *busy = 0;
	*running = 0;
	if (store_run_row(st, SQL_LEFT, run_id, "count a run's points", &s, err) < 0)
		return -1;
	*running = strcmp(wl_db_col_text(s, 0), "running") == 0;
	*free_points = wl_db_col_int64(s, 1);
	*busy = wl_db_col_int64(s, 2);
	wl_db_reset(s);
	return 0;
}

static const char SQL_RUN_DEVICE[] = "SELECT device_id FROM runs WHERE id = ?1";
/* What a device wrote of a point it did not finish goes, and the run's
 * progress with it, so that whoever measures the point again writes it
 * whole. */
static const char SQL_DROP_UNFINISHED[] =
	"DELETE FROM results WHERE run_id = ?1 AND EXISTS (SELECT 1 FROM run_points p"
	" WHERE p.run_id = ?1 AND p.device_id = ?2 AND p.done = 0"
	"  AND results.seq > p.point * p.rows AND results.seq <= (p.point + 1) * p.rows)";
static const char SQL_RECOUNT[] =
	"UPDATE runs SET done = (SELECT count(*) FROM results WHERE run_id = ?1) WHERE id = ?1 AND status = 'running'";
static const char SQL_GIVE_BACK[] =
	"UPDATE run_points SET runner_id = NULL, device_id = NULL"
	" WHERE run_id = ?1 AND device_id = ?2 AND done = 0";

int store_give_points_back(struct wl_store *st, long long run_id, const char *device_id, struct wl_error *err)
{
	if (store_step_id(st, SQL_DROP_UNFINISHED, run_id, device_id, NULL, "drop an unfinished point's results",
			  err) < 0 ||
	    store_step_id(st, SQL_RECOUNT, run_id, NULL, NULL, "count a run's results", err) < 0)
		return -1;
	return store_step_id(st, SQL_GIVE_BACK, run_id, device_id, NULL, "give points back", err);
}

int wl_store_release_points(struct wl_store *st, long long run_id, const char *device_id, int *helper,
			    struct wl_error *err)
{
	struct wl_db_stmt *s;
	int rc;

	*helper = 0;
	if (store_begin(st, err) < 0)
		return -1;
	if (!(s = store_stmt(st, SQL_RUN_DEVICE, err)))
		goto fail;
	wl_db_bind_int64(s, 1, run_id);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW) {
		const char *own = wl_db_col_text(s, 0);

		*helper = !own || strcmp(own, device_id) != 0;
	}
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "read the run's device");
		goto fail;
	}
	if (store_give_points_back(st, run_id, device_id, err) < 0)
		goto fail;
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

/* ?1 the joining device, ?2 its model, ?3 its languages as ",opencl,cuda,". */
static const char SQL_JOINABLE[] =
	"SELECT r.id, r.experiment, r.request, r.attempts FROM runs r"
	" WHERE r.status = 'running' AND r.shared = 1 AND r.cancel_requested = 0 AND r.device_model = ?2"
	" AND r.device_id <> ?1"
	" AND {strpos}(?3, ',' || coalesce(r.language, '" WL_LANG_DEFAULT_NAME "') || ',') > 0"
	" AND EXISTS (SELECT 1 FROM run_points p WHERE p.run_id = r.id AND p.runner_id IS NULL)"
	" ORDER BY r.id LIMIT 1";

int wl_store_join_run(struct wl_store *st, const char *device_id, const struct wl_claim_devices *devs,
		      struct wl_claim *out, struct wl_error *err)
{
	struct wl_db_stmt *s;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!devs->model)
		return 0;
	if (!(s = store_stmt(st, SQL_JOINABLE, err)))
		return -1;
	wl_db_bind_text(s, 1, device_id);
	wl_db_bind_text(s, 2, devs->model);
	wl_db_bind_text(s, 3, devs->languages ? devs->languages : "," WL_LANG_DEFAULT_NAME ",");
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW) {
		const char *exp = wl_db_col_text(s, 1), *req = wl_db_col_text(s, 2);

		out->id = wl_db_col_int64(s, 0);
		out->attempt = wl_db_col_int64(s, 3);
		out->experiment = exp ? strdup(exp) : NULL;
		out->request_json = req ? strdup(req) : NULL;
		out->device_id = strdup(device_id);
		out->shared = out->helper = 1;
	}
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "look for a shared run");
		return -1;
	}
	if (rc == WL_DB_ROW && (!out->experiment || !out->request_json || !out->device_id)) {
		wl_claim_free(out);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return 0;
}

static const char SQL_FAIL_SHARED[] =
	"UPDATE runs SET status = 'failed', error = ?2, finished_at = {now}"
	" WHERE id = ?1 AND status = 'running' AND EXISTS (SELECT 1 FROM run_points p"
	"  WHERE p.run_id = ?1 AND p.device_id = ?3 AND p.done = 0)";

int wl_store_fail_shared(struct wl_store *st, long long run_id, const char *device_id, const char *error,
			 struct wl_error *err)
{
	if (store_begin(st, err) < 0)
		return -1;
	if (store_step_id(st, SQL_FAIL_SHARED, run_id, error, device_id, "fail a shared run", err) < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err);
}
