/* A run's variants traced after its points are measured: each at the run's
 * point of least device memory, in the Oclgrind simulator (trace.c), under
 * the trace budget, the figures (or why there are none) stored with the run
 * (wl_store_put_trace). */
#ifndef WL_RUN_TRACES_H
#define WL_RUN_TRACES_H

#include "executor.h"
#include "run_plan.h"

/* Trace and store every variant of plan for run_id. A variant that cannot be
 * traced has its reason stored instead; -1 only when the store fails or
 * memory runs out (err set), and the traces before stay stored. */
int wl_run_trace(struct wl_executor *ex, long long run_id, const struct wl_run_plan *p,
		 struct wl_error *err);

#endif
