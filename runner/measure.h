/* Timing kernel launches with OpenCL profiling events: untimed warm-up launches
 * first, then each timed launch with its own event, read once the queue drains. */
#ifndef WL_MEASURE_H
#define WL_MEASURE_H

#include "cl_device.h"
#include "dev_buffer.h"

struct wl_backend;

/* A kernel made ready to launch, as an opaque handle of the backend that
 * made it (backend.h): OpenCL's kernel with its arguments set, or a CUDA
 * function with its arguments packed. */
struct wl_launch {
	const struct wl_backend *backend;	/* NULL: nothing held */
	void *handle;
	unsigned dims;
	size_t global[3];
	size_t local[3];	/* all 0: the driver chooses the work-group size */
};

/* A buffer written before each launch so that the launch finds none of its
 * data in the device's last-level cache ("cold" timings). */
struct wl_flush {
	struct wl_buf buf;
	size_t bytes;
};

/* A first warm-up this long (flush, launch and wait) warms the kernel: no
 * other follows. */
#define WL_WARM_AFTER_MS 5.0

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
