/* What POST /api/runs checks before it queues a run, shared with POST
 * /api/runs/estimate (which queues nothing): custom kernels and
 * experiments of one's own allowed, the language run by some device, the
 * request valid against the catalog, the device it names registered, and
 * the point's buffers within that device's limits. */
#ifndef WL_RUN_CHECK_H
#define WL_RUN_CHECK_H

#include <jansson.h>

#include "api.h"
#include "store.h"

/* A request's JSON body, or NULL with resp set: 415 where it is not sent as
 * JSON, 400 naming the line and column where it does not parse. */
json_t *wl_run_body(const struct wl_request *req, struct wl_response *resp);

/* Check body; on success *normalized is the request with its defaults,
 * *measurements its variants times points and *device the registered device
 * the request resolves to (a copy, NULL where none is registered yet); the
 * caller frees both. -1 with err saying why (the field, the value and what
 * is allowed), *normalized and *device then NULL. */
int wl_run_check(struct wl_server *srv, struct wl_store *st, const json_t *body, json_t **normalized,
		 long long *measurements, json_t **device, struct wl_error *err);

/* Why a request would wait unseen once queued: no online device can run
 * it. request is normalized (wl_run_check's), device the one it resolves
 * to (NULL where none is registered). A JSON string saying why and that it
 * waits, or NULL where an online device can run it. */
json_t *wl_run_waiting(const json_t *request, const json_t *device);

/* The same for a queued run's request, from the devices as st has them
 * now; NULL too where they cannot be read (the run says nothing rather than
 * something wrong). */
json_t *wl_run_waiting_now(struct wl_server *srv, struct wl_store *st, const json_t *request);

#endif
