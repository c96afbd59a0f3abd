/* A stored build's launches as the model and people read them: each launch
 * shape the runner recorded of one build (its "launches": the point it was
 * first seen at, its work-group, its local memory) with the occupancy it
 * allows under an architecture's limits. build_view.c makes them for GET
 * /api/runs/{id}/compiler; run_occupancy.c takes each result's from them. */
#ifndef WL_BUILD_LAUNCHES_H
#define WL_BUILD_LAUNCHES_H

#include <jansson.h>

/* The launches of the build kernel (its stored figures, with "launches")
 * whose ptxas figures are ptxas (or NULL: the driver's alone), each as
 * {"at", "work_group", "items", "local_bytes", "occupancy"}: the occupancy
 * under arch, or unknown with why (arch NULL), or unknown where the driver
 * chose the work-group size. Returns a new array, NULL only when out of
 * memory. */
json_t *wl_build_launches(const json_t *kernel, const json_t *ptxas, const json_t *arch, const char *why);

#endif
