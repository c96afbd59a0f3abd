/* The runner's side of a run: claiming from the queue in an immediate
 * transaction, writing results point by point, finishing, and recovering runs
 * that a dead runner left "running". */
#include "store_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

void wl_claim_free(struct wl_claim *c)
{
	free(c->experiment);
	free(c->request_json);
	free(c->device_id);
	memset(c, 0, sizeof(*c));
}

static const char SQL_NEXT_QUEUED[] =
	"SELECT id, experiment, request, device_id, device_req, attempts FROM runs"
	" WHERE status = 'queued' AND ({strpos}(?1, ',' || device_id || ',') > 0"
	"  OR (device_id IS NULL AND ((device_req = 'auto' AND CAST(?2 AS TEXT) IS NOT NULL)"
	"   OR (device_req = 'gpu' AND CAST(?3 AS TEXT) IS NOT NULL)"
	"   OR (device_req = 'cpu' AND CAST(?4 AS TEXT) IS NOT NULL))))"
	" ORDER BY id LIMIT 1{skip_locked}";

static const char SQL_MARK_RUNNING[] =
	"UPDATE runs SET status = 'running', runner_id = ?2, started_at = {now},"
	" device_id = ?3, device = (SELECT info FROM devices WHERE id = ?3),"
	" attempts = attempts + 1, done = 0, error = NULL WHERE id = ?1 AND status = 'queued'";

static char *dup_col(struct wl_db_stmt *s, int col)
{
	const char *t = wl_db_col_text(s, col);

	return t ? strdup(t) : NULL;
}

int wl_store_claim_run(struct wl_store *st, long long runner_id,
		       const struct wl_claim_devices *devs, struct wl_claim *out,
		       struct wl_error *err)
{
	char *ids_text = NULL;
	struct wl_db_stmt *s;
	const char *device = NULL;
	size_t len = 2;
	int rc;

	memset(out, 0, sizeof(*out));
	/* The ids as ",a,b,": device ids are slugs, without commas. */
	for (size_t i = 0; i < devs->nids; i++)
		len += strlen(devs->ids[i]) + 1;
	ids_text = malloc(len);
	if (!ids_text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	strcpy(ids_text, ",");
	for (size_t i = 0; i < devs->nids; i++) {
		strcat(ids_text, devs->ids[i]);
		strcat(ids_text, ",");
	}
	if (store_begin(st, err) < 0)
		goto fail;
	s = store_stmt(st, SQL_NEXT_QUEUED, err);
	if (!s)
		goto fail;
	wl_db_bind_text(s, 1, ids_text);
	wl_db_bind_text(s, 2, devs->auto_id);
	wl_db_bind_text(s, 3, devs->gpu_id);
	wl_db_bind_text(s, 4, devs->cpu_id);
	rc = wl_db_step(s);
	if (rc == WL_DB_DONE) {
		wl_db_reset(s);
		store_rollback(st);
		free(ids_text);
		return 0;
	}
	if (rc != WL_DB_ROW) {
		store_fail(st, err, "find a queued run");
		wl_db_reset(s);
		goto fail;
	}
	out->id = wl_db_col_int64(s, 0);
	out->experiment = dup_col(s, 1);
	out->request_json = dup_col(s, 2);
	out->device_id = dup_col(s, 3);
	out->attempt = wl_db_col_int64(s, 5) + 1;
	if (!out->device_id) {
		const char *req = wl_db_col_text(s, 4);

		device = strcmp(req, "gpu") == 0 ? devs->gpu_id
			 : strcmp(req, "cpu") == 0 ? devs->cpu_id
						   : devs->auto_id;
		out->device_id = device ? strdup(device) : NULL;
	}
	wl_db_reset(s);
	if (!out->experiment || !out->request_json || !out->device_id) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	s = store_stmt(st, SQL_MARK_RUNNING, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, out->id);
	wl_db_bind_int64(s, 2, runner_id);
	wl_db_bind_text(s, 3, out->device_id);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "mark run running");
		goto fail;
	}
	if (store_commit(st, err) < 0)
		goto fail_nocommit;
	free(ids_text);
	return 0;
fail:
	store_rollback(st);
fail_nocommit:
	free(ids_text);
	wl_claim_free(out);
	return -1;
}

static const char SQL_CLOCKS[] = "UPDATE runs SET clocks = ?2, flush_bytes = ?3 WHERE id = ?1";

int wl_store_set_run_clocks(struct wl_store *st, long long run_id, const char *clocks_json,
			    long long flush_bytes, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_CLOCKS, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, clocks_json);
	wl_db_bind_int64(s, 3, flush_bytes);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "record clocks");
		return -1;
	}
	return 0;
}

static const char SQL_BUDGET[] = "UPDATE runs SET budget = ?2 WHERE id = ?1";

int wl_store_set_run_budget(struct wl_store *st, long long run_id, const char *budget_json,
			    struct wl_error *err)
{
	return store_step_id(st, SQL_BUDGET, run_id, budget_json, NULL, "record the time budget", err);
}

static const char SQL_PROVENANCE[] =
	"UPDATE runs SET source_hash = ?2, runner_version = ?3 WHERE id = ?1";

int wl_store_set_run_provenance(struct wl_store *st, long long run_id, const char *source_hash,
				const char *runner_version, struct wl_error *err)
{
	return store_step_id(st, SQL_PROVENANCE, run_id, source_hash, runner_version,
			     "record provenance", err);
}

static const char SQL_INSERT_RESULT[] =
	"INSERT INTO results (run_id, seq, variant, params, median_ms, min_ms, max_ms, reps, bytes,"
	" ops, verified, error, note, extra, ci_low_ms, ci_high_ms, spread, stopped, discarded, samples)"
	" VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM results WHERE run_id = ?1), ?2, ?3, ?4,"
	" ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)";
static const char SQL_ADVANCE[] =
	"UPDATE runs SET done = done + 1 WHERE id = ?1 AND status = 'running' AND runner_id = ?2";

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
	wl_db_bind_int64(s, 10, r->verified ? 1 : 0);
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

static const char SQL_CANCEL_REQUESTED[] = "SELECT cancel_requested FROM runs WHERE id = ?1";

int wl_store_cancel_requested(struct wl_store *st, long long run_id, int *requested,
			      struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_CANCEL_REQUESTED, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	rc = wl_db_step(s);
	*requested = rc == WL_DB_ROW && wl_db_col_int64(s, 0);
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "read cancel flag");
		return -1;
	}
	return 0;
}

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

	if (store_step_id(st, SQL_DROP_RESULTS, run_id, NULL, NULL, "drop partial results", err) < 0)
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
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}
