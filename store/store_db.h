/* The store's handle and what every store_*.c file does with its database
 * connection (db.h): cached statements, errors in the store's words,
 * transactions, a run's row, JSON columns. The floor of the store's own
 * files: it calls db.c alone, and every store_*.c calls it. Nothing outside
 * store/ includes this; the rest of warplab holds a struct wl_store by
 * pointer (store.h). */
#ifndef WL_STORE_DB_H
#define WL_STORE_DB_H

#include <jansson.h>

#include "db.h"
#include "error.h"

struct wl_store {
	struct wl_db *db;
};

/* The cached statement for sql, reset and unbound; NULL with err set. */
struct wl_db_stmt *store_stmt(struct wl_store *st, const char *sql, struct wl_error *err);

/* Set err from the connection's last error, with what was being done
 * (WL_ERR_UNAVAILABLE with "no connection" where st has none). */
void store_fail(struct wl_store *st, struct wl_error *err, const char *doing);

/* Run the cached statement sql with ?1 = id and, where sql has them, ?2 = a and
 * ?3 = b (NULL binds NULL); it returns no rows. doing names it in errors.
 * 0, or -1 with err set; the statement is reset either way. */
int store_step_id(struct wl_store *st, const char *sql, long long id, const char *a,
		  const char *b, const char *doing, struct wl_error *err);

/* The cached statement sql run with ?1 = id and stepped to its first row;
 * *out is that statement, for the caller to read and reset. -1 with
 * WL_ERR_NOT_FOUND ("run N does not exist") when there is no row, or the
 * store's error naming doing; the statement is reset then. */
int store_run_row(struct wl_store *st, const char *sql, long long id, const char *doing,
		  struct wl_db_stmt **out, struct wl_error *err);

/* A write transaction (writers take turns), a read one (one snapshot), and
 * their end. Each 0, or -1 with err set and no transaction open (a commit
 * that fails has rolled back). */
/* Inside a write transaction: give back the points of shared run run_id
 * that device_id took and did not finish, dropping what it wrote of them
 * and counting the run's progress again (store_shared.c). */
int store_give_points_back(struct wl_store *st, long long run_id, const char *device_id, struct wl_error *err);

int store_begin(struct wl_store *st, struct wl_error *err);
int store_begin_read(struct wl_store *st, struct wl_error *err);
int store_commit(struct wl_store *st, struct wl_error *err);
void store_rollback(struct wl_store *st);

/* Column helpers: text as a new JSON string or null; parse a JSON text column
 * (null where it is NULL or not JSON). The caller owns the reference. */
json_t *store_col_text(struct wl_db_stmt *s, int col);
json_t *store_col_json(struct wl_db_stmt *s, int col);

#endif
