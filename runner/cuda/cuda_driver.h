/* What the CUDA driver knows of an NVIDIA GPU and its OpenCL does not say: the
 * size of its L2 cache (OpenCL's CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is the L1s'
 * total on NVIDIA). libcuda.so.1 ships with every NVIDIA driver that provides
 * OpenCL; it is opened at run time, never linked, and a machine without it
 * simply has no answer here. The driver is asked once, when the worker starts
 * and before it confines itself (runner/confine.h), for every device's PCI
 * address and L2 size; the OpenCL device is then matched by its PCI address
 * (device.h's dev->pci). */
#ifndef WL_CUDA_DRIVER_H
#define WL_CUDA_DRIVER_H

#include <stddef.h>


#define WL_CUDA_DRIVER_LIB "libcuda.so.1"
#define WL_CUDA_DEVICES_MAX 64

/* The CUDA driver's devices: PCI address and L2 size. */
struct wl_cuda_devices {
	int count;
	struct {
		unsigned domain, bus, slot;
		long long l2_bytes;
		int ordinal;		/* its index among the driver's devices */
	} list[WL_CUDA_DEVICES_MAX];
};

/* Ask the CUDA driver in library lib (WL_CUDA_DRIVER_LIB; another name for
 * the tests) for its devices. Returns 0 with out filled; -1 with why ("no
 * CUDA driver (libcuda.so.1): ...", "cuInit failed (error 100)") and out
 * empty, which is no error for the caller: cache sizes are probed instead. */
int wl_cuda_devices_load(const char *lib, struct wl_cuda_devices *out, char *why, size_t why_len);

/* The L2 size of the device at domain:bus:slot in cuda, or 0 when it has
 * none there. */
long long wl_cuda_l2_bytes(const struct wl_cuda_devices *cuda, unsigned domain, unsigned bus, unsigned slot);

/* The driver's index of the device at domain:bus:slot in cuda (what
 * cuDeviceGet takes), or -1 when it has none there. */
int wl_cuda_ordinal(const struct wl_cuda_devices *cuda, unsigned domain, unsigned bus, unsigned slot);

#endif
