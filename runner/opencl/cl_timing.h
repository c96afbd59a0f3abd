/* Timing kernel launches with OpenCL profiling events: untimed warm-up launches
 * first, then each timed launch with its own event, read once the queue drains. */
#ifndef WL_CL_TIMING_H
#define WL_CL_TIMING_H

#include "cl_device.h"
#include "launch.h"

/* Launch l warmup times untimed (one only where the first takes
 * WL_WARM_AFTER_MS or more), then repeat times timed, on q (created with
 * CL_QUEUE_PROFILING_ENABLE), each launch preceded by a write of flush when it
 * is not NULL (outside the launch's own event). samples_ms receives repeat
 * kernel times in milliseconds (END - START of each event). Fails naming the
 * OpenCL call and error, whose code goes to *code (CL_SUCCESS otherwise). */
int wl_time_launches(cl_command_queue q, const struct wl_launch *l, long long warmup,
		     long long repeat, const struct wl_flush *flush, double *samples_ms,
		     cl_int *code, struct wl_error *err);

#endif
