/* A run's hardware counters while it runs: what the executor asks of a
 * deferring backend (CUDA's CUPTI keeps launches to profile together)
 * between points and when the run stops. */
#ifndef WL_RUN_COUNTS_H
#define WL_RUN_COUNTS_H

#include "error.h"
#include "run_plan.h"
#include "store.h"

/* What counting needs of the executor: its store, whether its runs are
 * traced once their counters are in, and who hears how long a profile may
 * take (NULL: nobody). */
struct wl_run_counting {
	struct wl_store *store;
	int tracing;
	void (*on_point)(void *ctx, long long run_id, long long deadline_s);
	void *hook_ctx;
};

/* The counters waiting on the run's device, profiled now where too many
 * wait, too long, or on too much of its memory (else they wait for the
 * runner's idle time, explain.h); what is settled is written. -1 with the
 * store's error. */
int wl_run_settle_counts(const struct wl_run_counting *c, long long run_id, struct wl_run_plan *plan, struct wl_error *err);

/* A run that stops early: its launches still waiting are given up (why:
 * each result says so; NULL, its results are gone) and written; a store
 * that refuses is logged. */
void wl_run_give_up_counts(const struct wl_run_counting *c, long long run_id, struct wl_run_plan *plan, const char *why);

/* Whether the run's counters wait to be profiled together: a run that
 * counts, without custom kernels (someone else's code is profiled while it
 * is measured, under the supervisor's eye, and alone). */
int wl_run_counts_later(const struct wl_run_plan *plan);

#endif
