/* What a device does, measured once per device and driver (like its cache,
 * cache_probe.h) for the model's ceilings (issue 26): how long an empty
 * kernel takes (launch cost), how long a dependent load waits (latency), how
 * often one warp alone streams a request (latency over the parallelism a
 * warp has), how many local-memory passes (wavefronts) a compute unit serves
 * per second, what the first-level cache serves (requests, bank passes,
 * lines) and a warp's pace on its hits, the bandwidth of reads the
 * last-level cache serves, and the
 * bytes DRAM moves per burst. Each fact is {"value", "unit", "method"}. */
#ifndef WL_DEVICE_FACTS_H
#define WL_DEVICE_FACTS_H

#include <jansson.h>

#include "cl_device.h"

/* The version of the probes: facts stored by another version are measured
 * again. */
#define WL_FACTS_VERSION 10

/* Probe dev (opened here if needed) into *out, an object of facts the
 * caller owns: "launch_us", "latency_ns", "warp_interval_ns", "l1_requests_per_us", "l1_interval_ns",
 * "local_wavefronts_per_us" (per compute unit), "cache_gbps", "burst_bytes",
 * and "version". cache_bytes is the device's last-level cache (0: unknown):
 * the latency chase and the cache read are sized from it. Probes are sized
 * to take well under a second on a CPU. -1 with err set when a probe kernel
 * does not build or run; nothing is left allocated. */
int wl_device_facts_probe(struct wl_cl_device *dev, long long cache_bytes, json_t **out,
			  struct wl_error *err);

/* dev's facts: stored (what the store kept for it with the same driver and
 * WL_FACTS_VERSION; NULL for none), else probed now, else {"error": why}.
 * NULL only when out of memory. Caller owns it. */
json_t *wl_device_facts_describe(struct wl_cl_device *dev, long long cache_bytes, const json_t *stored);

#endif
