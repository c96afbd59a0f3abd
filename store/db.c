/* The engine-neutral half of db.h: the statement cache, the dialect
 * translation, transactions, and the calls that hand each operation to the
 * engine's table (db_backend.h). Which engine a --db value names is
 * db_target.c's, which the engines ask too. */
#include "db_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_STMT_CACHE 64

struct wl_db {
	const struct wl_db_ops *ops;
	void *conn;
	/* Statements keyed by the address of their SQL text (a string constant),
	 * prepared once per connection. */
	struct {
		const char *sql;
		struct wl_db_stmt *stmt;
	} cache[DB_STMT_CACHE];
};

int wl_db_open(const char *target, struct wl_db **out, struct wl_error *err)
{
	struct wl_db *db = calloc(1, sizeof(*db));

	if (!db) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	db->ops = wl_db_kind_of(target) == WL_DB_POSTGRES ? &wl_db_postgres_ops : &wl_db_sqlite_ops;
	if (db->ops->open(target, &db->conn, err) < 0) {
		free(db);
		return -1;
	}
	*out = db;
	return 0;
}

void wl_db_close(struct wl_db *db)
{
	if (!db)
		return;
	for (int i = 0; i < DB_STMT_CACHE; i++)
		if (db->cache[i].stmt)
			db->ops->finalize(db->cache[i].stmt);
	db->ops->close(db->conn);
	free(db);
}

enum wl_db_kind wl_db_kind(const struct wl_db *db)
{
	return db->ops->kind;
}

/* The dialect entry for the token name[0..n), or NULL. */
static const char *dialect_entry(const char *const (*dialect)[2], const char *name, size_t n)
{
	for (size_t i = 0; dialect[i][0]; i++)
		if (strlen(dialect[i][0]) == n && memcmp(dialect[i][0], name, n) == 0)
			return dialect[i][1];
	return NULL;
}

/* The store's SQL in an engine's dialect: {tokens} replaced and, when
 * dollar_params, ?N written $N. Caller frees; NULL when out of memory or for
 * an unknown token (a bug: *bad names it). */
static char *translate(const char *sql, const char *const (*dialect)[2], int dollar_params,
		       const char **bad)
{
	size_t cap = strlen(sql) * 2 + 256, len = 0;
	char *out = malloc(cap);
	int quoted = 0;

	*bad = NULL;
	if (!out)
		return NULL;
	for (const char *p = sql; *p;) {
		const char *text = NULL, *arg = NULL;
		size_t take = 1, arglen = 0;

		if (*p == '\'')
			quoted = !quoted;
		if (!quoted && *p == '{') {
			const char *end = strchr(p, '}'), *colon = memchr(p, ':', end ? (size_t)(end - p) : 0);

			text = end ? dialect_entry(dialect, p + 1, (size_t)((colon ? colon : end) - p - 1)) : NULL;
			if (!text) {
				*bad = p;
				free(out);
				return NULL;
			}
			if (colon) {
				arg = colon + 1;
				arglen = (size_t)(end - arg);
			}
			take = (size_t)(end - p) + 1;
		}
		/* Room for this piece: the text with each $ replaced by the argument. */
		if (len + (text ? strlen(text) * (arglen + 1) : 0) + 32 >= cap) {
			char *grown;

			cap = cap * 2 + (text ? strlen(text) * (arglen + 1) : 0);
			grown = realloc(out, cap);
			if (!grown) {
				free(out);
				return NULL;
			}
			out = grown;
		}
		if (text) {
			for (const char *t = text; *t; t++) {
				if (*t == '$' && arg) {
					memcpy(out + len, arg, arglen);
					len += arglen;
				} else {
					out[len++] = *t;
				}
			}
		} else {
			out[len++] = *p;
		}
		p += take;
	}
	out[len] = '\0';
	/* Then ?N becomes $N, in the tokens' texts too. */
	quoted = 0;
	for (char *q = out; dollar_params && *q; q++) {
		if (*q == '\'')
			quoted = !quoted;
		else if (!quoted && *q == '?')
			*q = '$';
	}
	return out;
}

struct wl_db_stmt *wl_db_stmt(struct wl_db *db, const char *sql, struct wl_error *err)
{
	int free_slot = -1;
	struct wl_db_stmt *s;
	const char *bad;
	char *text;

