/* The architectures' occupancy limits, kernels/gpu_limits.json: data, not
 * code — per NVIDIA compute capability the warps, work-groups, registers and
 * local memory one compute unit holds and the units they are allocated in.
 * The catalog loads and checks them; the model's occupancy (model/occupancy.h)
 * applies them. */
#ifndef WL_GPU_LIMITS_H
#define WL_GPU_LIMITS_H

#include <jansson.h>

#include "error.h"

/* The architecture entry of limits (the parsed gpu_limits.json) for a device
 * as /api/devices describes it: for an NVIDIA device, the entry of its
 * "compute_capability". NULL with *why saying what is unknown (no limits are
 * known for the vendor, or for this compute capability, or the device record
 * has none). The entry belongs to limits. */
const json_t *wl_gpu_limits_for(const json_t *limits, const json_t *device, const char **why);

/* Check a limits file: every architecture entry has the numbers occupancy
 * needs, each positive. -1 with err naming the entry and field. */
int wl_gpu_limits_check(const json_t *limits, struct wl_error *err);

#endif
