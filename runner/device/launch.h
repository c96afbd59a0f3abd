/* A kernel made ready to launch and the cache flush before a cold launch, as
 * every backend (backend.h) holds them: opaque handles of the API that made
 * them, with the launch's shape (released with backend.h's
 * wl_launch_release). */
#ifndef WL_LAUNCH_H
#define WL_LAUNCH_H

#include <stddef.h>

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

#endif
