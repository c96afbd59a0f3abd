/* The device facts of access patterns the model times at their own rates
 * (what the model's random and scattered ceilings stand on): sectors read at random far beyond the last-level cache and
 * within it, stores of a word to random sectors far beyond it, stores that
 * write part of a sector each (the rest by the group's other warps), atomics
 * the last level serves, DRAM's streaming rate by the width of a lane's
 * access, how much the first level keeps for a kernel
 * without local memory, and how many instructions a compute unit issues.
 * Each is a small kernel timed like the other facts (device_facts.c); the
 * model's facts table (model/facts.c) names them and says their methods. */
#ifndef WL_ACCESS_FACTS_H
#define WL_ACCESS_FACTS_H

#include "cl_device.h"
#include "facts.h"

/* Probe dev (open) into f's dram_random_per_us, cache_random_per_us,
 * scatter_per_us, partial_store_per_us, atomic_per_us, the DRAM copy rates
 * by lane width (dram_lane4/8/16_gbps) and, on a GPU,
 * l1_bytes and issue_per_ns; cache_bytes is its last-level cache (0:
 * unknown, taken as 4 MiB). Sized to take well under a second on a CPU. -1
 * with err set when a probe does not build or run; nothing is left
 * allocated. */
int wl_access_facts_probe(struct wl_device *dev, long long cache_bytes, struct wl_facts *f, struct wl_error *err);

#endif
