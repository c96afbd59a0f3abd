/* A CUDA device's launches waiting for their hardware counters (issue 35).
 * A profile costs its passes, some 16 ms each on an H100 whatever the
 * kernel; one session of many launches, a range each, pays them once
 * (cupti_counters.h). So a run's variants, once timed and read back, leave
 * their launch here; the executor profiles them together between points
 * when enough have waited (wl_cuda_counts_due) and at the run's end, and
 * only then writes their results. The buffers a waiting launch reads are
 * kept when their owner releases them, until the profile is done. */
#ifndef WL_CUDA_COUNTS_H
#define WL_CUDA_COUNTS_H

#include <stddef.h>

#include "dev_buffer.h"
#include "error.h"
#include "cupti_counters.h"
#include "measure.h"

struct wl_cuda_device;
struct wl_launch;

/* Sessions hold at most this many launches, and are due this long after
 * their first: the session's cost stays a few percent of the run's, and a
 * CUDA run's results still arrive about once a second. */
#define WL_COUNTS_MAX WL_COUNTERS_RANGES_MAX
#define WL_COUNTS_EVERY_MS 1000.0

/* Leave a copy of launch l (timed at median_ms; flush: the cold timings'
 * flush, NULL for hot) to be profiled later, its counters to be written as
 * JSON into extra (len bytes, which must stay valid until the profile or a
 * drop). A hot launch is profiled after an unprofiled one (or after the
 * waiting launch before it, where that one used the same buffers), a cold
 * one after the flush: as its timed launches ran. -1 with err (out of memory) and
 * nothing left. */
int wl_cuda_count_later(struct wl_cuda_device *cd, const struct wl_launch *l, const struct wl_flush *flush,
			double median_ms, char *extra, size_t len, struct wl_error *err);

/* How many launches wait. */
size_t wl_cuda_counts_waiting(const struct wl_cuda_device *cd);

/* Whether the waiting launches should be profiled now: WL_COUNTS_MAX of
 * them, the first WL_COUNTS_EVERY_MS ago, or more than held_max bytes of
 * released buffers kept for them. */
int wl_cuda_counts_due(const struct wl_cuda_device *cd, size_t held_max);

/* A deadline in seconds for profiling the waiting launches (the passes of
 * their kernels, with room). */
long long wl_cuda_counts_seconds(const struct wl_cuda_device *cd);

/* Profile every waiting launch in one session and write each one's extra
 * ({"counters": {...}} or {"counters_error": why}); the kept buffers are
 * freed and nothing waits after. */
void wl_cuda_counts_profile(struct wl_cuda_device *cd);

/* Give up the waiting launches: each extra says why; the kept buffers are
 * freed, unless the context that held them is gone (context_lost). */
void wl_cuda_counts_drop(struct wl_cuda_device *cd, const char *why, int context_lost);

/* For wl_cuda_buffer_release: 1 when a waiting launch reads buffer ptr
 * (bytes), which is then kept and freed after the profile; 0 when the
 * caller frees it. */
int wl_cuda_counts_keep(struct wl_cuda_device *cd, unsigned long long ptr, size_t bytes);

/* The bytes of released buffers kept for the waiting launches. */
size_t wl_cuda_counts_held(const struct wl_cuda_device *cd);

/* Free what wl_cuda_count_later made (the device's, at its close); NULL is
 * allowed. */
struct wl_cuda_counts;
void wl_cuda_counts_free(struct wl_cuda_counts *c);

/* A profile's outcome as a result's extra: {"counters": {...}} from values
 * (WL_COUNTERS of them) or, values NULL, {"counters_error": why}; written
 * into extra (len bytes) where it fits, else extra is left empty. */
void wl_counts_extra(const double *values, const char *why, char *extra, size_t len);

#endif
