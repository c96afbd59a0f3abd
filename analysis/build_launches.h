/* A stored build's use of a compute unit at a launch: the work-items of a
 * group, the registers the compiler reported and the local memory, static
 * and given through arguments — what the occupancy calculator (occupancy.h)
 * takes. build_view.c makes it for each recorded launch (GET
 * /api/runs/{id}/compiler); run_occupancy.c for each result's own. */
#ifndef WL_BUILD_LAUNCHES_H
#define WL_BUILD_LAUNCHES_H

#include <jansson.h>

#include "occupancy.h"

/* The use of the build kernel (its stored figures, with "launches") whose
 * ptxas figures are ptxas (or NULL: the driver's alone) by groups of items
 * work-items given args bytes of local memory through their arguments:
 * registers -1 and local_bytes -1 where not known. */
void wl_build_group_use(const json_t *kernel, const json_t *ptxas, long long items, long long args,
			struct wl_group_use *use);

/* The same at one of its recorded launches (an entry of its "launches":
 * its work-group and its arguments' local memory). Returns whether the
 * group's size is known (not the driver's choice). */
int wl_build_launch_use(const json_t *kernel, const json_t *ptxas, const json_t *launch, struct wl_group_use *use);

#endif
