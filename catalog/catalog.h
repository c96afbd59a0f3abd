/* The experiment catalog (kernels/catalog.json): experiments, their variants
 * (kernels), their parameters with limits and defaults, and how each variant's
 * bytes, operations and device needs are counted. Both binaries read it: the
 * server validates requests against it, the runner executes from it.
 *
 * This is the header the rest of warplab reads. One experiment and the
 * lookups over it are catalog_experiment.h's, what a variant costs
 * catalog_cost.h's; both come with this header. Inside the catalog the calls
 * run one way, down: catalog.c (the file, its top level and limits, the
 * architectures' limits beside it) calls catalog_load.c (the experiments)
 * and catalog_json.c (one experiment as shown); catalog_load.c calls
 * catalog_cost.c; and each of them calls catalog_experiment.c, which calls
 * none of them. */
#ifndef WL_CATALOG_H
#define WL_CATALOG_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog_cost.h"
#include "error.h"
#include "catalog_experiment.h"

struct wl_catalog {
	char *dir;			/* directory of catalog.json; kernel sources live there */
	size_t nexperiments;
	struct wl_experiment *experiments;
	long long max_measurements;	/* variants x points per run */
	long long max_list;		/* values in one list parameter */
	/* The architectures' occupancy limits, gpu_limits.json beside
	 * catalog.json (occupancy.h), or NULL where there is none. Owned. */
	json_t *gpu_limits;
	/* FNV-1a of the catalog as read (its JSON with sorted keys, then the
	 * architectures' limits): what the model's version says of the
	 * declarations its predictions are made from. */
	uint64_t hash;
};

/* Load and check the catalog at path: every field typed, every formula naming
 * known params, every default valid; and gpu_limits.json beside it where there
 * is one. On failure returns -1 with a message naming the file and entry, and
 * nothing is left allocated. Caller frees *out with wl_catalog_free(). */
int wl_catalog_load(const char *path, struct wl_catalog **out, struct wl_error *err);
/* Free cat and all it holds; NULL is a no-op. */
void wl_catalog_free(struct wl_catalog *cat);

/* The experiment with id, or NULL. */
const struct wl_experiment *wl_catalog_find(const struct wl_catalog *cat, const char *id);

/* The catalog as GET /api/experiments shows it: {"experiments": [...],
 * "limits": {"max_measurements"}}. Caller owns the reference; NULL when out
 * of memory. */
json_t *wl_catalog_to_json(const struct wl_catalog *cat);

#endif
