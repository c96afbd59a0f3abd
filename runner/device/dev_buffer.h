/* A buffer on the device a point runs on, as an opaque handle of the backend
 * that made it (backend.h: an OpenCL memory object, a CUDA device pointer).
 * The families hold these and never look inside; the point helpers (point.h)
 * make, fill, read and release them through the point's backend
 * (backend.h's wl_buf_release). */
#ifndef WL_DEV_BUFFER_H
#define WL_DEV_BUFFER_H

#include <stddef.h>
#include <stdint.h>

struct wl_backend;

struct wl_buf {
	const struct wl_backend *backend;	/* what made it; NULL: nothing held */
	uint64_t handle;			/* the backend's own */
	size_t bytes;
};

/* What a buffer is to the point's kernels, which the device's language
 * turns into its own flags: read only (inputs), written only (outputs), or
 * both (scratch, flags, a flush). */
enum wl_buf_role { WL_BUF_IN, WL_BUF_OUT, WL_BUF_SCRATCH };

/* Whether b holds device memory. */
static inline int wl_buf_made(const struct wl_buf *b)
{
	return b->backend != NULL;
}

/* The size a staging area (pinned host memory outputs are read into) of
 * size had grows to when it must hold bytes: by whole MiB, and at least by
 * half of what it had, so that a sweep of rising sizes pins new memory a few
 * times, not at every point. Pinning is the cost (some 1-3 GB/s on an H100's
 * host), so a first area, or a jump, is pinned at the size asked for. */
static inline size_t wl_staging_size(size_t bytes, size_t had)
{
	size_t size = had + had / 2 > bytes ? had + had / 2 : bytes;

	return (size + ((size_t)1 << 20) - 1) & ~(((size_t)1 << 20) - 1);
}

#endif
