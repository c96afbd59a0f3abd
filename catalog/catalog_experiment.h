/* One experiment of the catalog as loaded: its params, its variants (the
 * kernels), the cost formulas each is counted by and the accesses each
 * declares; and the lookups over it that the catalog's loading, its costs and
 * every reader share. This is the floor of the catalog's own files: it calls
 * nothing of catalog_load, catalog_cost, catalog_json or catalog, which all
 * call it (catalog.h is the header the rest of warplab reads). */
#ifndef WL_CATALOG_EXPERIMENT_H
#define WL_CATALOG_EXPERIMENT_H

#include <jansson.h>
#include <stddef.h>

#include "access_model.h"
#include "error.h"
#include "expr.h"
#include "launch_decl.h"
#include "param_spec.h"

struct wl_exp_data;

/* A cost formula ("8*n*n + 4*tile"): an expression over the experiment's
 * params, restricted to sums of products (WL_EXPR_COST). Parsed and
 * evaluated by catalog_cost.h. */
struct wl_cost {
	struct wl_expr expr;
};

/* What a variant costs; each formula is evaluated at a point's values. */
enum wl_cost_kind {
	WL_COST_BYTES,		/* fewest bytes moved: the metric's numerator for bandwidth */
	WL_COST_OPS,		/* operations, for throughput experiments */
	WL_COST_MEMORY,		/* device memory the point allocates */
	WL_COST_BUFFER,		/* the largest single buffer */
	WL_COST_LOCAL,		/* local memory per work-group */
	WL_COST_WORK_GROUP,	/* work-items per work-group */
	WL_COST_KINDS
};

struct wl_variant_def {
	char *id, *title, *note, *kernel;
	char *launch;			/* how the harness launches it, in words, or NULL: the experiment's */
	struct wl_launch_decl host;	/* how the harness launches it, as data */
	int has_cost[WL_COST_KINDS];	/* overrides the experiment's formula when set */
	struct wl_cost cost[WL_COST_KINDS];
	struct wl_model *model;		/* its declared accesses, or NULL: no prediction */
};

enum wl_metric { WL_METRIC_BANDWIDTH, WL_METRIC_THROUGHPUT };

struct wl_experiment {
	char *id, *title, *lesson, *summary, *seed, *source;
	char *after;			/* the articles it follows, by title, or NULL */
	char *cuda_source;		/* its kernels' CUDA twins, for a run in CUDA, or NULL:
					 * the experiment runs in OpenCL alone */
	char *launch;			/* how the harness launches its kernels, for people
					 * writing their own (global and local size, -D options) */
	enum wl_metric metric;
	int needs_fp64;			/* runs in double where the device can */
	int baseline_param;		/* results are also shown relative to this param at */
	long long baseline_value;	/* baseline_value (e.g. c = 1); -1 when none */
	int reference;			/* the variant the lesson starts from (naive, interleaved...), whose
					 * time a run's verdict measures the fastest against; -1: none */
	int drops_param;		/* sweeps over this param are searched for drops, */
	double drops_threshold;		/* points this fraction below both neighbours; -1: none */
	size_t nparams, nvariants;
	struct wl_param_def *params;
	struct wl_variant_def *variants;
	int has_cost[WL_COST_KINDS];
	struct wl_cost cost[WL_COST_KINDS];
	json_t *model;			/* the shape its variants' models share, or NULL */
	json_t *host;			/* the launch its variants share (launch_decl.h) */
	/* Its buffers, scalars, defines and check as data (exp_data.h), or
	 * NULL where its family's code holds them. */
	struct wl_exp_data *data;	/* owned */
	/* A request's own experiment: source is the kernels' text itself,
	 * not a file of the kernels folder. */
	int own;
};

/* Free what exp holds (not exp itself), however much of it was read: the
 * fields it has not reached are zero. exp is then not to be used. */
void wl_experiment_clear(struct wl_experiment *exp);

/* The variant of exp with id, or NULL; index through *index when not NULL. */
const struct wl_variant_def *wl_experiment_variant(const struct wl_experiment *exp,
						   const char *id, size_t *index);

/* exp's variant ids as "a, b, c" into buf (cut to fit len), for messages. */
void wl_experiment_variant_list(const struct wl_experiment *exp, char *buf, size_t len);

/* The param of exp named name, or -1. */
int wl_experiment_param(const struct wl_experiment *exp, const char *name);

/* exp's param names in order, as an expression's name table; NULL when out of
 * memory. Caller frees the array (not the names, which exp owns). */
const char **wl_experiment_param_names(const struct wl_experiment *exp);

/* Read a declaration of accesses (a variant's "model" object, or a custom
 * kernel's {"accesses": [...]}) for exp, taking the work-group's shape and the
 * departure causes it does not give from like (the variant it describes or
 * stands in for: its model where loaded, else its launch declaration) and
 * then from the experiment. Errors begin with where; on failure *out is
 * NULL. Caller frees *out with wl_model_free(). */
int wl_experiment_model(const struct wl_experiment *exp, const struct wl_variant_def *like,
			const json_t *obj, const char *where, struct wl_model **out,
			struct wl_error *err);

/* "bandwidth" or "throughput". */
const char *wl_metric_name(enum wl_metric m);

#endif
