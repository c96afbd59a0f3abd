/* A run's results as CSV (RFC 4180): one row per measurement, one column per
 * parameter of the experiment, the header the API documents. */
#ifndef WL_CSV_H
#define WL_CSV_H

#include <jansson.h>
#include <stddef.h>

#include "catalog.h"

/* Write run (as GET /api/runs/{id} returns it) as CSV into a new buffer *out of
 * *len bytes (caller frees). exp gives the param columns; when NULL (the
 * experiment left the catalog) the columns come from the first result. */
int wl_results_csv(const struct wl_experiment *exp, const json_t *run, char **out, size_t *len);

#endif