	for (int i = 0; i < DB_STMT_CACHE; i++) {
		if (db->cache[i].sql == sql) {
			if (db->ops->stmt_valid(db->conn, db->cache[i].stmt)) {
				db->ops->reset(db->cache[i].stmt);
				return db->cache[i].stmt;
			}
			/* Prepared on a connection since lost: prepare again. */
			db->ops->finalize(db->cache[i].stmt);
			db->cache[i].sql = NULL;
			db->cache[i].stmt = NULL;
		}
		if (!db->cache[i].sql && free_slot < 0)
			free_slot = i;
	}
	text = translate(sql, db->ops->dialect, db->ops->kind == WL_DB_POSTGRES, &bad);
	if (!text) {
		if (bad)
			wl_error_set(err, WL_ERR_INTERNAL, "store: unknown SQL token at %.40s", bad);
		else
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	s = db->ops->prepare(db->conn, text, err);
	free(text);
	if (!s)
		return NULL;
	if (free_slot < 0) {
		/* Full: a cache miss is only slower, so evict the first entry. */
		db->ops->finalize(db->cache[0].stmt);
		free_slot = 0;
	}
	db->cache[free_slot].sql = sql;
	db->cache[free_slot].stmt = s;
	return s;
}

void wl_db_bind_int64(struct wl_db_stmt *s, int i, long long v)
{
	s->ops->bind_int64(s, i, v);
}

void wl_db_bind_double(struct wl_db_stmt *s, int i, double v)
{
	s->ops->bind_double(s, i, v);
}

void wl_db_bind_text(struct wl_db_stmt *s, int i, const char *v)
{
	s->ops->bind_text(s, i, v);
}

void wl_db_bind_blob(struct wl_db_stmt *s, int i, const void *p, size_t n)
{
	s->ops->bind_blob(s, i, p, n);
}

void wl_db_bind_null(struct wl_db_stmt *s, int i)
{
	s->ops->bind_text(s, i, NULL);
}

int wl_db_step(struct wl_db_stmt *s)
{
	return s->ops->step(s);
}

void wl_db_reset(struct wl_db_stmt *s)
{
	s->ops->reset(s);
}

int wl_db_col_null(struct wl_db_stmt *s, int col)
{
	return s->ops->col_null(s, col);
}

long long wl_db_col_int64(struct wl_db_stmt *s, int col)
{
	return s->ops->col_int64(s, col);
}

double wl_db_col_double(struct wl_db_stmt *s, int col)
{
	return s->ops->col_double(s, col);
}

const char *wl_db_col_text(struct wl_db_stmt *s, int col)
{
	return s->ops->col_text(s, col);
}

const void *wl_db_col_blob(struct wl_db_stmt *s, int col, size_t *n)
{
	return s->ops->col_blob(s, col, n);
}

long long wl_db_changes(struct wl_db *db)
{
	return db->ops->changes(db->conn);
}

int wl_db_exec(struct wl_db *db, const char *sql, struct wl_error *err)
{
	return db->ops->exec(db->conn, sql, err);
}

int wl_db_begin_write(struct wl_db *db, struct wl_error *err)
{
	return db->ops->exec(db->conn, db->ops->begin_write, err);
}

int wl_db_begin_read(struct wl_db *db, struct wl_error *err)
{
	return db->ops->exec(db->conn, db->ops->begin_read, err);
}

int wl_db_commit(struct wl_db *db, struct wl_error *err)
{
	if (db->ops->exec(db->conn, "COMMIT", err) < 0) {
		wl_db_rollback(db);
		return -1;
	}
	return 0;
}

void wl_db_rollback(struct wl_db *db)
{
	if (db->ops->in_transaction(db->conn))
		db->ops->exec(db->conn, "ROLLBACK", NULL);
}

void wl_db_fail(struct wl_db *db, struct wl_error *err, const char *doing)
{
	db->ops->fail(db->conn, err, doing);
}

int wl_db_schema_version(struct wl_db *db, int *version, struct wl_error *err)
{
	return db->ops->schema_version(db->conn, version, err);
}

int wl_db_set_schema_version(struct wl_db *db, int version, struct wl_error *err)
{
	return db->ops->set_schema_version(db->conn, version, err);
}
