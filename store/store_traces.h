/* What store_traces.c shares with the rest of the store: reading a run's
 * traces back, for the run as store_read.c shows it. Nothing outside store/
 * includes this. */
#ifndef WL_STORE_TRACES_H
#define WL_STORE_TRACES_H

#include <jansson.h>

#include "error.h"

struct wl_store;

/* Append run_id's traces ({"variant", "params", "figures"}) to out: 0, or -1
 * with err set (what was appended before the failure stays in out). */
int store_read_traces(struct wl_store *st, long long run_id, json_t *out, struct wl_error *err);

#endif
