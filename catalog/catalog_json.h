/* An experiment as GET /api/experiments shows it: what a client needs to
 * build a request form and to read a run, without the parsed formulas.
 * catalog.c's wl_catalog_to_json lists them. */
#ifndef WL_CATALOG_JSON_H
#define WL_CATALOG_JSON_H

#include <jansson.h>

#include "catalog_experiment.h"

/* e as the API shows it: {"id", "title", "lesson", "summary", "seed",
 * "variants", "params", "metric", "fp64"} and, where it has them, "drops",
 * "after", "reference" and "baseline". Caller owns the reference; NULL when
 * out of memory. */
json_t *wl_experiment_to_json(const struct wl_experiment *e);

#endif
