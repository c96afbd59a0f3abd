/* How a claimed run ends: finished (done, failed, cancelled), put back in
 * the queue when its runner stops, released after its worker died, or
 * recovered from a runner that is gone. */
#include "store.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_db.h"

static const char SQL_FINISH[] =
	"UPDATE runs SET status = ?2, error = ?3, finished_at = {now}"
	" WHERE id = ?1 AND status = 'running' AND runner_id = ?4";

int wl_store_finish_run(struct wl_store *st, long long runner_id, long long run_id,
			const char *status, const char *error, struct wl_error *err)
{
	struct wl_db_stmt *s;
	int rc;

	/* In a write transaction, so that a run's change takes the writers' turn
	 * before its row lock (PostgreSQL), in the order every writer does. */
	if (store_begin(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_FINISH, err);
	if (!s) {
		store_rollback(st);
		return -1;
	}
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, status);
	wl_db_bind_text(s, 3, error);
	wl_db_bind_int64(s, 4, runner_id);
	rc = wl_db_step(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "finish run");
		wl_db_reset(s);
		store_rollback(st);
		return -1;
	}
	wl_db_reset(s);
	return store_commit(st, err);
}

static const char SQL_DROP_RESULTS[] = "DELETE FROM results WHERE run_id = ?1";
static const char SQL_DROP_POINTS[] = "DELETE FROM run_points WHERE run_id = ?1";
/* attempts_delta is 0 when the run's attempt counts (the runner died under it)
 * and -1 when the runner gave it back on purpose. A run that did not name its
 * device goes back to any matching device, on any host, not the one it had. */
static const char SQL_REQUEUE[] =
	"UPDATE runs SET status = 'queued', done = 0, started_at = NULL, runner_id = NULL,"
	" device = NULL, cancel_requested = 0, requeues = requeues + 1, attempts = attempts + ?2,"
	" device_id = CASE WHEN device_req IN ('auto', 'gpu', 'cpu') THEN NULL ELSE device_id END"
	" WHERE id = ?1 AND status = 'running'";

static int requeue_locked(struct wl_store *st, long long run_id, int attempts_delta,
			  struct wl_error *err)
{
	struct wl_db_stmt *s;
	int rc;

	if (store_step_id(st, SQL_DROP_RESULTS, run_id, NULL, NULL, "drop partial results", err) < 0 ||
	    store_step_id(st, SQL_DROP_POINTS, run_id, NULL, NULL, "drop a shared run's points", err) < 0)
		return -1;
	s = store_stmt(st, SQL_REQUEUE, err);
	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_int64(s, 2, attempts_delta);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "requeue run");
		return -1;
	}
	return 0;
}

static const char SQL_HOLDS[] =
	"SELECT 1 FROM runs WHERE id = ?1 AND status = 'running' AND runner_id = ?2";

int wl_store_requeue_run(struct wl_store *st, long long runner_id, long long run_id,
			 struct wl_error *err)
{
	struct wl_db_stmt *s;
	int rc;

	if (store_begin(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_HOLDS, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_int64(s, 2, runner_id);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc == WL_DB_ROW && requeue_locked(st, run_id, -1, err) < 0)
		goto fail;
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "check the run's runner");
		goto fail;
	}
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

static const char SQL_RUN_ATTEMPTS[] = "SELECT attempts FROM runs WHERE id = ?1 AND status = 'running'";

static const char SQL_FAIL_ORPHAN[] =
	"UPDATE runs SET status = 'failed', error = ?2, finished_at = {now}"
	" WHERE id = ?1 AND status = 'running'";

static int fail_given_up(struct wl_store *st, long long run_id, long long attempts, const char *why,
			 struct wl_error *err)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "gave up after %lld attempts; the last time, %s while running it",
		 attempts, why);
	return store_step_id(st, SQL_FAIL_ORPHAN, run_id, msg, NULL, "fail orphaned run", err);
}

