/* What the store tests share: a fresh store for the engine under test, a
 * queued run and a runner in it. */
#ifndef WL_STORE_CHECK_H
#define WL_STORE_CHECK_H

#include "store.h"

/* A fresh, empty store named name (check_store_target), opened; NULL with a
 * failed CHECK. Caller closes it. */
struct wl_store *check_fresh_store(const char *name);

/* Queue a run of experiment (on device_id, or any), returning its id; 0
 * with a failed CHECK. */
long long check_queue_run(struct wl_store *st, const char *experiment, const char *device_id);

/* Register a runner (pid) with one device of type in st, returning its
 * id; 0 with a failed CHECK. */
long long check_add_runner(struct wl_store *st, long long pid, const char *device, const char *type);

#endif
