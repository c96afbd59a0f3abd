/* Preparing and releasing the server's shared state. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "body_cache.h"
#include "events.h"
#include "request.h"
#include "server.h"

int wl_server_init(struct wl_server *srv, const struct wl_server_config *cfg,
		   struct wl_error *err)
{
	json_t *catalog_json;

	memset(srv, 0, sizeof(*srv));
	srv->cfg = cfg;
	srv->www.dir_fd = -1;
	wl_http_counters_init(&srv->counters);
	pthread_mutex_init(&srv->write_lock, NULL);
	if (wl_catalog_load(cfg->catalog, &srv->catalog, err) < 0)
		goto fail;
	if (cfg->max_measurements > 0)
		srv->catalog->max_measurements = cfg->max_measurements;
	catalog_json = wl_catalog_to_json(srv->catalog);
	if (catalog_json && wl_family_sources_load(srv, catalog_json, err) < 0) {
		json_decref(catalog_json);
		goto fail;
	}
	if (catalog_json) {
		json_t *exps = json_object_get(catalog_json, "experiments");

		json_object_set_new(catalog_json, "custom_kernels", json_boolean(!cfg->no_custom_kernels));
		json_object_set_new(catalog_json, "defaults", wl_request_defaults_json());
		for (size_t i = 0; i < srv->catalog->nexperiments; i++)
			json_object_set_new(json_array_get(exps, i), "cache",
					    json_string(wl_request_default_cache(&srv->catalog->experiments[i])));
	}
	srv->catalog_json = catalog_json ? json_dumps(catalog_json, JSON_COMPACT) : NULL;
	json_decref(catalog_json);
	if (!srv->catalog_json) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot render the catalog");
		goto fail;
	}
	srv->www.dir_fd = open(cfg->www, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (srv->www.dir_fd < 0) {
		wl_error_set(err, WL_ERR_CONFIG, "www directory %s cannot be opened", cfg->www);
		goto fail;
	}
	if (cfg->token_file && *cfg->token_file &&
	    wl_tokens_load(cfg->token_file, &srv->tokens, err) < 0)
		goto fail;
	if (wl_store_pool_new(cfg->db, &srv->pool, err) < 0)
		goto fail;
	srv->bodies = wl_body_cache_new((size_t)cfg->response_cache_mb << 20);
	if (!srv->bodies) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	srv->www.bodies = srv->bodies;
	if (wl_events_start(cfg->db, srv->catalog,
			    (cfg->stream_heartbeat > 0 ? cfg->stream_heartbeat : 15) * 1000L,
			    &srv->events, err) < 0)
		goto fail;
	return 0;
fail:
	wl_server_free(srv);
	return -1;
}

void wl_server_free(struct wl_server *srv)
{
	wl_events_stop(srv->events);
	wl_store_pool_free(srv->pool);
	wl_body_cache_free(srv->bodies);
	wl_tokens_free(&srv->tokens);
	if (srv->www.dir_fd >= 0)
		close(srv->www.dir_fd);
	free(srv->catalog_json);
	/* Predictions still being made read the catalog. */
	wl_predictions_stop();
	if (srv->catalog)
		wl_family_sources_free(srv);
	wl_catalog_free(srv->catalog);
	wl_http_counters_free(&srv->counters);
	pthread_mutex_destroy(&srv->write_lock);
	memset(srv, 0, sizeof(*srv));
	srv->www.dir_fd = -1;
}
