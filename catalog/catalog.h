/* The experiment catalog (kernels/catalog.json): experiments, their variants
 * (kernels), their parameters with limits and defaults, and how each variant's
 * bytes, operations and device needs are counted. Both binaries read it: the
 * server validates requests against it, the runner executes from it. */
#ifndef WL_CATALOG_H
#define WL_CATALOG_H

#include <jansson.h>
#include <stddef.h>

#include "access_model.h"
#include "error.h"
#include "expr.h"
#include "launch_decl.h"
#include "param_spec.h"

/* A cost formula ("8*n*n + 4*tile"): an expression over the experiment's
 * params, restricted to sums of products (WL_EXPR_COST). */
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
	char *cuda_source;		/* its kernels' CUDA twins (issue 27), or NULL */
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
};

struct wl_catalog {
	char *dir;			/* directory of catalog.json; kernel sources live there */
	size_t nexperiments;
	struct wl_experiment *experiments;
	long long max_measurements;	/* variants x points per run */
	long long max_list;		/* values in one list parameter */
	/* The architectures' occupancy limits, gpu_limits.json beside
	 * catalog.json (occupancy.h), or NULL where there is none. Owned. */
	json_t *gpu_limits;
};

/* Load and check the catalog at path: every field typed, every formula naming
 * known params, every default valid; and gpu_limits.json beside it where there
 * is one. On failure returns -1 with a message naming the file and entry. Caller frees *out with wl_catalog_free(). */
int wl_catalog_load(const char *path, struct wl_catalog **out, struct wl_error *err);
void wl_catalog_free(struct wl_catalog *cat);

/* The experiment with id, or NULL. */
const struct wl_experiment *wl_catalog_find(const struct wl_catalog *cat, const char *id);

/* The variant of exp with id, or NULL; index through *index when not NULL. */
const struct wl_variant_def *wl_experiment_variant(const struct wl_experiment *exp,
						   const char *id, size_t *index);

/* exp's variant ids as "a, b, c" into buf (cut to fit len), for messages. */
void wl_experiment_variant_list(const struct wl_experiment *exp, char *buf, size_t len);

/* The param of exp named name, or -1. */
int wl_experiment_param(const struct wl_experiment *exp, const char *name);

/* Whether variant v of exp has a formula of this kind (its own or the experiment's). */
int wl_variant_has_cost(const struct wl_experiment *exp, const struct wl_variant_def *v,
			enum wl_cost_kind kind);

/* Evaluate variant v's formula of kind at values (one per param of exp); 0 when
 * the variant has none. Computed in double so huge sizes cannot overflow. */
double wl_variant_cost(const struct wl_experiment *exp, const struct wl_variant_def *v,
		       enum wl_cost_kind kind, const long long *values);

/* Parse "8*n*n + 4*tile" against exp's params into *out; -1 with a message
 * quoting the formula and naming what is wrong (*out is then not to be used). */
int wl_cost_parse(const struct wl_experiment *exp, const char *text, struct wl_cost *out,
		  struct wl_error *err);

/* Read a declaration of accesses (a variant's "model" object, or a custom
 * kernel's {"accesses": [...]}) for exp, taking the work-group's shape and the
 * departure causes it does not give from like (the variant it describes or
 * stands in for: its model where loaded, else its launch declaration) and
 * then from the experiment. Errors begin with where; on failure *out is
 * NULL. */
int wl_experiment_model(const struct wl_experiment *exp, const struct wl_variant_def *like,
			const json_t *obj, const char *where, struct wl_model **out,
			struct wl_error *err);

/* The catalog as GET /api/experiments shows it. Caller owns the reference. */
json_t *wl_catalog_to_json(const struct wl_catalog *cat);

/* "bandwidth" or "throughput". */
const char *wl_metric_name(enum wl_metric m);

/* A cost kind's key in the catalog ("bytes", "work_group"). */
const char *wl_cost_name(enum wl_cost_kind kind);

#endif
