/* OpenCL's side of the runner's devices: finding every device of every
 * platform (each with a stable id, "nvidia-h100-80gb-hbm3-0", its limits and
 * its description as the API shows it), and a context and profiling queue to
 * run on. The rest of the runner sees a struct wl_device (device.h). */
#ifndef WL_CL_DEVICE_H
#define WL_CL_DEVICE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <jansson.h>

#include "device.h"
#include "error.h"
#include "request.h"

/* A device's OpenCL side (device.h's dev->api[WL_LANG_OPENCL]): the
 * platform and device it was found as, a context and profiling queue to run
 * on once opened, and the pinned host memory outputs are read into. */
struct wl_cl_device {
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;		/* NULL until wl_cl_device_open() */
	cl_command_queue queue;
	int nv_compiler;		/* NVIDIA's: takes -cl-nv-verbose, gives PTX */
	/* Pinned host memory outputs are read into: two, so that one
	 * variant's output is checked while the next one's is read. */
	struct wl_staging {
		cl_mem mem;
		void *ptr;		/* where it is mapped */
		size_t size;
	} staging[2];
};

/* dev's OpenCL side, or NULL where OpenCL did not find the device. */
static inline struct wl_cl_device *wl_cl_of(const struct wl_device *dev)
{
	return (struct wl_cl_device *)dev->api[WL_LANG_OPENCL];
}

/* The OpenCL backend's find (backend.h): every device of every platform
 * appended to devs, with its OpenCL side, limits, PCI address and
 * description; ids are the device's name plus an ordinal among devices of
 * that name, so they stay the same across restarts (and with --devices).
 * No platform is not an error. -1 with err. */
int wl_cl_find(const char *only, const char *host, struct wl_devices *devs, struct wl_error *err);

/* Release dev's OpenCL side (its context, queue and staging); NULL-safe. */
void wl_cl_detach(struct wl_device *dev);

/* Create the device's context and in-order profiling queue (idempotent). -1
 * with the OpenCL error in err (also where OpenCL has no side of dev) leaves
 * the device closed. */
int wl_cl_device_open(struct wl_device *dev, struct wl_error *err);

/* At least bytes of pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped) in
 * *ptr from staging slot (0 or 1), kept for the next call and grown as needed:
 * reads into it run at the bus's speed. Valid until the next call for the same
 * slot or wl_cl_device_close(). -1 with err set when it cannot be grown; the
 * slot then holds nothing. */
int wl_cl_device_staging(struct wl_device *dev, unsigned slot, size_t bytes, void **ptr,
			 struct wl_error *err);

/* Release the context and queue, e.g. after an error that may have broken
 * them; the next wl_cl_device_open() makes fresh ones. */
void wl_cl_device_close(struct wl_device *dev);

/* The name of an OpenCL error code ("CL_OUT_OF_RESOURCES"). */
const char *wl_cl_error_name(cl_int code);

#endif
