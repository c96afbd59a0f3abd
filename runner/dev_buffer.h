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

/* Release whichever *b holds and clear it; for teardown functions (a
 * cleared buffer is left alone). */
void wl_buf_release(struct wl_buf *b);

#endif
