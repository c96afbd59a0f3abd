/* What a variant costs: the catalog's "cost" formulas (struct wl_cost of
 * catalog_experiment.h, one per enum wl_cost_kind), parsed over the
 * experiment's params and evaluated at a point, a variant's own formula
 * before its experiment's. The catalog's loading reads them through
 * wl_costs_load; the device fit, the runner and the server evaluate them. */
#ifndef WL_CATALOG_COST_H
#define WL_CATALOG_COST_H

#include <jansson.h>

#include "error.h"
#include "catalog_experiment.h"

/* Whether variant v of exp has a formula of this kind (its own or the
 * experiment's), or its buffers say (bytes moved, memory, the largest
 * buffer: exp_data.h). */
int wl_variant_has_cost(const struct wl_experiment *exp, const struct wl_variant_def *v,
			enum wl_cost_kind kind);

/* Evaluate variant v's formula of kind at values (one per param of exp), or
 * what its buffers say of it; 0 when neither says. Computed in double so
 * huge sizes cannot overflow. */
double wl_variant_cost(const struct wl_experiment *exp, const struct wl_variant_def *v,
		       enum wl_cost_kind kind, const long long *values);

/* Parse "8*n*n + 4*tile" against exp's params into *out; -1 with a message
 * quoting the formula and naming what is wrong (*out is then not to be used). */
int wl_cost_parse(const struct wl_experiment *exp, const char *text, struct wl_cost *out,
		  struct wl_error *err);

/* Read a "cost" object ({"bytes": "8*n", ...}) of exp into has/cost (arrays of
 * WL_COST_KINDS): 0, or -1 with a message beginning with where. On failure
 * the kinds read before the bad one are set in has and cost; nothing of them
 * needs freeing. */
int wl_costs_load(const struct wl_experiment *exp, const json_t *obj, int *has,
		  struct wl_cost *cost, const char *where, struct wl_error *err);

/* A cost kind's key in the catalog ("bytes", "work_group"). */
const char *wl_cost_name(enum wl_cost_kind kind);

#endif
