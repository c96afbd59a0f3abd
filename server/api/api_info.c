/* The read-only endpoints about the service itself: the catalog, the
 * devices and health (Prometheus metrics: api_metrics.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "store.h"

#ifndef WL_VERSION
#define WL_VERSION "0.0.0"
#endif

void wl_api_experiments(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			struct wl_response *resp)
{
	(void)req;
	(void)at;
	wl_response_text(resp, 200, "application/json; charset=utf-8", srv->catalog_json,
			 strlen(srv->catalog_json));
}

void wl_api_devices(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		    struct wl_response *resp)
{
	struct wl_store *st = NULL;
	struct wl_error err;
	json_t *devices;

	(void)req;
	(void)at;
	if (wl_store_pool_get(srv->pool, &st, &err) < 0) {
		wl_response_from_error(resp, &err);
		return;
	}
	if (wl_store_list_devices(st, srv->cfg->heartbeat, &devices, &err) < 0)
		wl_response_from_error(resp, &err);
	else
		wl_response_json(resp, 200, json_pack("{s:o}", "devices", devices));
	wl_store_pool_put(srv->pool, st);
}

void wl_api_health(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		   struct wl_response *resp)
{
	struct wl_store *st = NULL;
	struct wl_error err;
	json_t *runners = NULL, *counts = NULL;

	(void)req;
	(void)at;
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 ||
	    wl_store_list_runners(st, srv->cfg->heartbeat, &runners, &err) < 0 ||
	    wl_store_count_runs(st, &counts, &err) < 0) {
		json_decref(runners);
		wl_response_json(resp, 503,
				 json_pack("{s:s, s:s, s:s}", "status", "unavailable", "db", err.msg,
					   "version", WL_VERSION));
	} else {
		size_t online = 0, i;
		json_t *r;

		json_array_foreach(runners, i, r)
			online += json_is_true(json_object_get(r, "online"));
		wl_response_json(resp, 200,
				 json_pack("{s:s, s:s, s:s, s:o, s:I, s:O, s:O, s:I}", "status", "ok",
					   "db", "ok", "version", WL_VERSION, "runners", runners,
					   "runners_online", (json_int_t)online, "queued",
					   json_object_get(counts, "queued"), "runs", counts,
					   "heartbeat_window_s", (json_int_t)srv->cfg->heartbeat));
		json_decref(counts);
	}
	wl_store_pool_put(srv->pool, st);
}
