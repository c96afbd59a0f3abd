/* Counters profiled after their results were written (a backend's deferred
 * counts, backend.h): written into those results, and a run whose counters
 * are all in is explained. */
#ifndef WL_COUNTS_WRITE_H
#define WL_COUNTS_WRITE_H

#include "device.h"
#include "store.h"

/* Write the settled counters waiting on dev (its deferring backend's) into their results, in one
 * transaction; each run other than current_run (0: none) that has none
 * left waiting is then "done" explaining — or still "pending" where
 * traces_follow (the runner traces the backend's runs once their counters
 * are in) — its share of the profiling added to its explain time. 0 also
 * with nothing to write; -1 with the store's error, what was not written
 * still settled for the next call. */
int wl_counts_write(struct wl_store *st, struct wl_device *dev, long long current_run, int traces_follow,
		    struct wl_error *err);

#endif
