/* A counted trace (model/trace_model.h) as the tracer prints it and the
 * store keeps it, the "traced" object of a trace's figures (docs/api.md,
 * "Traced accesses"): {"sites": [per site "line", "op", "space",
 * "requests" and its per-request figures], "efficiency",
 * "sectors_per_request", "conflict_degree", "records", "dropped", "launch":
 * {"dims", "groups", "local"}, "work": what one work-group asks
 * (model/work_json.h)}. */
#ifndef WL_TRACE_JSON_H
#define WL_TRACE_JSON_H

#include <jansson.h>

#include "trace_model.h"

/* NULL only when out of memory. */
json_t *wl_traced_json(const struct wl_trace_figures *tr);

#endif
