/* Counters profiled after their results were written (issue 35): written
 * into those results, and a run whose counters are all in is explained. */
#ifndef WL_COUNTS_WRITE_H
#define WL_COUNTS_WRITE_H

#include "cuda_api.h"
#include "store.h"

/* Write cd's settled counters (cuda_counts.h) into their results, in one
 * transaction; each run other than current_run (0: none) that has none
 * left waiting is then "done" explaining, its share of the profiling
 * added to its explain time. 0 also with nothing to write; -1 with the
 * store's error, what was not written still settled for the next call. */
int wl_counts_write(struct wl_store *st, struct wl_cuda_device *cd, long long current_run, struct wl_error *err);

#endif
