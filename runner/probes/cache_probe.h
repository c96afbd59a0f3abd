/* The size of a device's last-level cache, measured rather than asked: drivers
 * report something else (NVIDIA's OpenCL gives the H100's 4.125 MiB of L1 for
 * CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; its L2 is 50 MB). A read kernel sweeps
 * working sets from 1 MiB up, hot, and the cache ends where the bandwidth
 * falls to the DRAM plateau. Cold timings flush a multiple of that size
 * (cold_flush.h). */
#ifndef WL_CACHE_PROBE_H
#define WL_CACHE_PROBE_H

#include <jansson.h>

#include "cl_device.h"
#include "cuda_driver.h"

/* Probe dev (opened here if needed) and return the result as a JSON object
 * {"bytes", "source", "method", "sizes": [...], "gbps": [...]} that the
 * caller owns; source is "probe", or "unknown" with bytes 0 when no size read
 * faster than the largest. The probe fills the device (work-items for every
 * compute unit), warms its clocks first, and makes every launch read at least
 * 64 MiB, so it measures the cache's bandwidth rather than latency. */
int wl_cache_probe(struct wl_device *dev, json_t **out, struct wl_error *err);

/* dev's last-level cache as the device's "cache" object {"bytes", "source",
 * "method", ...}, from the source that knows: "driver" for an NVIDIA GPU the
 * CUDA driver knows (cuda, asked before the worker confined itself; cuda_why
 * its reason where it could not answer, kept as "driver_said"), "system" for
 * a CPU (Linux's sysfs), else stored (what the store kept from a probe of the
 * same driver, or NULL), else "probe" now, or "unknown" with bytes 0. NULL
 * only when out of memory. Caller owns it. */
json_t *wl_cache_describe(struct wl_device *dev, const struct wl_cuda_devices *cuda, const char *cuda_why,
			  const json_t *stored);

/* The last-level cache of the CPU described at sysfs_cpu
 * ("/sys/devices/system/cpu/cpu0"), as the kernel reports it: the size of
 * its highest cache level; 0 where sysfs says nothing. */
long long wl_cpu_cache_bytes(const char *sysfs_cpu);

#endif
