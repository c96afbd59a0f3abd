/* Opening the store: the SQLite connection settings both processes rely on, the
 * numbered schema migrations (PRAGMA user_version), and the shared helpers of
 * store_internal.h. */
#include "store_internal.h"

#include "wakeup.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Schema migrations, applied in order; the database's user_version is how many
 * have run. Never edit a shipped entry: append a new one. */
static const char *const migrations[] = {
	/* 1: runs, results, runners, devices. */
	"CREATE TABLE runners ("
	"  id INTEGER PRIMARY KEY,"
	"  host TEXT NOT NULL,"
	"  pid INTEGER NOT NULL,"
	"  version TEXT NOT NULL,"
	"  started_at TEXT NOT NULL,"
	"  last_seen TEXT NOT NULL,"
	"  stopped_at TEXT"
	");"
	"CREATE TABLE devices ("
	"  id TEXT PRIMARY KEY,"
	"  runner_id INTEGER NOT NULL REFERENCES runners(id),"
	"  ordinal INTEGER NOT NULL,"
	"  type TEXT NOT NULL,"
	"  info TEXT NOT NULL"		/* the API's device object, as JSON */
	");"
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  experiment TEXT NOT NULL,"
	"  label TEXT,"
	"  status TEXT NOT NULL CHECK (status IN ('queued','running','done','failed','cancelled')),"
	"  request TEXT NOT NULL,"
	"  device_req TEXT NOT NULL,"
	"  device_id TEXT,"
	"  device TEXT,"		/* snapshot of the device when the run started */
	"  total INTEGER NOT NULL,"
	"  done INTEGER NOT NULL DEFAULT 0,"
	"  created_at TEXT NOT NULL,"
	"  started_at TEXT,"
	"  finished_at TEXT,"
	"  error TEXT,"
	"  runner_id INTEGER REFERENCES runners(id),"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  requeues INTEGER NOT NULL DEFAULT 0,"
	"  cancel_requested INTEGER NOT NULL DEFAULT 0,"
	"  source_hash TEXT,"
	"  runner_version TEXT"
	");"
	"CREATE INDEX runs_by_status ON runs(status, id);"
	"CREATE INDEX runs_by_experiment ON runs(experiment, id);"
	"CREATE INDEX runs_by_device ON runs(device_id, id);"
	"CREATE TABLE results ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  variant TEXT NOT NULL,"
	"  params TEXT NOT NULL,"
	"  median_ms REAL, min_ms REAL, max_ms REAL,"
	"  reps INTEGER NOT NULL,"
	"  bytes REAL, ops REAL,"
	"  verified INTEGER NOT NULL,"
	"  error TEXT,"
	"  note TEXT,"
	"  PRIMARY KEY (run_id, seq)"
	") WITHOUT ROWID;",
	/* 2: figures a result carries beside its time (e.g. a predicted
	 * bank-conflict degree), as a JSON object. */
	"ALTER TABLE results ADD COLUMN extra TEXT;",
	/* 3: the copy ceiling of a device as of a time is one index seek, however
	 * many runs the history holds. */
	"CREATE INDEX runs_by_device_experiment ON runs(device_id, experiment, status, finished_at);",
	/* 4: kernel sources by hash, so a run's page shows the built-in kernels
	 * as they were when it ran. */
	"CREATE TABLE sources ("
	"  hash TEXT PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  text TEXT NOT NULL"
	") WITHOUT ROWID;",
	/* 5: how far a result can be trusted: the 95% interval of its median, the
	 * samples' interquartile spread, why sampling stopped, and the samples
	 * themselves (little-endian float32 milliseconds). */
	"ALTER TABLE results ADD COLUMN ci_low_ms REAL;"
	"ALTER TABLE results ADD COLUMN ci_high_ms REAL;"
	"ALTER TABLE results ADD COLUMN spread REAL;"
	"ALTER TABLE results ADD COLUMN stopped TEXT;"
	"ALTER TABLE results ADD COLUMN discarded INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE results ADD COLUMN samples BLOB;"
	/* and the GPU's clocks, temperature, power and peak bandwidth at the run's
	 * start and end, as JSON, where the runner could read them (NVML). */
	"ALTER TABLE runs ADD COLUMN clocks TEXT;"
	/* and how many bytes a cold run wrote before each timed launch. */
	"ALTER TABLE runs ADD COLUMN flush_bytes INTEGER;"
	/* and where its time went (builds, inputs, transfers, launches, ...). */
	"ALTER TABLE runs ADD COLUMN budget TEXT;",
	/* 6: every change a client can see of a run (queued, claimed, progress,
	 * finished, requeued, cancel asked) takes the next change number, so live
	 * streams ask "what changed since N" with one index range, and a client
	 * that reconnects with N misses nothing. The number is the largest so far
	 * plus one (one index seek; runs are never deleted, and writers take
	 * turns). The insert sets it itself, which costs a queued run nothing
	 * more; a trigger numbers any other insert, and every update, so that no
	 * writer can forget it. */
	"ALTER TABLE runs ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;"
	"CREATE INDEX runs_by_change ON runs(change_seq);"
	"CREATE TRIGGER runs_inserted AFTER INSERT ON runs WHEN NEW.change_seq = 0 BEGIN"
	"  UPDATE runs SET change_seq = (SELECT max(change_seq) FROM runs) + 1 WHERE id = NEW.id;"
	" END;"
	"CREATE TRIGGER runs_changed AFTER UPDATE OF status, done, error, started_at, finished_at,"
	"  device_id, device, requeues, cancel_requested ON runs BEGIN"
	"  UPDATE runs SET change_seq = (SELECT max(change_seq) FROM runs) + 1 WHERE id = NEW.id;"
	" END;",
};

