/* The SQLite engine behind db.h: one file in WAL mode shared by the processes
 * of one machine, FULL sync so that a commit survives a crash, writers waiting
 * for each other rather than failing, and commits that changed a run announced
 * to the servers' watchers (wakeup.h). */
#include "db_backend.h"

#include "db_target.h"
#include "wakeup.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sqlite_conn {
	sqlite3 *db;
	char *path;		/* where commits are announced (wakeup.h) */
	int runs_changed;	/* the open transaction changed a run */
};

struct sqlite_stmt {
	struct wl_db_stmt base;
	sqlite3_stmt *stmt;
	struct sqlite_conn *conn;
};

static const char *const sqlite_dialect[][2] = {
	/* The time now as the store keeps times: RFC 3339 UTC with milliseconds. */
	{ "now", "strftime('%Y-%m-%dT%H:%M:%fZ','now')" },
	/* A stored time (or 'now') as seconds, for differences and windows. */
	{ "secs", "(julianday($) * 86400.0)" },
	/* Where text $2 starts in text $1, 0 when it is not there. */
	{ "strpos", "instr" },
	/* The column's values joined with a separator. */
	{ "string_agg", "group_concat" },
	/* Run r's label holds text ?6 (3 characters or more), any case: asked of
	 * the trigram index (migration 8) first. */
	{ "label_match", "r.id IN (SELECT rowid FROM run_labels WHERE run_labels MATCH"
			 " '\"' || replace(?6, '\"', '\"\"') || '\"')" },
	/* Run r's cache mode as request.h reads it: its request's "cache" when
	 * "cold", else hot (runs queued before cold mode timed hot). */
	{ "run_cache", "(CASE WHEN json_extract(r.request, '$.cache') = 'cold' THEN 'cold' ELSE 'hot' END)" },
	/* Claims need no row locks: writers take turns. */
	{ "skip_locked", "" },
	{ NULL, NULL },
};

static struct sqlite_stmt *S(struct wl_db_stmt *s)
{
	return (struct sqlite_stmt *)s;
}

static void sqlite_fail(void *c, struct wl_error *err, const char *doing)
{
	struct sqlite_conn *conn = c;
	int code = conn && conn->db ? sqlite3_errcode(conn->db) : SQLITE_ERROR;
	enum wl_error_kind kind = WL_ERR_INTERNAL;

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_IOERR ||
	    code == SQLITE_CANTOPEN || code == SQLITE_FULL || code == SQLITE_CORRUPT ||
	    code == SQLITE_NOTADB || code == SQLITE_READONLY)
		kind = WL_ERR_UNAVAILABLE;
	wl_error_set(err, kind, "store: %s: %s", doing,
		     conn && conn->db ? sqlite3_errmsg(conn->db) : "no connection");
}

