/* GET /api/runs/{id}/compiler: what the device's compiler made of each
 * variant of a run, as the runner recorded it when it built them (store.h,
 * wl_store_get_builds), read by analysis/ (analysis.h, wl_compiler_view)
 * against the catalog's architecture limits (kernels/gpu_limits.json). */
#include "analysis.h"
#include "api.h"
#include "store.h"

void wl_api_run_compiler(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			 struct wl_response *resp)
{
	struct wl_store *st = NULL;
	struct wl_error err;
	struct wl_run run = { 0 };
	json_t *stored = NULL, *rows = NULL, *body;

	(void)req;
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 || wl_store_get_run(st, at->id, 0, &stored, &err) < 0 ||
	    wl_store_get_builds(st, at->id, 1, &rows, &err) < 0 || wl_run_read(srv->catalog, stored, &run, &err) < 0) {
		wl_response_from_error(resp, &err);
		goto out;
	}
	body = wl_compiler_view(&run, rows, srv->catalog->gpu_limits);
	if (body)
		wl_response_json(resp, 200, body);
	else
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
out:
	wl_run_free(&run);
	json_decref(rows);
	json_decref(stored);
	if (st)
		wl_store_pool_put(srv->pool, st);
}
