/* Opening the store (see store.h): the database connection (db.h: a SQLite
 * file or a PostgreSQL server) and the numbered schema migrations
 * (store_schema.c) run in turn up to the latest. It calls down into
 * store_db.c and store_schema.c, which call nothing of it. */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>

#include "store_db.h"
#include "store_schema.h"

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
