/* A done run's explanations, in the runner's idle time, so that no run waits
 * on them: a run is
 * done once measured and verified, its explain state "pending"; when no run
 * waits for its devices, the runner profiles the CUDA launches waiting for
 * their counters (cuda_counts.h), a session at a time, then traces the
 * oldest pending run's variants (run_traces.h), a batch of tracers at a
 * time, stopping between batches when a run is queued, and marks it
 * "done". The page fills in from the run's event stream. */
#ifndef WL_EXPLAIN_H
#define WL_EXPLAIN_H

#include "executor.h"

/* Profile a session's worth of the counters waiting on the worker's CUDA
 * device (cuda_counts.h), unless a run is queued for devs, and write them
 * into their results. 1 when some wait (profiled or not), 0 when none do;
 * -1 with err only when the store fails. */
int wl_explain_counts(struct wl_executor *ex, const struct wl_claim_devices *devs, struct wl_error *err);

/* Explain the oldest pending run on devs, or part of it if a run is queued
 * meanwhile. 1 when there was one (its state is then "done", "failed" or
 * still "pending" if stopped), 0 when none waits; -1 with err only when the
 * store fails. */
int wl_explain_next(struct wl_executor *ex, const struct wl_claim_devices *devs, struct wl_error *err);

/* With no run to explain either: trace the catalog's built-in variants at
 * their defaults for the first device of devs, keeping the traces for the
 * lab (an experiment at a time, stopping when a run is queued), once per
 * worker. 1 when it did some of that, 0 when nothing is left; -1 with err
 * only when the store fails. */
int wl_explain_catalog(struct wl_executor *ex, const struct wl_claim_devices *devs, struct wl_error *err);

#endif
