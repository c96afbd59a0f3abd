/* What store_claim.c, the runner's claim, shares with the rest of the store:
 * a runner's devices written as the claim's SQL reads them, which choosing a
 * done run to explain (store_explain.c) reads the same way. Nothing outside
 * store/ includes this. */
#ifndef WL_STORE_CLAIM_H
#define WL_STORE_CLAIM_H

#include "error.h"
#include "store.h"

/* devs' ids as ",a,b," (the caller's to free); NULL with err when out of
 * memory. */
char *store_device_list(const struct wl_claim_devices *devs, struct wl_error *err);

#endif
