/* The catalog's own parts, shared by its files (catalog.c, catalog_load.c,
 * catalog_cost.c) and by no one else: the rest of warplab reads catalog.h. */
#ifndef WL_CATALOG_PARTS_H
#define WL_CATALOG_PARTS_H

#include <jansson.h>

#include "catalog.h"

/* Read experiment entries of the parsed file root into cat; -1 with a
 * message naming the entry. What was read so far stays in cat for
 * wl_catalog_free(). */
int wl_catalog_from_json(const json_t *root, struct wl_catalog *cat, struct wl_error *err);

/* Read a "cost" object ({"bytes": "8*n", ...}) of exp into has/cost (arrays of
 * WL_COST_KINDS); -1 with a message beginning with where. */
int wl_costs_load(const struct wl_experiment *exp, const json_t *obj, int *has,
		  struct wl_cost *cost, const char *where, struct wl_error *err);

/* exp's param names in order, as an expression's name table; NULL when out of
 * memory. Caller frees the array (not the names). */
const char **wl_experiment_param_names(const struct wl_experiment *exp);

#endif
