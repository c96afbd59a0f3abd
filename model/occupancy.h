/* Occupancy: how many work-groups of a kernel can be resident on one compute
 * unit at once, and which resource stops more — the limits of the device's
 * architecture (kernels/gpu_limits.json, data not code) against what the
 * compiler says one work-group uses. The rules are NVIDIA's occupancy
 * calculator's: warps and work-group slots per SM; registers allocated per
 * warp in units, from a register file split among the SM's schedulers; local
 * (shared) memory per work-group rounded up to its unit, plus what the
 * driver reserves per work-group. */
#ifndef WL_OCCUPANCY_H
#define WL_OCCUPANCY_H

#include <jansson.h>

#include "error.h"

/* What one work-group uses; -1 for a figure the compiler did not report. */
struct wl_group_use {
	long long items;		/* work-items in the group (> 0) */
	long long registers;		/* per work-item */
	long long local_bytes;		/* local memory of one group, static and dynamic */
};

/* Occupancy of use under arch (an entry of wl_gpu_limits_for, or NULL):
 * {"groups": N, "warps": N, "max_warps": N, "fraction": 0.5,
 *  "limited_by": ["registers", ...]  each limit that allows no more groups,
 *  "by": {"warps": N, "groups": N, "registers": N|null, "local_memory": N|null}
 *        groups each limit alone allows (null: not known),
 *  "unknown": ["registers"]           limits left out for want of a figure}
 * or, without arch, {"unknown_why": why}. groups 0 with a reason in
 * "cannot_run" when a group can never fit (too many registers or too much
 * local memory). NULL only when out of memory. */
json_t *wl_occupancy(const json_t *arch, const char *why_unknown, const struct wl_group_use *use);

#endif
