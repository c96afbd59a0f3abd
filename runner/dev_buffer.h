/* A buffer on the device a point runs on, in either language (issue 27): an
 * OpenCL memory object, or a CUDA device pointer. The families hold these and
 * never look inside; the point helpers (point.h) make, fill, read and release
 * them in the point's language. */
#ifndef WL_DEV_BUFFER_H
#define WL_DEV_BUFFER_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stddef.h>

struct wl_buf {
	cl_mem cl;		/* OpenCL's, or NULL */
	unsigned long long cu;	/* CUDA's (a CUdeviceptr), or 0 */
	size_t bytes;
};

/* What a buffer is to the point's kernels, which the device's language
 * turns into its own flags: read only (inputs), written only (outputs), or
 * both (scratch, flags, a flush). */
enum wl_buf_role { WL_BUF_IN, WL_BUF_OUT, WL_BUF_SCRATCH };

/* Whether b holds device memory in either language. */
static inline int wl_buf_made(const struct wl_buf *b)
{
	return b->cl != NULL || b->cu != 0;
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

/* Release whichever *b holds and clear it; for teardown functions (a
 * cleared buffer is left alone). */
void wl_buf_release(struct wl_buf *b);

#endif
