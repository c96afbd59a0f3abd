/* The model's ledger (see store.h): each finished run's points as the
 * server scored them, which runs of a window are still to be scored, and
 * the points read back by window or as a device and family's latest. Every
 * read walks an index of migration 15: the window's points by version and
 * end, a record by version, device, family and end, the window's runs by
 * their end. */
#include "store.h"

#include <stdio.h>
#include <string.h>

#include "store_db.h"

/* An open end of a window, as text every stored time sorts after (since)
 * or before (until): stored times begin with a digit. */
#define OPEN_SINCE ""
#define OPEN_UNTIL "~"

static const char SQL_VERSION[] = "SELECT model_version FROM model_ledger_runs WHERE run_id = ?1";

int wl_store_ledger_version(struct wl_store *st, long long run_id, char *buf, size_t len, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_VERSION, err);
	int rc;

	buf[0] = '\0';
	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW && wl_db_col_text(s, 0))
		snprintf(buf, len, "%s", wl_db_col_text(s, 0));
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "read the run's ledger version");
		return -1;
	}
	return 0;
}

static const char SQL_RUN_END[] =
	"SELECT device_id, finished_at FROM runs WHERE id = ?1 AND status IN ('done', 'failed', 'cancelled')"
	" AND device_id IS NOT NULL AND finished_at IS NOT NULL";
static const char SQL_DROP_POINTS[] = "DELETE FROM model_ledger WHERE run_id = ?1";
static const char SQL_PUT_POINT[] =
	"INSERT INTO model_ledger (run_id, seq, model_version, device_id, family, variant, compared_on,"
	" predicted, measured, factor, finished_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
static const char SQL_PUT_RUN[] =
	"INSERT INTO model_ledger_runs (run_id, model_version, points, scored_at) VALUES (?1, ?2, ?3, {now})"
	" ON CONFLICT (run_id) DO UPDATE SET model_version = excluded.model_version, points = excluded.points,"
	" scored_at = excluded.scored_at";

/* Insert the points inside the caller's transaction, with the run's device
 * and end. */
static int put_points(struct wl_store *st, long long run_id, const char *version, const char *device,
		      const char *end, const struct wl_ledger_point *points, size_t n, struct wl_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const struct wl_ledger_point *p = &points[i];
		struct wl_db_stmt *s = store_stmt(st, SQL_PUT_POINT, err);
		int rc;

		if (!s)
			return -1;
		wl_db_bind_int64(s, 1, run_id);
		wl_db_bind_int64(s, 2, p->seq);
		wl_db_bind_text(s, 3, version);
		wl_db_bind_text(s, 4, device);
		wl_db_bind_text(s, 5, p->family);
		wl_db_bind_text(s, 6, p->variant);
		wl_db_bind_text(s, 7, p->compared_on);
		wl_db_bind_double(s, 8, p->predicted);
		wl_db_bind_double(s, 9, p->measured);
		wl_db_bind_double(s, 10, p->factor);
		wl_db_bind_text(s, 11, end);
		rc = wl_db_step(s);
		wl_db_reset(s);
		if (rc != WL_DB_DONE) {
			store_fail(st, err, "keep a point in the ledger");
			return -1;
		}
	}
	return 0;
}

int wl_store_ledger_put(struct wl_store *st, long long run_id, const char *version,
			const struct wl_ledger_point *points, size_t n, int *written, struct wl_error *err)
{
	char had[128], device[256], end[64];
	struct wl_db_stmt *s;
	int rc;

	*written = 0;
	if (store_begin(st, err) < 0)
		return -1;
	/* Another writer may have scored it since the caller looked. */
	if (wl_store_ledger_version(st, run_id, had, sizeof(had), err) < 0)
		goto fail;
	if (strcmp(had, version) == 0) {
		store_rollback(st);
		return 0;
	}
	if (!(s = store_stmt(st, SQL_RUN_END, err)))
		goto fail;
	wl_db_bind_int64(s, 1, run_id);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW) {
		snprintf(device, sizeof(device), "%s", wl_db_col_text(s, 0));
		snprintf(end, sizeof(end), "%s", wl_db_col_text(s, 1));
	}
	wl_db_reset(s);
	if (rc == WL_DB_DONE) {
		wl_error_set(err, WL_ERR_CONFLICT, "run %lld has not finished on a device: nothing to score", run_id);
		goto fail;
	}
	if (rc != WL_DB_ROW) {
		store_fail(st, err, "read the run's end");
		goto fail;
	}
	if (store_step_id(st, SQL_DROP_POINTS, run_id, NULL, NULL, "drop the run's old points", err) < 0 ||
	    put_points(st, run_id, version, device, end, points, n, err) < 0)
		goto fail;
	if (!(s = store_stmt(st, SQL_PUT_RUN, err)))
		goto fail;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, version);
	wl_db_bind_int64(s, 3, (long long)n);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "mark the run scored");
		goto fail;
	}
	if (store_commit(st, err) < 0)
		return -1;
	*written = 1;
	return 0;
fail:
	store_rollback(st);
	return -1;
}

/* The window's finished runs on a device that are not scored at ?1: one
 * statement with a device filter and one without (an "?4 IS NULL OR" form
 * cannot use an index), each walking runs_by_finish. */
