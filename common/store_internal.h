/* What the store_*.c files share and nothing else may use: the handle, the
 * prepared-statement cache, and helpers that turn SQLite failures into
 * struct wl_error. */
#ifndef WL_STORE_INTERNAL_H
#define WL_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store.h"

#define STORE_STMT_CACHE 48

struct wl_store {
	sqlite3 *db;
	char *path;		/* as opened: where commits are announced (wakeup.h) */
	int runs_changed;	/* the open transaction changed a run */
	/* Statements keyed by the address of their SQL text (a string constant),
	 * prepared once per connection. */
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cache[STORE_STMT_CACHE];
};

/* The cached statement for sql, reset and unbound; NULL with err set on failure. */
sqlite3_stmt *store_stmt(struct wl_store *st, const char *sql, struct wl_error *err);

/* Set err from the connection's last error, with what was being done. */
void store_fail(struct wl_store *st, struct wl_error *err, const char *doing);

/* Run sql (no results) or fail with err. */
int store_exec(struct wl_store *st, const char *sql, struct wl_error *err);

/* Run the cached statement sql with ?1 = id and, where sql has them, ?2 = a and
 * ?3 = b (NULL binds NULL); it returns no rows. doing names it in errors. */
int store_step_id(struct wl_store *st, const char *sql, long long id, const char *a,
		  const char *b, const char *doing, struct wl_error *err);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. */
int store_begin(struct wl_store *st, struct wl_error *err);
int store_commit(struct wl_store *st, struct wl_error *err);
void store_rollback(struct wl_store *st);

/* Column helpers: text as a new JSON string or null; parse a JSON text column. */
json_t *store_col_text(sqlite3_stmt *s, int col);
json_t *store_col_json(sqlite3_stmt *s, int col);

/* The current time as SQL text, RFC 3339 UTC with milliseconds. */
#define STORE_NOW "strftime('%Y-%m-%dT%H:%M:%fZ','now')"

#endif
