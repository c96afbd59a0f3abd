/* Figures the server derives from a run's stored results, so that every client
 * (the dashboard, scripts) reads the same numbers: the slowdown of each result
 * against its experiment's baseline point (banks: c = 1). */
#ifndef WL_DERIVED_H
#define WL_DERIVED_H

#include <jansson.h>

#include "catalog.h"

/* Add "slowdown" (median_ms over the baseline's median_ms; null where the run
 * has no such baseline) to every result of run, when exp declares a baseline.
 * Results are matched on variant and every other parameter. */
int wl_run_add_slowdown(const struct wl_experiment *exp, json_t *run);

#endif
