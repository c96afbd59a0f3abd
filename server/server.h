/* The top of warplab-server: its shared state made and released
 * (server.c), and the one entry point for a request (routes.c), which finds
 * the route that answers it in the route table and calls its handler
 * (server/api/). It never touches the network, so the daemon, the tests and
 * the fuzzers all call the same code. The top may include server/http/,
 * server/api/ and every room below them. */
#ifndef WL_SERVER_H
#define WL_SERVER_H

#include "api.h"

/* Prepare srv from cfg (which must outlive it): catalog, store pool, tokens,
 * www directory, the live streams' watcher. On failure returns -1 with a
 * message for the operator, and srv holds nothing. Free with
 * wl_server_free(). */
int wl_server_init(struct wl_server *srv, const struct wl_server_config *cfg,
		   struct wl_error *err);
void wl_server_free(struct wl_server *srv);

/* Route req and fill resp (initialised by the caller with wl_response_init). */
void wl_server_handle(struct wl_server *srv, const struct wl_request *req,
		      struct wl_response *resp);

#endif
