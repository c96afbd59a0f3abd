/* The OpenCL devices the runner owns: every device of every platform, each with
 * a stable id ("nvidia-h100-80gb-hbm3-0"), its limits, its description as the
 * API shows it, and a context and profiling queue to run on. */
#ifndef WL_CL_DEVICE_H
#define WL_CL_DEVICE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <jansson.h>

#include "error.h"
#include "device_fit.h"
#include "pci_address.h"

struct wl_cl_device {
	char id[96];
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;		/* NULL until wl_cl_device_open() */
	cl_command_queue queue;
	int is_gpu;
	int fp64;
	int nv_compiler;		/* NVIDIA's: takes -cl-nv-verbose, gives PTX */
	cl_uint compute_units;
	cl_ulong global_mem, max_alloc, local_mem;
	size_t max_work_group;
	json_t *info;			/* the API's device object; owned */
	int nvidia_index;		/* its place among NVIDIA GPUs (NVML's order), or -1 */
	struct wl_nvml *nvml;		/* clocks and throttling, when NVML knows it; owned */
	/* Pinned host memory outputs are read into: two, so that one variant's
	 * output is checked while the next one's is read. */
	struct wl_staging {
		cl_mem mem;
		void *ptr;		/* where it is mapped */
		size_t size;
	} staging[2];
	unsigned staging_turn;		/* the slot the next wl_point_run takes */
	/* Its CUDA side, opened by its first CUDA run (cuda_point.h), with the
	 * NVRTC the worker found (NULL: none). */
	struct wl_cuda_device *cuda;
	const struct wl_nvrtc *nvrtc;
	int cuda_ordinal;		/* the CUDA driver's index of the same GPU, or -1 */
};

struct wl_cuda_device;
struct wl_nvrtc;

struct wl_nvml;

struct wl_cl_devices {
	size_t count;
	struct wl_cl_device *list;
};

/* Enumerate all platforms and devices. only, when not NULL or empty, is a
 * comma-separated list of device ids or the words "gpu"/"cpu" to keep. host,
 * when not NULL, is this host's name in a lab of several: each id begins with
 * its slug ("gpu3-nvidia-h100-0"), so ids stay unique across the lab. Finding
 * no device is not an error (count is 0). Caller frees with wl_cl_devices_free(). */
int wl_cl_devices_find(const char *only, const char *host, struct wl_cl_devices *out,
		       struct wl_error *err);
void wl_cl_devices_free(struct wl_cl_devices *devs);

/* Keep only the device at index (< count), releasing the others: a worker
 * serves one device. */
void wl_cl_devices_keep(struct wl_cl_devices *devs, size_t index);

/* dev's PCI address, from cl_khr_pci_bus_info, else NVIDIA's
 * cl_nv_device_attribute_query. Returns 0 with *out set; -1 where the device
 * reports none (a CPU, most drivers but NVIDIA's and AMD's). */
int wl_cl_device_pci(const struct wl_cl_device *dev, struct wl_pci_address *out);

/* Mark every device as without fp64 (its description too), so experiments in
 * double run in float. */
void wl_cl_devices_disable_fp64(struct wl_cl_devices *devs);

/* Create the device's context and in-order profiling queue (idempotent). -1
 * with the OpenCL error in err leaves the device closed. */
int wl_cl_device_open(struct wl_cl_device *dev, struct wl_error *err);

/* At least bytes of pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped) in
 * *ptr from staging slot (0 or 1), kept for the next call and grown as needed:
 * reads into it run at the bus's speed. Valid until the next call for the same
 * slot or wl_cl_device_close(). -1 with err set when it cannot be grown; the
 * slot then holds nothing. */
int wl_cl_device_staging(struct wl_cl_device *dev, unsigned slot, size_t bytes, void **ptr,
			 struct wl_error *err);

/* Release the context and queue, e.g. after an error that may have broken
 * them; the next wl_cl_device_open() makes fresh ones. */
void wl_cl_device_close(struct wl_cl_device *dev);

/* The device's limits for the request checks. */
void wl_cl_device_limits(const struct wl_cl_device *dev, struct wl_device_limits *out);

/* The name of an OpenCL error code ("CL_OUT_OF_RESOURCES"). */
const char *wl_cl_error_name(cl_int code);

/* Lower-case the text into a device id part: letters and digits, runs of
 * anything else as one '-'. Exposed for tests. */
void wl_cl_slug(const char *text, char *out, size_t len);

#endif
