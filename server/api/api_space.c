/* GET /api/runs/{id}/space.csv: a tuning run's whole space — every
 * configuration its params and restrictions allow at each size — as the
 * model ranks it on the run's device today, beside what the run measured of
 * it (analysis.h, wl_tuning_space_csv): the configurations a model or
 * random search left unmeasured with their predictions. Not kept in the
 * body cache: the ranking reads the device's facts as they are now. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis.h"
#include "api.h"
#include "store.h"

void wl_api_run_space_csv(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			  struct wl_response *resp)
{
	struct wl_store *st = NULL;
	struct wl_error err;
	struct wl_run run = { 0 };
	json_t *ranked = NULL;
	char *body = NULL;
	size_t len = 0;
	int loaded = 0;

	(void)req;
	wl_error_clear(&err);
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 || wl_run_load(srv->catalog, st, at->id, &run, &err) < 0) {
		wl_response_from_error(resp, &err);
		goto out;
	}
	loaded = 1;
	if (!json_object_get(json_object_get(run.json, "request"), "tune")) {
		wl_response_error(resp, 404, "not_found", NULL,
				  "run %lld is not a tuning run: it has no space (its results are at /api/runs/%lld/results.csv)",
				  at->id, at->id);
		goto out;
	}
	if (wl_tuning_rank_every(srv->catalog, json_object_get(run.json, "request"), json_object_get(run.json, "device"),
				 &ranked, &err) < 0) {
		wl_response_from_error(resp, &err);
		goto out;
	}
	if (wl_tuning_space_csv(&run, ranked, &body, &len) < 0) {
		wl_response_error(resp, 500, "internal", NULL, "cannot build the space's CSV");
		goto out;
	}
	wl_response_text(resp, 200, "text/csv; charset=utf-8", body, len);
	snprintf(resp->disposition, sizeof(resp->disposition), "attachment; filename=\"warplab-run-%lld-space.csv\"",
		 at->id);
out:
	free(body);
	json_decref(ranked);
	if (loaded)
		wl_run_free(&run);
	if (st)
		wl_store_pool_put(srv->pool, st);
}