static int sqlite_exec(void *c, const char *sql, struct wl_error *err)
{
	struct sqlite_conn *conn = c;
	char *msg = NULL;

	if (sqlite3_exec(conn->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		wl_error_set(err, WL_ERR_UNAVAILABLE, "store: %s", msg ? msg : "exec failed");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int sqlite_in_transaction(void *c)
{
	return !sqlite3_get_autocommit(((struct sqlite_conn *)c)->db);
}

/* Switch a new database to WAL. Two processes opening a new file at once (a
 * server and a runner started together) race for the switch, and the loser is
 * told "database is locked" without the busy handler: try again for a while. */
static int set_wal(struct sqlite_conn *conn, struct wl_error *err)
{
	for (int tries = 0;; tries++) {
		if (sqlite_exec(conn, "PRAGMA journal_mode = WAL", err) == 0)
			return 0;
		if (sqlite3_errcode(conn->db) != SQLITE_BUSY || tries == 100)
			return -1;
		sqlite3_sleep(50);
	}
}

/* Note a change to the runs table; it is announced once committed. */
static void on_row_change(void *ctx, int op, const char *db, const char *table, sqlite3_int64 row)
{
	struct sqlite_conn *conn = ctx;

	(void)op;
	(void)db;
	(void)row;
	if (strcmp(table, "runs") == 0)
		conn->runs_changed = 1;
}

static void on_rollback(void *ctx)
{
	((struct sqlite_conn *)ctx)->runs_changed = 0;
}

/* Called once a transaction is committed to the WAL and its lock released, so
 * a watcher woken here reads the change. Registering this replaces SQLite's
 * automatic checkpoint, so it is done here the same way (a passive checkpoint
 * once the log holds 1000 pages). */
static int on_commit(void *ctx, sqlite3 *db, const char *name, int pages)
{
	struct sqlite_conn *conn = ctx;

	if (conn->runs_changed) {
		conn->runs_changed = 0;
		wl_wakeup_send(conn->path, WL_WAKE_WATCHERS);
	}
	if (pages >= 1000)
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	return SQLITE_OK;
}

static void sqlite_close(void *c)
{
	struct sqlite_conn *conn = c;

	if (!conn)
		return;
	sqlite3_close(conn->db);
	free(conn->path);
	free(conn);
}

static int sqlite_open(const char *target, void **out, struct wl_error *err)
{
	struct sqlite_conn *conn = calloc(1, sizeof(*conn));
	char path[4096];

	if (!conn || wl_db_sqlite_path(target, path, sizeof(path)) < 0 ||
	    !(conn->path = strdup(target))) {
		free(conn);
		wl_error_set(err, WL_ERR_CONFIG, "store: cannot use %.200s as a SQLite file", target);
		return -1;
	}
	if (sqlite3_open_v2(path, &conn->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		wl_error_set(err, WL_ERR_UNAVAILABLE, "store: cannot open %s: %s", path,
			     conn->db ? sqlite3_errmsg(conn->db) : "out of memory");
		goto fail;
	}
	/* Processes wait for each other's short transactions rather than fail;
	 * FULL sync makes a commit (and so a 201) survive a crash of the machine. */
	sqlite3_busy_timeout(conn->db, 5000);
	if (set_wal(conn, err) < 0 || sqlite_exec(conn, "PRAGMA synchronous = FULL", err) < 0 ||
	    sqlite_exec(conn, "PRAGMA foreign_keys = ON", err) < 0)
		goto fail;
	sqlite3_update_hook(conn->db, on_row_change, conn);
	sqlite3_rollback_hook(conn->db, on_rollback, conn);
	sqlite3_wal_hook(conn->db, on_commit, conn);
	*out = conn;
	return 0;
fail:
	sqlite_close(conn);
	return -1;
}

static struct wl_db_stmt *sqlite_prepare(void *c, const char *sql, struct wl_error *err)
{
	struct sqlite_conn *conn = c;
	struct sqlite_stmt *s = calloc(1, sizeof(*s));

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	if (sqlite3_prepare_v3(conn->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->stmt, NULL) !=
	    SQLITE_OK) {
		sqlite_fail(conn, err, "prepare");
		free(s);
		return NULL;
	}
	s->base.ops = &wl_db_sqlite_ops;
	s->conn = conn;
	return &s->base;
}

static void sqlite_finalize(struct wl_db_stmt *s)
{
	if (s) {
		sqlite3_finalize(S(s)->stmt);
		free(s);
	}
}

static int sqlite_stmt_valid(void *c, struct wl_db_stmt *s)
{
	(void)c;
	(void)s;
	return 1;
}

static void sqlite_bind_int64(struct wl_db_stmt *s, int i, long long v)
{
	sqlite3_bind_int64(S(s)->stmt, i, v);
}

static void sqlite_bind_double(struct wl_db_stmt *s, int i, double v)
{
	sqlite3_bind_double(S(s)->stmt, i, v);
}

static void sqlite_bind_text(struct wl_db_stmt *s, int i, const char *v)
{
	sqlite3_bind_text(S(s)->stmt, i, v, -1, SQLITE_STATIC);
}

static void sqlite_bind_blob(struct wl_db_stmt *s, int i, const void *p, size_t n)
{
	sqlite3_bind_blob64(S(s)->stmt, i, p, n, SQLITE_STATIC);
}

static int sqlite_step(struct wl_db_stmt *s)
{
	int rc = sqlite3_step(S(s)->stmt);

	return rc == SQLITE_ROW ? WL_DB_ROW : rc == SQLITE_DONE ? WL_DB_DONE : WL_DB_ERROR;
}

static void sqlite_reset(struct wl_db_stmt *s)
{
	sqlite3_reset(S(s)->stmt);
	sqlite3_clear_bindings(S(s)->stmt);
}

static int sqlite_col_null(struct wl_db_stmt *s, int col)
{
	return sqlite3_column_type(S(s)->stmt, col) == SQLITE_NULL;
}

static const char *sqlite_col_text(struct wl_db_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(S(s)->stmt, col);
}

static long long sqlite_col_int64(struct wl_db_stmt *s, int col)
{
	return sqlite3_column_int64(S(s)->stmt, col);
}

static double sqlite_col_double(struct wl_db_stmt *s, int col)
{
	return sqlite3_column_double(S(s)->stmt, col);
}

static const void *sqlite_col_blob(struct wl_db_stmt *s, int col, size_t *n)
{
	const void *p = sqlite3_column_blob(S(s)->stmt, col);

	*n = (size_t)sqlite3_column_bytes(S(s)->stmt, col);
	return p;
}

static long long sqlite_changes(void *c)
{
	return sqlite3_changes64(((struct sqlite_conn *)c)->db);
}

static int sqlite_schema_version(void *c, int *version, struct wl_error *err)
{
	struct sqlite_conn *conn = c;
	sqlite3_stmt *s = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(conn->db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW) {
		sqlite_fail(conn, err, "read schema version");
		goto out;
	}
	*version = sqlite3_column_int(s, 0);
	rc = 0;
out:
	sqlite3_finalize(s);
	return rc;
}

static int sqlite_set_schema_version(void *c, int version, struct wl_error *err)
{
	char pragma[64];

	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", version);
	return sqlite_exec(c, pragma, err);
}

const struct wl_db_ops wl_db_sqlite_ops = {
	.kind = WL_DB_SQLITE,
	.open = sqlite_open,
	.close = sqlite_close,
	.prepare = sqlite_prepare,
	.finalize = sqlite_finalize,
	.stmt_valid = sqlite_stmt_valid,
	.bind_int64 = sqlite_bind_int64,
	.bind_double = sqlite_bind_double,
	.bind_text = sqlite_bind_text,
	.bind_blob = sqlite_bind_blob,
	.step = sqlite_step,
	.reset = sqlite_reset,
	.col_null = sqlite_col_null,
	.col_text = sqlite_col_text,
	.col_int64 = sqlite_col_int64,
	.col_double = sqlite_col_double,
	.col_blob = sqlite_col_blob,
	.changes = sqlite_changes,
	.exec = sqlite_exec,
	.in_transaction = sqlite_in_transaction,
	.fail = sqlite_fail,
	.schema_version = sqlite_schema_version,
	.set_schema_version = sqlite_set_schema_version,
	.begin_write = "BEGIN IMMEDIATE",
	.begin_read = "BEGIN",
	.dialect = sqlite_dialect,
};
