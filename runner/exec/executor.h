/* Executing one claimed run: every (point, variant) measured, verified and
 * written to the store (a few at a time, see run_point), then the run finished as done, failed
 * (with a message a person can act on) or cancelled, or put back in the queue
 * when the runner is asked to stop. A done run's traces follow in the
 * runner's idle time (explain.h). */
#ifndef WL_EXECUTOR_H
#define WL_EXECUTOR_H

#include <signal.h>

#include "catalog.h"
#include "device.h"
#include "run_plan.h"
#include "store.h"

/* The worker's exit status when a kernel lost the device's context and its
 * backend could not reset it in the process (CUDA keeps an illegal address
 * or a failed launch for the life of the process): the executor's one policy
 * for a lost context. */
#define WL_EXIT_DEVICE_LOST 75

struct wl_run_plan;

struct wl_executor {
	struct wl_store *store;
	const struct wl_catalog *cat;
	struct wl_devices *devs;
	struct wl_program_cache *programs;
	const char *kernels_dir;
	const char *version;
	long long warmup;		/* untimed launches before the timed ones */
	long long runner_id;		/* the run's owner in the store */
	long long device_slot;		/* its device's ordinal, as registered */
	long long point_timeout_max;	/* the longest any point may be given, seconds */
	size_t flush_max;		/* the largest cache flush, bytes (0: no cap) */
	volatile sig_atomic_t *stop;	/* raised by SIGTERM/SIGINT */
	/* NULL where custom kernels may run: the worker is confined
	 * (confine.h) or the operator allowed them unconfined; otherwise
	 * why the worker is not confined, and runs with custom kernels
	 * fail saying so. */
	const char *unconfined;
	/* Told before each point with how long it may take (seconds), so a
	 * supervisor can stop a device that hangs; NULL when nobody listens. */
	void (*on_point)(void *ctx, long long run_id, long long deadline_s);
	/* Told before the first launch of someone else's kernel at a point how
	 * long that one launch may take (seconds); on_point then gives the
	 * point its deadline back. NULL: nobody listens. */
	void (*on_probe)(void *ctx, long long run_id, long long seconds);
	/* Told the name of a custom kernel and the point ("n=256, tile=32") before
	 * it is measured, and NULLs after, so that a supervisor knows whose code
	 * was running, and where, if the process dies. */
	void (*on_custom)(void *ctx, const char *name, const char *point);
	void *hook_ctx;
	/* Told a run's plan before its first point, to build what its points
	 * will build ahead of them (into programs); NULL: each point builds
	 * its own as it comes. */
	void (*build_ahead)(void *ctx, const struct wl_run_plan *plan);
	void *build_ahead_ctx;
	/* Verifies a variant while the next is timed; NULL: verification runs
	 * in turn. Not owned. */
	struct wl_checker *checker;
	/* Tracing each variant's accesses once the run is done (explain.h):
	 * trace_off is why there is none (no Oclgrind, or switched off) or
	 * NULL; the budget of each trace. */
	const char *trace_off;
	long trace_seconds, trace_memory;
	int catalog_traces;		/* trace the catalog's defaults while idle */
};

/* Seconds a point may take before it counts as hung: time for setup (building
 * the program, filling and checking the host's buffers) plus every variant's
 * launches at WL_FLOOR_RATE bytes or operations per second — slow enough for
 * a two-core CPU through PoCL — and per_variant_s more for each variant (its
 * sampling budget, its cache flushes), capped at max_s. values are the
 * point's. */
long long wl_point_deadline(const struct wl_experiment *exp, const struct wl_variant_def *const *variants,
			    size_t nvariants, const long long *values, long long repeat, long long warmup,
			    double per_variant_s, long long max_s);

/* Someone else's kernel's first launch at a point is given at least this
 * long, whatever its size: its program is built before, and a machine
 * busy with other work still launches a small kernel within it. */
#define WL_PROBE_MIN_S 10

/* Seconds the first launch of variant v at values may take: WL_PROBE_MIN_S,
 * or twenty times its work at WL_FLOOR_RATE where that is longer; at most
 * max_s. A kernel that never ends is stopped then, not at the point's
 * deadline. */
long long wl_probe_deadline(const struct wl_experiment *exp, const struct wl_variant_def *v, const long long *values,
			    long long max_s);

/* Run claim to its end; a claim that joined a shared run (claim->helper)
 * measures the points it can take and leaves the run's end to the device
 * that holds it. Returns -1 only when the outcome could not be recorded in
 * the store. */
int wl_executor_run(struct wl_executor *ex, const struct wl_claim *claim, struct wl_error *err);

#endif
