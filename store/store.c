/* Opening the store: the database connection (db.h: a SQLite file or a
 * PostgreSQL server), the numbered schema migrations (store_schema.c), and
 * the shared helpers of store_internal.h. */
#include "store_internal.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void store_fail(struct wl_store *st, struct wl_error *err, const char *doing)
{
	if (st && st->db)
		wl_db_fail(st->db, err, doing);
	else
		wl_error_set(err, WL_ERR_UNAVAILABLE, "store: %s: no connection", doing);
}

struct wl_db_stmt *store_stmt(struct wl_store *st, const char *sql, struct wl_error *err)
{
	return wl_db_stmt(st->db, sql, err);
}

int store_begin(struct wl_store *st, struct wl_error *err)
{
	return wl_db_begin_write(st->db, err);
}

int store_begin_read(struct wl_store *st, struct wl_error *err)
{
	return wl_db_begin_read(st->db, err);
}

int store_commit(struct wl_store *st, struct wl_error *err)
{
	return wl_db_commit(st->db, err);
}

void store_rollback(struct wl_store *st)
{
	wl_db_rollback(st->db);
}

int store_step_id(struct wl_store *st, const char *sql, long long id, const char *a,
		  const char *b, const char *doing, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, sql, err);
	int rc;

	if (!s)
		return -1;
	/* Parameters the statement does not have are ignored. */
	wl_db_bind_int64(s, 1, id);
	wl_db_bind_text(s, 2, a);
	wl_db_bind_text(s, 3, b);
	rc = wl_db_step(s);
	if (rc == WL_DB_ERROR)
		store_fail(st, err, doing);
	wl_db_reset(s);
	return rc == WL_DB_ERROR ? -1 : 0;
}

int store_run_row(struct wl_store *st, const char *sql, long long id, const char *doing,
		  struct wl_db_stmt **out, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, sql, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, id);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW) {
		*out = s;
		return 0;
	}
	wl_db_reset(s);
	if (rc == WL_DB_DONE)
		wl_error_set(err, WL_ERR_NOT_FOUND, "run %lld does not exist", id);
	else
		store_fail(st, err, doing);
	return -1;
}

json_t *store_col_text(struct wl_db_stmt *s, int col)
{
	const char *t = wl_db_col_text(s, col);

	return t ? json_string(t) : json_null();
}

json_t *store_col_json(struct wl_db_stmt *s, int col)
{
	const char *t = wl_db_col_text(s, col);
	json_t *v;

	if (!t)
		return json_null();
	v = json_loads(t, 0, NULL);
	return v ? v : json_null();
}

static int migrate_steps(struct wl_store *st, struct wl_error *err)
{
	int pg = wl_db_kind(st->db) == WL_DB_POSTGRES;
	int version;

	if (wl_store_schema_version(st, &version, err) < 0)
		return -1;
	if (version > store_nmigrations) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "store: database schema version %d is newer than this program (%d); upgrade warplab",
			     version, store_nmigrations);
		return -1;
	}
	while (version < store_nmigrations) {
		const struct store_migration *m;

		if (store_begin(st, err) < 0)
			return -1;
		/* Another process may have migrated while we waited for the lock. */
		if (wl_store_schema_version(st, &version, err) < 0) {
			store_rollback(st);
			return -1;
		}
		if (version >= store_nmigrations) {
			store_rollback(st);
			break;
		}
		m = &store_migrations[version];
		if (wl_db_exec(st->db, pg ? m->postgres : m->sqlite, err) < 0 ||
		    wl_db_set_schema_version(st->db, version + 1, err) < 0) {
			store_rollback(st);
			return -1;
		}
		if (store_commit(st, err) < 0)
			return -1;
		version++;
	}
	return 0;
}

/* Bring the schema to the latest version. Processes that start together
 * take turns: SQLite's writers through BEGIN IMMEDIATE; on PostgreSQL through
 * a session-wide advisory lock taken before each migration's transaction
 * begins, so that the transaction, started after the lock, sees the tables
 * the previous holder made (a lock taken inside a transaction that had already
 * begun would leave it reading the catalog as it was). */
static int migrate(struct wl_store *st, struct wl_error *err)
{
	static const char lock[] = "SELECT pg_advisory_lock(7762, hashtext(current_schema()))";
	static const char unlock[] = "SELECT pg_advisory_unlock(7762, hashtext(current_schema()))";
	int pg = wl_db_kind(st->db) == WL_DB_POSTGRES, rc;

	if (pg && wl_db_exec(st->db, lock, err) < 0)
		return -1;
	rc = migrate_steps(st, err);
	if (pg)
		wl_db_exec(st->db, unlock, NULL);
	return rc;
}

int wl_store_schema_version(struct wl_store *st, int *version, struct wl_error *err)
{
	return wl_db_schema_version(st->db, version, err);
}

int wl_store_beside(const char *target, const char *name, char *out, size_t len)
{
	char path[4096];
	int n;

	if (wl_db_sqlite_path(target, path, sizeof(path)) < 0 || !path[0] ||
	    strncmp(path, "file:", 5) == 0 || strcmp(path, ":memory:") == 0)
		return -1;
	n = snprintf(out, len, "%s/%s", dirname(path), name);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int wl_store_open(const char *target, struct wl_store **out, struct wl_error *err)
{
	struct wl_store *st = calloc(1, sizeof(*st));

	if (!st) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_db_open(target, &st->db, err) < 0 || migrate(st, err) < 0) {
		char inner[sizeof(err->msg)];

		if (err) {
			snprintf(inner, sizeof(inner), "%s", err->msg);
			wl_error_set(err, err->kind, "%s (database %s)", inner, wl_db_shown(target));
		}
		wl_store_close(st);
		return -1;
	}
	*out = st;
	return 0;
}

void wl_store_close(struct wl_store *st)
{
	if (!st)
		return;
	wl_db_close(st->db);
	free(st);
}
