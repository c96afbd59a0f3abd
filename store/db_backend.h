/* What db.c asks of an engine: the operations behind db.h, one table per
 * engine (db_sqlite.c, db_postgres.c), and the SQL each spells its own way.
 * Nothing outside db*.c includes this. */
#ifndef WL_DB_BACKEND_H
#define WL_DB_BACKEND_H

#include "db.h"

/* Every engine's statement begins with this, so db.c finds its operations. */
struct wl_db_stmt {
	const struct wl_db_ops *ops;
};

struct wl_db_ops {
	enum wl_db_kind kind;
	/* Connect; *conn is the engine's connection. */
	int (*open)(const char *target, void **conn, struct wl_error *err);
	void (*close)(void *conn);
	/* Prepare sql, already in the engine's dialect; NULL with err set. */
	struct wl_db_stmt *(*prepare)(void *conn, const char *sql, struct wl_error *err);
	void (*finalize)(struct wl_db_stmt *s);
	/* Whether a statement prepared earlier is still usable (a PostgreSQL
	 * connection that was lost and made again has none). */
	int (*stmt_valid)(void *conn, struct wl_db_stmt *s);
	void (*bind_int64)(struct wl_db_stmt *s, int i, long long v);
	void (*bind_double)(struct wl_db_stmt *s, int i, double v);
	void (*bind_text)(struct wl_db_stmt *s, int i, const char *v);
	void (*bind_blob)(struct wl_db_stmt *s, int i, const void *p, size_t n);
	int (*step)(struct wl_db_stmt *s);
	void (*reset)(struct wl_db_stmt *s);
	int (*col_null)(struct wl_db_stmt *s, int col);
	const char *(*col_text)(struct wl_db_stmt *s, int col);
	long long (*col_int64)(struct wl_db_stmt *s, int col);
	double (*col_double)(struct wl_db_stmt *s, int col);
	const void *(*col_blob)(struct wl_db_stmt *s, int col, size_t *n);
	long long (*changes)(void *conn);
	int (*exec)(void *conn, const char *sql, struct wl_error *err);
	int (*in_transaction)(void *conn);
	void (*fail)(void *conn, struct wl_error *err, const char *doing);
	int (*schema_version)(void *conn, int *version, struct wl_error *err);
	int (*set_schema_version)(void *conn, int version, struct wl_error *err);
	/* What begins a write transaction (see wl_db_begin_write), and a read
	 * one that sees one snapshot throughout. */
	const char *begin_write, *begin_read;
	/* The dialect: {token} or {token:ARG} in the store's SQL becomes the
	 * entry's text, with each $ replaced by ARG. NULL-terminated pairs. */
	const char *const (*dialect)[2];
};

extern const struct wl_db_ops wl_db_sqlite_ops;
extern const struct wl_db_ops wl_db_postgres_ops;

#endif
