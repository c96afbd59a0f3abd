/* A run's variants traced once its points are measured and the run is done
 * (in the runner's idle time, explain.c), in the Oclgrind simulator
 * (trace.c), under the trace budget, several tracers at once, the figures
 * (or why there are none) stored with the run (wl_store_put_trace) and kept
 * for the lab by what decides them (wl_store_keep_trace):
 * a variant that declares its accesses at the run's point of least device
 * memory (the trace checks the declaration), one that does not at each of
 * its points (its prediction is the trace's). */
#ifndef WL_RUN_TRACES_H
#define WL_RUN_TRACES_H

#include "run_plan.h"
#include "store.h"

#define WL_TRACED_POINTS 32	/* points an undeclared kernel is traced at, the least first */
#define WL_TRACE_JOBS 512	/* traces one run takes at most */
/* What the plugin samples and records, and how: a kept trace of another
 * format is taken again (the runner's version alone would keep one made by
 * an older plugin of the same release). */
#define WL_TRACE_FORMAT 2

/* Where the tracer reads its kernels and the budget of each trace; yield
 * (or NULL) is asked between batches of tracers whether to stop and leave
 * the rest for later (a run is waiting). A trace is kept in the lab's store
 * by a hash of what decides it: the family's source, the kernel's code, the
 * point, the warp width, the runner's version and WL_TRACE_FORMAT. */
struct wl_trace_setup {
	const char *kernels_dir;
	long seconds, memory;
	int (*yield)(void *ctx);
	void *yield_ctx;
};

/* The most seconds tracing plan's variants may take, for the supervisor's
 * deadline. */
long long wl_run_trace_seconds(const struct wl_trace_setup *setup, const struct wl_run_plan *p);

/* Trace plan's variants for run_id and store each trace in st (run_id 0:
 * only keep them for the lab, for a run to come). A trace
 * that cannot be taken has its reason stored instead. 0 when every trace
 * is stored; 1 when yield stopped it first (those taken are stored); -1
 * when the store fails or memory runs out (err set), and the traces before
 * stay stored. */
int wl_run_trace(const struct wl_trace_setup *setup, struct wl_store *st, long long run_id,
		 const struct wl_run_plan *p, struct wl_error *err);

#endif
