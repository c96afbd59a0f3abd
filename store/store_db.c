/* The store's handle over its connection (see store_db.h): the helpers every
 * store_*.c file shares, each a thin word over db.h in the store's terms. */
#include "store_db.h"

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
