/* Everything a run needs, gathered from its claim before the first point:
 * the experiment and its family's host code, the device, the points, the
 * variants (the built-ins it names, then its custom kernels), the family's
 * source and the run's provenance hash, how it samples and whether it runs
 * cold. */
#ifndef WL_RUN_PLAN_H
#define WL_RUN_PLAN_H

#include "build_records.h"
#include <jansson.h>

#include "catalog.h"
#include "device.h"
#include "experiment.h"
#include "source.h"
#include "points.h"
#include "run_request.h"
#include "stats.h"
#include "store.h"
#include "time_budget.h"

/* One variant of a run as the executor measures it. A custom kernel carries a
 * copy of its "like" variant's definition — so the family's host code
 * launches and verifies it exactly as that variant — with the kernel name
 * replaced by its entry point, and its own source. */
struct wl_run_variant {
	const char *name;		/* the result rows' variant */
	struct wl_variant_def def;
	struct wl_source source;	/* custom kernels only */
	int custom;
	/* A variant of the request's own experiment: a custom kernel (someone
	 * else's code) that stands in for nothing: its own definition, checked
	 * against the experiment's reference. */
	int own;
};

struct wl_run_plan {
	const struct wl_experiment *exp;
	const struct wl_experiment_ops *ops;
	struct wl_device *dev;
	struct wl_run_request req;	/* the stored request, typed once: its json, points */
	struct wl_run_variant *variants;
	const struct wl_variant_def **defs;	/* variants[k].def, for the deadline */
	size_t nvariants;
	struct wl_source source;
	char source_hash[40];		/* the family's, "+" the custom kernels' */
	long long repeat;
	unsigned long long seed;
	int cold;			/* flush the cache before each timed launch */
	int noise_driven;		/* else exactly repeat launches (older requests) */
	struct wl_sampling sampling;
	struct wl_time_budget budget;
	struct wl_build_records builds;	/* what its variants were built as */
	struct wl_warm_kernels warm;	/* its variants that need no more warm-ups */
	/* What the run measures through, chosen by the request's language
	 * (backend.h); source is written for it. */
	const struct wl_backend *backend;
	/* A run whose backend counts profiles each variant once more for its
	 * hardware counters: the request's "counters" is "on" (or absent: runs
	 * queued before the field existed were counted). */
	int counters;
	int energy;			/* each variant's energy measured (energy.h) */
	/* A tuning run's configurations at one size share their inputs: point
	 * i's are made from the seed of point inputs_of[i], the size's first
	 * (NULL: every point its own). */
	size_t *inputs_of;
};

/* Variant k of a normalized request for exp (its built-ins, then its custom
 * kernels) into *rv: a custom kernel carries its like variant's definition
 * with its entry point and its own source. Caller frees rv->source with
 * wl_source_free(); on failure (-1, why says which) nothing is left to free. */
int wl_run_variant_make(const struct wl_experiment *exp, const json_t *request, size_t k,
			struct wl_run_variant *rv, struct wl_error *why);

/* Bytes or operations per second that any device reaches, slow enough for a
 * two-core CPU through PoCL: what a point's deadline is computed at. */
#define WL_FLOOR_RATE 5e7

/* Fill *p from claim against the runner's catalog, devices and kernels
 * folder; unconfined (or NULL) is why custom kernels may not run here. On
 * failure (-1) why holds the run's failure message and *p must still be
 * freed with wl_run_plan_free(). */
int wl_run_plan_make(const struct wl_catalog *cat, struct wl_devices *devs,
		     const char *kernels_dir, const char *unconfined, const struct wl_claim *claim,
		     struct wl_run_plan *p, struct wl_error *why);
void wl_run_plan_free(struct wl_run_plan *p);

/* The plan of a run of e at the catalog's defaults on device_id, as a form
 * left as it is queues it: what an idle runner traces, and what a starting
 * one builds ahead. -1 with why set; *p must be freed either way. */
int wl_run_plan_defaults(const struct wl_catalog *cat, struct wl_devices *devs, const char *kernels_dir,
			 const struct wl_experiment *e, const char *device_id, struct wl_run_plan *p,
			 struct wl_error *why);

/* The seed point i's inputs are made from: the run's seed derived for the
 * point, or for a tuning run for the first point of i's size, so that
 * every configuration of a size is measured on the same inputs, whichever
 * device measures it. */
uint64_t wl_run_plan_point_seed(const struct wl_run_plan *p, size_t i);

/* The bytes each cold launch of the run writes first, 0 for a hot run. */
size_t wl_run_plan_flush_bytes(const struct wl_run_plan *p, size_t flush_max);

/* Each variant's extra seconds: its sampling budget, its cache flushes at
 * the floor rate, and its energy's burst. */
double wl_run_plan_extra_seconds(const struct wl_run_plan *p, long long warmup, size_t flush_max);

#endif
