/* What the executor writes of a run: its measurements as result rows (a
 * point's written a few at a time), where its time went, and the GPU's
 * clocks at its start and end. */
#ifndef WL_RESULT_ROWS_H
#define WL_RESULT_ROWS_H

#include <jansson.h>

#include "device.h"
#include "point.h"
#include "run_plan.h"
#include "store.h"
#include "time_budget.h"

/* A point's results as they are measured, written a few at a time: a fast
 * sweep commits (and syncs the store) about once per point rather than once
 * per variant, while a slow variant still shows within RECORD_EVERY_MS of
 * being measured. */
#define RECORD_EVERY_MS 250.0

struct wl_point_results {
	struct wl_measurement *ms;	/* one per variant */
	char **failures;		/* a custom kernel's failure text, or NULL */
	size_t recorded;		/* variants [0, recorded) are in the store */
	double last_ms;			/* when they were last written */
	long long first_seq;		/* variant 0's place in the run (a shared run's
					 * points land in any order); 0: after the last */
};

/* Write variants [pr->recorded, upto) of the point in one transaction; their
 * checks must have ended. On success pr->recorded is upto; on failure (-1,
 * the store's error) nothing of them is written and pr->recorded stays. */
int wl_point_results_record(struct wl_store *st, long long runner_id, long long run_id,
			    const struct wl_point *pt, const struct wl_run_variant *variants,
			    const char *params_text, struct wl_point_results *pr, size_t upto,
			    struct wl_error *err);

/* Whether RECORD_EVERY_MS have passed since pr was last written. */
int wl_point_results_due(const struct wl_point_results *pr);

/* Record where the run's time went, from started to now (b->total_ms is set).
 * -1 with the store's error; nothing is written then. */
int wl_run_record_budget(struct wl_store *st, long long run_id, struct wl_time_budget *b,
			 double started, struct wl_error *err);

/* Record the GPU's state (NVML) at the run's start (*start NULL: it is taken
 * and kept there, the caller's to free) or end. -1 with the store's error. */
int wl_run_record_clocks(struct wl_store *st, long long run_id, const struct wl_device *dev,
			 size_t flush_bytes, json_t **start, struct wl_error *err);

/* A custom kernel's (or an own experiment's variant's) measurement ended
 * in an error (it did not build, or its launch failed): that fails its
 * point, not the run. The text of its result, with the whole build log
 * from programs where there is one, host paths taken out; the caller's to
 * free; NULL when out of memory. */
char *wl_custom_failure_text(struct wl_program_cache *programs, const struct wl_point *pt,
			     const struct wl_run_variant *rv, const struct wl_error *why);

#endif
