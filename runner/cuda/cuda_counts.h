/* A CUDA device's launches waiting for their hardware counters, the CUDA
 * backend's deferred counts (backend.h).
 * A profile costs its passes, some 16 ms each on an H100 whatever the
 * kernel; one session of many launches, a range each, pays them once
 * (cupti_counters.h). So a run's variants, once timed and read back, leave
 * their launch here and their results are written at once, saying their
 * counters are coming; the launches wait, across runs, until the runner is
 * idle (or too many wait, or too long, or they hold too much memory), are
 * profiled together, and their counters are written into those results
 * (the executor's counts_write.h). The buffers a waiting launch reads are kept when their
 * owner releases them, until it is profiled or given up. */
#ifndef WL_CUDA_COUNTS_H
#define WL_CUDA_COUNTS_H

#include <stddef.h>

#include "backend.h"
#include "dev_buffer.h"
#include "error.h"
#include "cupti_counters.h"
#include "launch.h"

struct wl_cuda_device;
struct wl_launch;

/* A session holds at most WL_COUNTS_MAX launches. Launches wait for the
 * runner's idle time unless WL_COUNTS_PILE of them wait or the first has
 * waited WL_COUNTS_WAIT_MS (a lab whose queue never empties still gets its
 * counters) or their buffers crowd the device. */
#define WL_COUNTS_MAX WL_COUNTERS_RANGES_MAX
#define WL_COUNTS_PILE (4 * WL_COUNTS_MAX)
#define WL_COUNTS_WAIT_MS 30000.0


/* Leave a copy of launch l (timed at median_ms; flush: the cold timings'
 * flush, NULL for hot) to be profiled later for result seq of run_id. A
 * hot launch is profiled after an unprofiled one (or after the waiting
 * launch before it, where that one used the same buffers), a cold one
 * after the flush: as its timed launches ran. -1 with err (out of memory)
 * and nothing left. */
int wl_cuda_count_later(struct wl_cuda_device *cd, const struct wl_launch *l, const struct wl_flush *flush,
			double median_ms, long long run_id, long long seq, struct wl_error *err);

/* How many launches wait (of run_id, or of every run for 0). */
size_t wl_cuda_counts_waiting(const struct wl_cuda_device *cd, long long run_id);

/* Whether the waiting launches should be profiled now, during a run:
 * WL_COUNTS_PILE of them, the first WL_COUNTS_WAIT_MS ago, or more than
 * held_max bytes of released buffers kept for them. */
int wl_cuda_counts_due(const struct wl_cuda_device *cd, size_t held_max);

/* A deadline in seconds for profiling the first max waiting launches (the
 * passes of their kernels, with room). */
long long wl_cuda_counts_seconds(const struct wl_cuda_device *cd, size_t max);

/* Profile the first max waiting launches (oldest first), a session per
 * WL_COUNTS_MAX: each is then settled with its counters or the profile's
 * error, and the buffers no waiting launch reads any more are freed. */
void wl_cuda_counts_profile(struct wl_cuda_device *cd, size_t max);

/* Give up the waiting launches of run_id (0: of every run): each is
 * settled with {"counters_error": why}, or forgotten where why is NULL
 * (its result is gone). The buffers no waiting launch reads are freed,
 * unless the context that held them is gone (context_lost). */
void wl_cuda_counts_drop(struct wl_cuda_device *cd, const char *why, int context_lost, long long run_id);

/* The settled launches, oldest first, into *out (n of them; valid until
 * wl_cuda_counts_forget), for the caller to write. */
size_t wl_cuda_counts_settled(const struct wl_cuda_device *cd, const struct wl_counted **out);

/* Forget the first n settled launches (written). */
void wl_cuda_counts_forget(struct wl_cuda_device *cd, size_t n);

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