#define UNSCORED_FROM(device)                                                                             \
	" FROM runs r LEFT JOIN model_ledger_runs l ON l.run_id = r.id"                                   \
	" WHERE r.finished_at >= ?2 AND r.finished_at < ?3 AND r.status IN ('done', 'failed', 'cancelled')" \
	" AND r.device_id IS NOT NULL AND (l.run_id IS NULL OR l.model_version != ?1)" device
#define COUNT_UNSCORED(device) \
	"SELECT count(*), coalesce(sum(CASE WHEN l.run_id IS NULL THEN 0 ELSE 1 END), 0)" UNSCORED_FROM(device)
#define PICK_UNSCORED(device)                                                                      \
	"SELECT r.id" UNSCORED_FROM(device) " AND (r.explain IS NULL OR r.explain != 'pending')" \
	" ORDER BY r.finished_at DESC, r.id DESC LIMIT ?5"
static const char *const SQL_COUNT_UNSCORED[2] = { COUNT_UNSCORED(""), COUNT_UNSCORED(" AND r.device_id = ?4") };
static const char *const SQL_PICK_UNSCORED[2] = { PICK_UNSCORED(""), PICK_UNSCORED(" AND r.device_id = ?4") };

/* Bind version and w as ?1 to ?4 (the device only where the statement
 * names it). */
static void bind_window(struct wl_db_stmt *s, const char *version, const struct wl_ledger_window *w)
{
	wl_db_bind_text(s, 1, version);
	wl_db_bind_text(s, 2, w->since ? w->since : OPEN_SINCE);
	wl_db_bind_text(s, 3, w->until ? w->until : OPEN_UNTIL);
	if (w->device)
		wl_db_bind_text(s, 4, w->device);
}

int wl_store_ledger_unscored(struct wl_store *st, const char *version, const struct wl_ledger_window *w,
			     long long *ids, size_t max, size_t *nids, long long *unscored, long long *elsewhere,
			     struct wl_error *err)
{
	int by_device = w->device != NULL, rc;
	struct wl_db_stmt *s;

	*nids = 0;
	*unscored = *elsewhere = 0;
	if (!(s = store_stmt(st, SQL_COUNT_UNSCORED[by_device], err)))
		return -1;
	bind_window(s, version, w);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW) {
		*unscored = wl_db_col_int64(s, 0);
		*elsewhere = wl_db_col_int64(s, 1);
	}
	wl_db_reset(s);
	if (rc != WL_DB_ROW) {
		store_fail(st, err, "count the runs to score");
		return -1;
	}
	if (*unscored == 0 || max == 0)
		return 0;
	if (!(s = store_stmt(st, SQL_PICK_UNSCORED[by_device], err)))
		return -1;
	bind_window(s, version, w);
	wl_db_bind_int64(s, 5, (long long)max);
	while ((rc = wl_db_step(s)) == WL_DB_ROW && *nids < max)
		ids[(*nids)++] = wl_db_col_int64(s, 0);
	wl_db_reset(s);
	if (rc != WL_DB_DONE && rc != WL_DB_ROW) {
		store_fail(st, err, "find the runs to score");
		*nids = 0;
		return -1;
	}
	return 0;
}

/* By device and family, the order of model_ledger_record, which holds
 * every column read: no sort, however many points (the caller sorts each
 * family's factors, a few thousand at a time). */
#define EACH_POINT(device)                                                                      \
	"SELECT device_id, family, factor FROM model_ledger WHERE model_version = ?1"             \
	" AND finished_at >= ?2 AND finished_at < ?3" device " ORDER BY device_id, family"
static const char *const SQL_EACH_POINT[2] = { EACH_POINT(""), EACH_POINT(" AND device_id = ?4") };

int wl_store_ledger_each(struct wl_store *st, const char *version, const struct wl_ledger_window *w,
			 wl_ledger_fn fn, void *ctx, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_EACH_POINT[w->device != NULL], err);
	int rc;

	if (!s)
		return -1;
	/* One snapshot: points scored meanwhile come in whole runs or not. */
	bind_window(s, version, w);
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		if (fn(ctx, wl_db_col_text(s, 0), wl_db_col_text(s, 1), wl_db_col_double(s, 2), err) < 0) {
			wl_db_reset(s);
			return -1;
		}
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "read the ledger's points");
		return -1;
	}
	return 0;
}

static const char SQL_RECENT[] =
	"SELECT factor FROM model_ledger WHERE model_version = ?1 AND device_id = ?2 AND family = ?3"
	" AND (finished_at, run_id) < (?5, ?6) ORDER BY finished_at DESC, run_id DESC, seq DESC LIMIT ?4";

int wl_store_ledger_recent(struct wl_store *st, const char *version, const char *device, const char *family,
			   const char *before, long long before_id, double *factors, size_t max, size_t *n,
			   struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_RECENT, err);
	int rc;

	*n = 0;
	if (!s)
		return -1;
	wl_db_bind_text(s, 1, version);
	wl_db_bind_text(s, 2, device);
	wl_db_bind_text(s, 3, family);
	wl_db_bind_int64(s, 4, (long long)max);
	wl_db_bind_text(s, 5, before ? before : OPEN_UNTIL);
	wl_db_bind_int64(s, 6, before ? before_id : 0);
	while ((rc = wl_db_step(s)) == WL_DB_ROW && *n < max)
		factors[(*n)++] = wl_db_col_double(s, 0);
	wl_db_reset(s);
	if (rc != WL_DB_DONE && rc != WL_DB_ROW) {
		store_fail(st, err, "read the model's record");
		*n = 0;
		return -1;
	}
	return 0;
}
