/* What a device does, measured once per device and driver (like its cache,
 * cache_probe.h) for the model's ceilings: how long an empty
 * kernel takes (launch cost), how long a dependent load waits (latency), how
 * often one warp alone streams a request (latency over the parallelism a
 * warp has), how many local-memory passes (wavefronts) a compute unit serves
 * per second, what the first-level cache serves (requests, bank passes,
 * lines) and a warp's pace on its hits, the bandwidth of reads the
 * last-level cache serves, and the
 * bytes DRAM moves per burst. The probes fill the model's typed facts
 * (model/facts.h), which name them and say their methods. */
#ifndef WL_DEVICE_FACTS_H
#define WL_DEVICE_FACTS_H

#include <jansson.h>

#include "cl_device.h"
#include "facts.h"

/* Probe dev (opened here if needed) into *out, the facts as the store keeps
 * them (wl_facts_to_json), which the caller owns. cache_bytes is the device's last-level cache (0: unknown):
 * the latency chase and the cache read are sized from it. Probes are sized
 * to take well under a second on a CPU. -1 with err set when a probe kernel
 * does not build or run; nothing is left allocated. */
int wl_device_facts_probe(struct wl_device *dev, long long cache_bytes, json_t **out,
			  struct wl_error *err);

/* dev's facts: stored (what the store kept for it with the same driver and
 * WL_FACTS_VERSION; NULL for none), else probed now, else {"error": why}.
 * NULL only when out of memory. Caller owns it. */
json_t *wl_device_facts_describe(struct wl_device *dev, long long cache_bytes, const json_t *stored);

#endif