int wl_store_release_run(struct wl_store *st, long long run_id, long long max_attempts,
			 const char *reason, int *requeued, struct wl_error *err)
{
	struct wl_db_stmt *s;
	long long attempts;
	int rc;

	*requeued = 0;
	if (store_begin(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_RUN_ATTEMPTS, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, run_id);
	rc = wl_db_step(s);
	attempts = wl_db_col_int64(s, 0);
	wl_db_reset(s);
	if (rc == WL_DB_DONE) {
		store_rollback(st);
		return 0;
	}
	if (rc != WL_DB_ROW) {
		store_fail(st, err, "read attempts");
		goto fail;
	}
	if (attempts < max_attempts) {
		if (requeue_locked(st, run_id, 0, err) < 0)
			goto fail;
		*requeued = 1;
	} else if (fail_given_up(st, run_id, attempts, reason, err) < 0) {
		goto fail;
	}
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

static const char SQL_ORPHANS[] =
	"SELECT r.id, r.attempts, u.id, u.host, u.pid, u.stopped_at IS NOT NULL,"
	" u.last_seen IS NULL OR {secs:u.last_seen} <= {secs:'now'} - ?2"
	" FROM runs r LEFT JOIN runners u ON u.id = r.runner_id"
	" WHERE r.status = 'running' AND (r.runner_id IS NULL OR r.runner_id != ?1)";

/* Why the runner of a running run is gone, or NULL while it may be alive. */
static const char *runner_gone(struct wl_db_stmt *s, const char *host)
{
	const char *rhost = wl_db_col_text(s, 3);
	pid_t pid = (pid_t)wl_db_col_int64(s, 4);

	if (wl_db_col_null(s, 2))
		return "its runner is unknown";
	if (wl_db_col_int64(s, 5))
		return "its runner stopped";
	if (rhost && strcmp(rhost, host) == 0 && pid > 0 && kill(pid, 0) < 0 && errno == ESRCH)
		return "its runner process exited";
	if (wl_db_col_int64(s, 6))
		return "its runner stopped sending heartbeats";
	return NULL;
}

/* Points of shared runs taken by other runners and not finished, by run
 * and device, with the same runner columns as SQL_ORPHANS for runner_gone. */
static const char SQL_HELPERS[] =
	"SELECT DISTINCT p.run_id, p.device_id, u.id, u.host, u.pid, u.stopped_at IS NOT NULL,"
	" u.last_seen IS NULL OR {secs:u.last_seen} <= {secs:'now'} - ?2"
	" FROM run_points p LEFT JOIN runners u ON u.id = p.runner_id"
	" WHERE p.done = 0 AND p.runner_id IS NOT NULL AND p.runner_id != ?1";

/* Give back the points that runners now gone took and did not finish, for
 * the devices still there to take (inside the caller's transaction). */
static int free_gone_helpers(struct wl_store *st, long long self_runner_id, const char *host, long long window_s,
			     struct wl_error *err)
{
	struct {
		long long run_id;
		char device[128];
	} gone[64];
	size_t n = 0;
	struct wl_db_stmt *s = store_stmt(st, SQL_HELPERS, err);
	int rc = WL_DB_DONE;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, self_runner_id);
	wl_db_bind_int64(s, 2, window_s);
	while (n < sizeof(gone) / sizeof(gone[0]) && (rc = wl_db_step(s)) == WL_DB_ROW) {
		const char *device = wl_db_col_text(s, 1);

		if (!device || !runner_gone(s, host))
			continue;
		gone[n].run_id = wl_db_col_int64(s, 0);
		snprintf(gone[n].device, sizeof(gone[n].device), "%s", device);
		n++;
	}
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "find points of runners gone");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (store_give_points_back(st, gone[i].run_id, gone[i].device, err) < 0)
			return -1;
	return 0;
}

int wl_store_recover(struct wl_store *st, long long self_runner_id, const char *host,
		     long long window_s, long long max_attempts, int *requeued, int *failed,
		     struct wl_error *err)
{
	struct {
		long long id, attempts;
		char why[64];
	} orphans[64];
	size_t n = 0;
	struct wl_db_stmt *s;
	int rc;

	*requeued = *failed = 0;
	if (store_begin(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_ORPHANS, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, self_runner_id);
	wl_db_bind_int64(s, 2, window_s);
	while (n < sizeof(orphans) / sizeof(orphans[0]) && (rc = wl_db_step(s)) == WL_DB_ROW) {
		const char *why = runner_gone(s, host);

		if (!why)
			continue;
		orphans[n].id = wl_db_col_int64(s, 0);
		orphans[n].attempts = wl_db_col_int64(s, 1);
		snprintf(orphans[n].why, sizeof(orphans[n].why), "%s", why);
		n++;
	}
	wl_db_reset(s);
	for (size_t i = 0; i < n; i++) {
		if (orphans[i].attempts < max_attempts) {
			if (requeue_locked(st, orphans[i].id, 0, err) < 0)
				goto fail;
			(*requeued)++;
			continue;
		}
		if (fail_given_up(st, orphans[i].id, orphans[i].attempts, orphans[i].why, err) < 0)
			goto fail;
		(*failed)++;
	}
	if (free_gone_helpers(st, self_runner_id, host, window_s, err) < 0)
		goto fail;
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}