#define NMIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

void store_fail(struct wl_store *st, struct wl_error *err, const char *doing)
{
	int code = st && st->db ? sqlite3_errcode(st->db) : SQLITE_ERROR;
	enum wl_error_kind kind = WL_ERR_INTERNAL;

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_IOERR ||
	    code == SQLITE_CANTOPEN || code == SQLITE_FULL || code == SQLITE_CORRUPT ||
	    code == SQLITE_NOTADB || code == SQLITE_READONLY)
		kind = WL_ERR_UNAVAILABLE;
	wl_error_set(err, kind, "store: %s: %s", doing,
		     st && st->db ? sqlite3_errmsg(st->db) : "no connection");
}

int store_exec(struct wl_store *st, const char *sql, struct wl_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		wl_error_set(err, WL_ERR_UNAVAILABLE, "store: %s", msg ? msg : "exec failed");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int store_begin(struct wl_store *st, struct wl_error *err)
{
	return store_exec(st, "BEGIN IMMEDIATE", err);
}

int store_commit(struct wl_store *st, struct wl_error *err)
{
	if (store_exec(st, "COMMIT", err) < 0) {
		store_rollback(st);
		return -1;
	}
	return 0;
}

void store_rollback(struct wl_store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

sqlite3_stmt *store_stmt(struct wl_store *st, const char *sql, struct wl_error *err)
{
	int free_slot = -1;
	sqlite3_stmt *s;

	for (int i = 0; i < STORE_STMT_CACHE; i++) {
		if (st->cache[i].sql == sql) {
			sqlite3_reset(st->cache[i].stmt);
			sqlite3_clear_bindings(st->cache[i].stmt);
			return st->cache[i].stmt;
		}
		if (!st->cache[i].sql && free_slot < 0)
			free_slot = i;
	}
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) {
		store_fail(st, err, "prepare");
		return NULL;
	}
	if (free_slot < 0) {
		/* Full: a cache miss is only slower, so evict the first entry. */
		sqlite3_finalize(st->cache[0].stmt);
		free_slot = 0;
	}
	st->cache[free_slot].sql = sql;
	st->cache[free_slot].stmt = s;
	return s;
}

int store_step_id(struct wl_store *st, const char *sql, long long id, const char *a,
		  const char *b, const char *doing, struct wl_error *err)
{
	sqlite3_stmt *s = store_stmt(st, sql, err);
	int rc, nparams;

	if (!s)
		return -1;
	nparams = sqlite3_bind_parameter_count(s);
	sqlite3_bind_int64(s, 1, id);
	if (nparams >= 2)
		sqlite3_bind_text(s, 2, a, -1, SQLITE_STATIC);
	if (nparams >= 3)
		sqlite3_bind_text(s, 3, b, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		store_fail(st, err, doing);
		return -1;
	}
	return 0;
}

json_t *store_col_text(sqlite3_stmt *s, int col)
{
	const unsigned char *t = sqlite3_column_text(s, col);

	return t ? json_string((const char *)t) : json_null();
}

json_t *store_col_json(sqlite3_stmt *s, int col)
{
	const char *t = (const char *)sqlite3_column_text(s, col);
	json_t *v;

	if (!t)
		return json_null();
	v = json_loads(t, 0, NULL);
	return v ? v : json_null();
}

static int migrate(struct wl_store *st, struct wl_error *err)
{
	int version;

	if (wl_store_schema_version(st, &version, err) < 0)
		return -1;
	if (version > NMIGRATIONS) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "store: database schema version %d is newer than this program (%d); upgrade warplab",
			     version, NMIGRATIONS);
		return -1;
	}
	while (version < NMIGRATIONS) {
		char pragma[64];

		if (store_begin(st, err) < 0)
			return -1;
		/* Another process may have migrated while we waited for the lock. */
		if (wl_store_schema_version(st, &version, err) < 0) {
			store_rollback(st);
			return -1;
		}
		if (version >= NMIGRATIONS) {
			store_rollback(st);
			break;
		}
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", version + 1);
		if (store_exec(st, migrations[version], err) < 0 || store_exec(st, pragma, err) < 0) {
			store_rollback(st);
			return -1;
		}
		if (store_commit(st, err) < 0)
			return -1;
		version++;
	}
	return 0;
}

