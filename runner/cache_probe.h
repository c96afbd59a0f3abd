/* The size of a device's last-level cache, measured rather than asked: drivers
 * report something else (NVIDIA's OpenCL gives the H100's 4.125 MiB of L1 for
 * CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; its L2 is 50 MB). A read kernel sweeps
 * working sets from 1 MiB up, hot, and the cache ends where the bandwidth
 * falls to the DRAM plateau. Cold timings flush a multiple of that size. */
#ifndef WL_CACHE_PROBE_H
#define WL_CACHE_PROBE_H

#include <jansson.h>

#include "cl_device.h"

/* Probe dev (opened here if needed) and return the result as a JSON object
 * {"bytes", "method", "sizes": [...], "gbps": [...]} that the
 * caller owns; bytes is 0 when no size read faster than the largest. */
int wl_cache_probe(struct wl_cl_device *dev, json_t **out, struct wl_error *err);

/* The bytes to write before a cold launch: four times the cache (at least
 * 8 MiB), within what dev lets one buffer hold and at most max (0: no cap). */
size_t wl_cache_flush_bytes(const struct wl_cl_device *dev, long long cache_bytes, size_t max);

#endif
