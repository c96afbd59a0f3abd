/* The prediction beside each measurement: what the warp model (warp_model.h)
 * makes of the variant's declared accesses at the result's point, on the run's
 * device (its warp width where known, its copy ceiling, its measured facts),
 * and how far the measurement departs from it, with the cause the model sees
 * (ceiling_view.h). */
#ifndef WL_PREDICTIONS_H
#define WL_PREDICTIONS_H

#include <jansson.h>

#include "catalog.h"

/* Add "prediction" to every result of run (after wl_run_add_ceiling and
 * wl_run_add_slowdown), from the server's memo (prediction_memo.h): null
 * where the variant (or custom kernel) declares no accesses, {"error": ...}
 * where the model cannot be evaluated at the point (or not within its time),
 * {"pending": true} while the memo is still computing it (the run then has
 * "predictions_pending": true),
 * else {"lanes", "efficiency", "sectors_per_request", "conflict_degree",
 * "pct", "ms", "gbps" or "gops", "slowdown", "ratio", "departure", "sampled",
 * "accesses": [...]} as docs/api.md describes. -1 only when out of memory. */
int wl_run_add_predictions(const struct wl_experiment *exp, json_t *run);

/* The run's trace ({"variant", "params", "figures"}) of result r's variant,
 * or NULL where the run has none. Borrowed from run. */
const json_t *wl_run_trace_of(const json_t *run, const json_t *r);

#endif
