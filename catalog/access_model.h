/* A variant's declared memory accesses, as the catalog (or a custom kernel's
 * request) writes them: for each global or local load or store, the index it
 * reads or writes as an expression of the work-item's ids, its group's ids, the
 * loop counters around it and the point's parameters; the element size; the
 * loops; the condition under which a work-item makes it. With the work-group's
 * shape this is what warp_model.h simulates. Example (the tiled transpose's
 * column read of its tile):
 *   {"array": "tile", "space": "local", "op": "load", "bytes": 4,
 *    "index": "lid0*tile + lid1 + i",
 *    "loops": [{"var": "i", "from": "0", "while": "i < tile", "next": "i + rows"}]} */
#ifndef WL_ACCESS_MODEL_H
#define WL_ACCESS_MODEL_H

#include <jansson.h>

#include "error.h"
#include "expr.h"

#define WL_ACCESS_MAX 8		/* accesses one variant declares */
#define WL_ACCESS_LOOPS 3	/* loops around one access */

/* The names an access expression may use after the experiment's params, in
 * this order; then its loops' counters. gsz and ngrp exist only where the model
 * declares the launch's grid. */
enum wl_model_var {
	WL_VAR_LID0, WL_VAR_LID1,	/* get_local_id(0), (1) */
	WL_VAR_GRP0, WL_VAR_GRP1,	/* get_group_id */
	WL_VAR_GID0, WL_VAR_GID1,	/* get_global_id */
	WL_VAR_LSZ0, WL_VAR_LSZ1,	/* get_local_size */
	WL_VAR_GSZ0, WL_VAR_GSZ1,	/* get_global_size */
	WL_VAR_NGRP0, WL_VAR_NGRP1,	/* get_num_groups */
	WL_VAR_BUILTINS
};

enum wl_space { WL_SPACE_GLOBAL, WL_SPACE_LOCAL };

struct wl_access_loop {
	char var[WL_EXPR_NAME_MAX];
	struct wl_expr from, cond, next;	/* for (var = from; cond; var = next) */
};

struct wl_access {
	char array[WL_EXPR_NAME_MAX];
	enum wl_space space;
	int store;			/* a store, else a load */
	int bytes;			/* the element: 1, 2, 4, 8 or 16 */
	struct wl_expr index;		/* in elements */
	int has_when;
	struct wl_expr when;		/* the work-items that make the access */
	int nloops;
	struct wl_access_loop loops[WL_ACCESS_LOOPS];	/* outermost first */
};

/* A condition under which a catalog cause may be said of a result: the
 * sentence is shown only where every condition of it holds at the result
 * it would explain (model/ceiling_view.c checks them), so it cannot say
 * what the figures beside it deny. In the catalog, "when": [...] of:
 * "gpu" (the device has warps: a CPU has no banks or warps), "local" (the
 * kernel uses local memory), "conflicts" (its local accesses conflict at
 * this point), "short" (the launch is a tenth of the time or more: a small
 * size), "long" (it is not), "drops" (the run found partition-camping drops
 * of this variant), "beyond_cache" / "in_cache" (the point's buffers pass
 * the last-level cache or fit it), "slow_baseline:<variant>:<factor>" (at
 * the experiment's baseline point this variant takes factor times the
 * other's time or more). */
enum wl_when_kind {
	WL_WHEN_GPU, WL_WHEN_LOCAL, WL_WHEN_CONFLICTS, WL_WHEN_SHORT, WL_WHEN_LONG, WL_WHEN_DROPS,
	WL_WHEN_BEYOND_CACHE, WL_WHEN_IN_CACHE, WL_WHEN_SLOW_BASELINE
};

struct wl_when {
	enum wl_when_kind kind;
	char than[64];			/* slow_baseline: the other variant */
	double by;			/* slow_baseline: the factor */
};

/* Read one condition; -1 where text is none of the above. */
int wl_when_parse(const char *text, struct wl_when *out);

/* What the model knows of one variant: the work-group's shape, the launch's
 * grid where declared, the accesses, and the causes the catalog gives for a
 * measurement well above (faster) or below (slower) the prediction: each a
 * sentence, {"text", "when": [conditions]}, or a list of these (owned
 * references, NULL where none). */
struct wl_model {
	int dims;			/* 1 or 2 */
	struct wl_expr local[2];	/* work-group size per dimension */
	int has_grid;
	struct wl_expr grid[2];		/* global size per dimension */
	int naccesses;
	struct wl_access *accesses;
	/* The barriers a work-group crosses, one per trip of the loop this
	 * pseudo-access holds ("barriers" in the declaration); has_barriers 0
	 * where none is declared. */
	int has_barriers;
	struct wl_access barriers;
	json_t *faster, *slower;
	json_t *shown;			/* the declaration, as GET /api/experiments shows it */
};

/* The shape and departures an experiment gives all its variants: its "model"
 * object without "accesses". NULL obj leaves *out empty (dims 0). */
struct wl_model_shape {
	json_t *local, *grid;		/* borrowed arrays of expression strings, or NULL */
	json_t *faster, *slower;	/* borrowed causes, or NULL */
};

/* Read obj (a variant's "model" object, or for a custom kernel
 * {"accesses": [...]}) over params[0..nparams), taking from base what it does
 * not say. Errors begin with where and name the field and the expression:
 * "variant 'naive' model accesses[1].index: expression 'x*m': unknown variable
 * 'm' (known: ...)". Caller frees *out with wl_model_free(). */
int wl_model_load(const json_t *obj, const struct wl_model_shape *base,
		  const char *const *params, int nparams, const char *where,
		  struct wl_model **out, struct wl_error *err);

/* Read an experiment's "model" object (local, grid, faster, slower) into *out,
 * borrowing from obj. -1 with a message beginning with where for a key or
 * type it does not allow; *out is then not to be used. */
int wl_model_shape_load(const json_t *obj, struct wl_model_shape *out, const char *where,
			struct wl_error *err);

void wl_model_free(struct wl_model *m);

#endif
