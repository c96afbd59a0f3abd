/* Where a run's time goes: program builds, input preparation with the CPU
 * reference, transfers between host and device, launches (the kernels with
 * their warm-ups and cache flushes), verification, and writes to the store.
 * The point helpers add to the phase they belong to; the executor derives the
 * rest from wall time and records the whole with the run. */
#ifndef WL_TIME_BUDGET_H
#define WL_TIME_BUDGET_H

#include <jansson.h>

#include "clock.h"

enum wl_phase {
	WL_PHASE_BUILD,
	WL_PHASE_INPUTS,	/* filling inputs and computing the CPU reference */
	WL_PHASE_TRANSFER,	/* buffers created, written, poisoned, read back */
	WL_PHASE_LAUNCH,	/* timed and warm-up launches, with cache flushes */
	WL_PHASE_VERIFY,	/* comparing outputs with the reference */
	WL_PHASE_STORE,
	WL_PHASE_COUNTERS,	/* CUDA: the profiled launch after timing, with its replays */
	WL_PHASE_ENERGY,	/* bursts of launches for the energy counter, with its waits */
	WL_PHASES
};

struct wl_time_budget {
	double ms[WL_PHASES];
	double kernel_ms;	/* the timed kernels themselves (their samples summed) */
	double total_ms;	/* the run's wall time */
	long long inputs_made;	/* points whose setup was made, not kept from the one before */
};

/* Add the time since since_ms to phase of b (b may be NULL). */
void wl_budget_add(struct wl_time_budget *b, enum wl_phase phase, double since_ms);

/* A stretch of wall time whose part the helpers inside it did not count goes
 * to one phase: setup's is the inputs and the CPU reference, measure's the
 * verification. Start it, do the work, end it. */
struct wl_budget_span {
	double started_ms, counted_ms;
};
void wl_budget_span_start(const struct wl_time_budget *b, struct wl_budget_span *s);
void wl_budget_span_end(struct wl_time_budget *b, enum wl_phase phase,
			const struct wl_budget_span *s);

/* {"total_ms", "kernel_ms", "build_ms", "inputs_ms", "transfer_ms",
 * "launch_ms", "verify_ms", "store_ms", "counters_ms", "energy_ms", "other_ms",
 * "inputs_made"}.
 * Caller owns. */
json_t *wl_budget_json(const struct wl_time_budget *b);

#endif
