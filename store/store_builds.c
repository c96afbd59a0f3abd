/* The compiler's account of the programs a run built (see store.h,
 * wl_store_put_build): the texts once per (device, driver, source, options),
 * and per variant of the run which of them it used and the kernel's own
 * figures. */
#include "store.h"

#include "store_db.h"

static const char SQL_PUT_BUILD[] =
	"INSERT INTO builds (device, driver, source_hash, options, log, ptx) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
	" ON CONFLICT DO NOTHING";
static const char SQL_PUT_RUN_BUILD[] =
	"INSERT INTO run_builds (run_id, variant, options, device, driver, source_hash, kernel)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
	" ON CONFLICT (run_id, variant, options) DO UPDATE SET device = excluded.device,"
	" driver = excluded.driver, source_hash = excluded.source_hash, kernel = excluded.kernel";
#define GET_BUILDS(ptx)                                                                     \
	"SELECT r.variant, r.options, r.source_hash, r.kernel, b.log, " ptx " FROM run_builds r" \
	" LEFT JOIN builds b ON b.device = r.device AND b.driver = r.driver"                    \
	" AND b.source_hash = r.source_hash AND b.options = r.options"                          \
	" WHERE r.run_id = ?1 ORDER BY r.variant, r.options"
static const char SQL_GET_BUILDS[] = GET_BUILDS("b.ptx");
/* Without the PTX, which can be long, for those who read the figures only. */
static const char SQL_GET_BUILDS_NO_PTX[] = GET_BUILDS("NULL");

static int put_build(struct wl_store *st, const struct wl_build_row *b, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_PUT_BUILD, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_text(s, 1, b->device);
	wl_db_bind_text(s, 2, b->driver);
	wl_db_bind_text(s, 3, b->source_hash);
	wl_db_bind_text(s, 4, b->options);
	wl_db_bind_text(s, 5, b->log);
	if (b->ptx)
		wl_db_bind_text(s, 6, b->ptx);
	else
		wl_db_bind_null(s, 6);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "record a build");
		return -1;
	}
	return 0;
}

static int put_run_build(struct wl_store *st, long long run_id, const struct wl_build_row *b,
			 struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_PUT_RUN_BUILD, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, b->variant);
	wl_db_bind_text(s, 3, b->options);
	wl_db_bind_text(s, 4, b->device);
	wl_db_bind_text(s, 5, b->driver);
	wl_db_bind_text(s, 6, b->source_hash);
	wl_db_bind_text(s, 7, b->kernel_json);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "record a variant's build");
		return -1;
	}
	return 0;
}

int wl_store_put_build(struct wl_store *st, long long run_id, const struct wl_build_row *b,
		       struct wl_error *err)
{
	if (store_begin(st, err) < 0)
		return -1;
	if (put_build(st, b, err) < 0 || put_run_build(st, run_id, b, err) < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err);
}

int wl_store_get_builds(struct wl_store *st, long long run_id, int with_ptx, json_t **out, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, with_ptx ? SQL_GET_BUILDS : SQL_GET_BUILDS_NO_PTX, err);
	json_t *list = json_array();
	int rc;

	*out = NULL;
	if (!s || !list) {
		json_decref(list);
		if (s)
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	wl_db_bind_int64(s, 1, run_id);
	while ((rc = wl_db_step(s)) == WL_DB_ROW)
		json_array_append_new(list, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "variant",
						      store_col_text(s, 0), "options", store_col_text(s, 1),
						      "source_hash", store_col_text(s, 2), "kernel",
						      store_col_json(s, 3), "log", store_col_text(s, 4), "ptx",
						      store_col_text(s, 5)));
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		json_decref(list);
		store_fail(st, err, "read a run's builds");
		return -1;
	}
	*out = list;
	return 0;
}
