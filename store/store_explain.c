/* What follows a run once it is measured (see store.h, "Explaining"): its
 * explain state, the next run a runner's idle time should explain, and the
 * lab's kept traces, shared by every run and host that asks for the same. */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "store_claim.h"
#include "store_db.h"

static const char SQL_SET_EXPLAIN[] =
	"UPDATE runs SET explain = ?2, explain_ms = coalesce(explain_ms, 0) + ?3,"
	" explained_at = CASE WHEN ?2 = 'pending' THEN NULL ELSE {now} END WHERE id = ?1";

int wl_store_set_explain(struct wl_store *st, long long run_id, const char *state, double ms,
			 struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_SET_EXPLAIN, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, state);
	wl_db_bind_double(s, 3, ms);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "record the explain state");
		return -1;
	}
	return 0;
}

/* The oldest run waiting for its explanations on one of the runner's
 * devices: its measurement is over, whatever its status. */
static const char SQL_NEXT_TO_EXPLAIN[] =
	"SELECT id, experiment, request, device_id, attempts FROM runs"
	" WHERE explain = 'pending' AND {strpos}(?1, ',' || device_id || ',') > 0"
	" AND status IN ('done', 'failed', 'cancelled') ORDER BY id LIMIT 1";

int wl_store_next_to_explain(struct wl_store *st, const struct wl_claim_devices *devs, struct wl_claim *out,
			     struct wl_error *err)
{
	struct wl_db_stmt *s;
	char *ids;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!(ids = store_device_list(devs, err)))
		return -1;
	if (!(s = store_stmt(st, SQL_NEXT_TO_EXPLAIN, err))) {
		free(ids);
		return -1;
	}
	wl_db_bind_text(s, 1, ids);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW) {
		const char *e = wl_db_col_text(s, 1), *r = wl_db_col_text(s, 2), *d = wl_db_col_text(s, 3);

		out->id = wl_db_col_int64(s, 0);
		out->attempt = wl_db_col_int64(s, 4);
		out->experiment = e ? strdup(e) : NULL;
		out->request_json = r ? strdup(r) : NULL;
		out->device_id = d ? strdup(d) : NULL;
	}
	wl_db_reset(s);
	free(ids);
	if (rc == WL_DB_DONE)
		return 0;
	if (rc != WL_DB_ROW) {
		store_fail(st, err, "find a run to explain");
		return -1;
	}
	if (!out->experiment || !out->request_json || !out->device_id) {
		wl_claim_free(out);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return 0;
}

static const char SQL_GET_KEPT[] = "SELECT figures FROM kept_traces WHERE key = ?1";
static const char SQL_PUT_KEPT[] =
	"INSERT INTO kept_traces (key, figures, kept_at) VALUES (?1, ?2, {now})"
	" ON CONFLICT (key) DO UPDATE SET figures = excluded.figures, kept_at = excluded.kept_at";

int wl_store_kept_trace(struct wl_store *st, const char *key, char **figures, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_GET_KEPT, err);
	int rc;

	*figures = NULL;
	if (!s)
		return -1;
	wl_db_bind_text(s, 1, key);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW && wl_db_col_text(s, 0) && !(*figures = strdup(wl_db_col_text(s, 0)))) {
		wl_db_reset(s);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "read a kept trace");
		return -1;
	}
	return 0;
}

int wl_store_keep_trace(struct wl_store *st, const char *key, const char *figures, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_PUT_KEPT, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_text(s, 1, key);
	wl_db_bind_text(s, 2, figures);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "keep a trace");
		return -1;
	}
	return 0;
}
