/* A pool of store handles for the server's worker threads: a handle serves one
 * thread at a time, and opening one per request would parse the schema each
 * time. Handles are opened on demand and kept up to a bound. */
#ifndef WL_STORE_POOL_H
#define WL_STORE_POOL_H

#include "store.h"

struct wl_store_pool;

/* A pool over the database at path. Opens one handle at once so that a bad
 * path fails at start. Caller frees with wl_store_pool_free(). */
int wl_store_pool_new(const char *path, struct wl_store_pool **out, struct wl_error *err);
void wl_store_pool_free(struct wl_store_pool *pool);

/* Take a handle (opening one if none is idle); give it back with
 * wl_store_pool_put(). Fails with WL_ERR_UNAVAILABLE. */
int wl_store_pool_get(struct wl_store_pool *pool, struct wl_store **out, struct wl_error *err);
void wl_store_pool_put(struct wl_store_pool *pool, struct wl_store *st);

#endif
