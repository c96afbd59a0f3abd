/* Which languages a device runs, and whether hardware counters can be read
 * there, as GET /api/devices shows them: OpenCL always; CUDA
 * where the CUDA driver knows the device (by its PCI address) and NVRTC
 * loads; counters where CUPTI loads and the driver lets this user profile
 * (NVIDIA's NVreg_RestrictProfilingToAdminUsers, read from the driver's
 * parameters). Nothing here is an error: a machine without CUDA says why,
 * once, and runs OpenCL. */
#ifndef WL_CUDA_LANGUAGES_H
#define WL_CUDA_LANGUAGES_H

#include <jansson.h>

#include "cuda_driver.h"
#include "cuda_nvrtc.h"
#include "pci_address.h"

/* What the worker found of CUDA's parts before it confined itself (the
 * libraries lie outside what a confined worker may read). */
struct wl_cuda_parts {
	const struct wl_cuda_devices *driver;	/* the driver's devices (count 0: none) */
	const char *driver_why;			/* why there are none, or "" */
	const struct wl_nvrtc *nvrtc;		/* handle NULL: none, for nvrtc_why */
	const char *nvrtc_why;
	int cupti;				/* CUPTI loads, else cupti_why */
	const char *cupti_why;
	const char *profiling_params;		/* the driver's parameters file */
	int admin;				/* this process may profile whatever the driver says */
};

#define WL_NVIDIA_PARAMS "/proc/driver/nvidia/params"

/* Whether CUPTI loads from lib (NULL: the usual names, cupti_counters.h);
 * why says where it did not. */
int wl_cupti_loads(const char *lib, char *why, size_t len);

/* The device at pci (NULL: it has none, a CPU) as {"languages": ["opencl"
 * (, "cuda")], "cuda": {"available", "reason"}, "counters": {"available",
 * "reason"}}; a new reference, NULL only when out of memory. */
json_t *wl_cuda_languages(const struct wl_cuda_parts *parts, const struct wl_pci_address *pci);

#endif
