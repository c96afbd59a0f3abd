/* A run's traced accesses (see store.h, wl_store_put_trace): one row per
 * variant and point, read back with the run. */
#include "store_traces.h"

#include "store.h"
#include "store_db.h"

static const char SQL_PUT_TRACE[] =
	"INSERT INTO traces (run_id, variant, params, figures) VALUES (?1, ?2, ?3, ?4)"
	" ON CONFLICT (run_id, variant, params) DO UPDATE SET figures = excluded.figures";
static const char SQL_GET_TRACES[] =
	"SELECT variant, params, figures FROM traces WHERE run_id = ?1 ORDER BY variant, params";

int wl_store_put_trace(struct wl_store *st, long long run_id, const char *variant,
		       const char *params_json, const char *figures_json, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_PUT_TRACE, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, variant);
	wl_db_bind_text(s, 3, params_json);
	wl_db_bind_text(s, 4, figures_json);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc == WL_DB_ERROR) {
		store_fail(st, err, "record a trace");
		return -1;
	}
	return 0;
}

int store_read_traces(struct wl_store *st, long long run_id, json_t *out, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_GET_TRACES, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	while ((rc = wl_db_step(s)) == WL_DB_ROW)
		json_array_append_new(out, json_pack("{s:o, s:o, s:o}", "variant", store_col_text(s, 0),
						     "params", store_col_json(s, 1), "figures",
						     store_col_json(s, 2)));
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "read traces");
		return -1;
	}
	return 0;
}
