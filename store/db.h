/* The store's database connection, SQLite or PostgreSQL, behind one small
 * interface: statements prepared once per connection and kept, parameters
 * bound by number, rows stepped, columns read. The store's SQL is written once,
 * in what both engines share, with ?N parameters (PostgreSQL gets $N) and a
 * few {tokens} for what they spell differently (db.c translates them with
 * each engine's table, db_backend.h). A connection is
 * used by one thread at a time. What a --db value names (its engine, its
 * file) is db_target.h's, which comes with this header. */
#ifndef WL_DB_H
#define WL_DB_H

#include <stddef.h>

#include "db_target.h"
#include "error.h"

/* What wl_db_step returns. */
enum { WL_DB_ERROR = -1, WL_DB_DONE = 0, WL_DB_ROW = 1 };

struct wl_db;
struct wl_db_stmt;

/* Connect to target. Caller closes *out with wl_db_close(); on failure (-1,
 * err says why) nothing is left open. */
int wl_db_open(const char *target, struct wl_db **out, struct wl_error *err);
void wl_db_close(struct wl_db *db);
enum wl_db_kind wl_db_kind(const struct wl_db *db);

/* The statement for sql, prepared on first use and kept (keyed by the address
 * of sql, which must be a string constant), reset and unbound; NULL with err
 * set on failure. */
struct wl_db_stmt *wl_db_stmt(struct wl_db *db, const char *sql, struct wl_error *err);

/* Bind parameter i (1-based). Text and blobs are not copied: they must stay
 * valid until the statement is reset. A NULL text binds NULL. */
void wl_db_bind_int64(struct wl_db_stmt *s, int i, long long v);
void wl_db_bind_double(struct wl_db_stmt *s, int i, double v);
void wl_db_bind_text(struct wl_db_stmt *s, int i, const char *v);
void wl_db_bind_blob(struct wl_db_stmt *s, int i, const void *p, size_t n);
void wl_db_bind_null(struct wl_db_stmt *s, int i);

/* The next row: WL_DB_ROW, WL_DB_DONE, or WL_DB_ERROR (wl_db_fail says why). */
int wl_db_step(struct wl_db_stmt *s);
/* Done with the statement's rows and bindings (it stays prepared). */
void wl_db_reset(struct wl_db_stmt *s);

/* Columns of the current row, 0-based. Text and blobs stay valid until the
 * next step or reset; NULL reads as 0, NULL text or an empty blob. */
int wl_db_col_null(struct wl_db_stmt *s, int col);
long long wl_db_col_int64(struct wl_db_stmt *s, int col);
double wl_db_col_double(struct wl_db_stmt *s, int col);
const char *wl_db_col_text(struct wl_db_stmt *s, int col);
const void *wl_db_col_blob(struct wl_db_stmt *s, int col, size_t *n);

/* Rows the last finished INSERT, UPDATE or DELETE changed. */
long long wl_db_changes(struct wl_db *db);

/* Run sql, one or more statements without parameters or rows; -1 with err
 * set when one fails (the ones before it have run). */
int wl_db_exec(struct wl_db *db, const char *sql, struct wl_error *err);

/* Transactions. A write transaction waits for the others to finish and keeps
 * them waiting until it ends (SQLite's BEGIN IMMEDIATE; on PostgreSQL a
 * transaction-wide lock), so that writers take turns and the change numbers
 * they take become visible in order. A read transaction sees one snapshot.
 * Each returns -1 with err set when it cannot begin, and no transaction is
 * open then. */
int wl_db_begin_write(struct wl_db *db, struct wl_error *err);
int wl_db_begin_read(struct wl_db *db, struct wl_error *err);
/* Commit; on failure the transaction is rolled back. */
int wl_db_commit(struct wl_db *db, struct wl_error *err);
/* Roll back the open transaction, if any. */
void wl_db_rollback(struct wl_db *db);

/* Set err from the connection's last failure, with what was being done. Busy,
 * locked, unreachable or full databases are WL_ERR_UNAVAILABLE. */
void wl_db_fail(struct wl_db *db, struct wl_error *err, const char *doing);

/* The schema version (how many migrations have run), and setting it inside
 * the migration's transaction; -1 with err set when it cannot be read or
 * written (*version unchanged). */
int wl_db_schema_version(struct wl_db *db, int *version, struct wl_error *err);
int wl_db_set_schema_version(struct wl_db *db, int version, struct wl_error *err);

#endif
