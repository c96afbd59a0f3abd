/* A stored build read for people and for the model: its figures (ptxas's
 * where NVIDIA's compiler reported, the driver's otherwise), its launches
 * with their local memory and occupancy (occupancy.h), and for a run the
 * warps each variant keeps resident on a compute unit. */
#ifndef WL_BUILD_VIEW_H
#define WL_BUILD_VIEW_H

#include <jansson.h>

#include "error.h"
#include "store.h"

/* The figures of one build (kernel: its stored figures; ptxas: ptxas's for
 * the kernel, or NULL) at its first launch, as GET /api/runs/{id}/compiler
 * shows them. NULL only when out of memory. */
json_t *wl_build_figures(const json_t *kernel, const json_t *ptxas, const json_t *first);

/* Each launch of the build with its local memory and occupancy under arch
 * (or unknown, why). NULL only when out of memory. */
json_t *wl_build_launches(const json_t *kernel, const json_t *ptxas, const json_t *arch, const char *why);

/* Add "occupancy": {VARIANT: {"warps", "groups"}} to run — what each
 * variant's first launch keeps resident per compute unit, from its recorded
 * build and the device's architecture limits — where both are known; run
 * gets nothing where the limits do not know its device. -1 with err when
 * the store fails. */
int wl_run_add_occupancy(const json_t *limits, struct wl_store *st, json_t *run, struct wl_error *err);

#endif