int wl_store_schema_version(struct wl_store *st, int *version, struct wl_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW) {
		store_fail(st, err, "read schema version");
		goto out;
	}
	*version = sqlite3_column_int(s, 0);
	rc = 0;
out:
	sqlite3_finalize(s);
	return rc;
}

/* Switch a new database to WAL. Two processes opening a new file at once (a
 * server and a runner started together) race for the switch, and the loser is
 * told "database is locked" without the busy handler: try again for a while. */
static int set_wal(struct wl_store *st, struct wl_error *err)
{
	for (int tries = 0;; tries++) {
		if (store_exec(st, "PRAGMA journal_mode = WAL", err) == 0)
			return 0;
		if (sqlite3_errcode(st->db) != SQLITE_BUSY || tries == 100)
			return -1;
		sqlite3_sleep(50);
	}
}

int wl_store_beside(const char *path, const char *name, char *out, size_t len)
{
	char copy[4096];
	int n;

	if (!path || !*path || strncmp(path, "file:", 5) == 0 || strcmp(path, ":memory:") == 0 ||
	    strlen(path) >= sizeof(copy))
		return -1;
	snprintf(copy, sizeof(copy), "%s", path);
	n = snprintf(out, len, "%s/%s", dirname(copy), name);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Note a change to the runs table; it is announced once committed. */
static void on_row_change(void *ctx, int op, const char *db, const char *table, sqlite3_int64 row)
{
	struct wl_store *st = ctx;

	(void)op;
	(void)db;
	(void)row;
	if (strcmp(table, "runs") == 0)
		st->runs_changed = 1;
}

static void on_rollback(void *ctx)
{
	((struct wl_store *)ctx)->runs_changed = 0;
}

/* Called once a transaction is committed to the WAL and its lock released, so
 * a watcher woken here reads the change. Registering this replaces SQLite's
 * automatic checkpoint, so it is done here the same way (a passive checkpoint
 * once the log holds 1000 pages). */
static int on_commit(void *ctx, sqlite3 *db, const char *name, int pages)
{
	struct wl_store *st = ctx;

	if (st->runs_changed) {
		st->runs_changed = 0;
		wl_wakeup_send(st->path, WL_WAKE_WATCHERS);
	}
	if (pages >= 1000)
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	return SQLITE_OK;
}

int wl_store_open(const char *path, struct wl_store **out, struct wl_error *err)
{
	struct wl_store *st;

	st = calloc(1, sizeof(*st));
	if (!st || !(st->path = strdup(path))) {
		free(st);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		wl_error_set(err, WL_ERR_UNAVAILABLE, "store: cannot open %s: %s", path,
			     st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	/* Both processes wait for each other's short transactions rather than fail;
	 * FULL sync makes a commit (and so a 201) survive a crash of the machine. */
	sqlite3_busy_timeout(st->db, 5000);
	if (set_wal(st, err) < 0 || store_exec(st, "PRAGMA synchronous = FULL", err) < 0 ||
	    store_exec(st, "PRAGMA foreign_keys = ON", err) < 0 || migrate(st, err) < 0) {
		char inner[sizeof(err->msg)];

		if (err) {
			snprintf(inner, sizeof(inner), "%s", err->msg);
			wl_error_set(err, err->kind, "%s (database %s)", inner, path);
		}
		goto fail;
	}
	sqlite3_update_hook(st->db, on_row_change, st);
	sqlite3_rollback_hook(st->db, on_rollback, st);
	sqlite3_wal_hook(st->db, on_commit, st);
	*out = st;
	return 0;
fail:
	wl_store_close(st);
	return -1;
}

void wl_store_close(struct wl_store *st)
{
	if (!st)
		return;
	for (int i = 0; i < STORE_STMT_CACHE; i++)
		sqlite3_finalize(st->cache[i].stmt);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}
