/* A request's kernels predicted from their declared accesses and the
 * device's measured facts, before anything runs: the model a tuning run's
 * ranking scores configurations with (tuning_rank.c), and the kernel time a
 * run's estimate falls back on where no run of its experiment has finished
 * on the device (api_estimate.c). */
#ifndef WL_REQUEST_PREDICT_H
#define WL_REQUEST_PREDICT_H

#include <jansson.h>

#include "catalog.h"
#include "error.h"
#include "work.h"

/* What predicting a request's kernels on a device takes: the device's
 * measured model, its warp's lanes, the request's cache mode and, where
 * known, the limits of the device's architecture (an entry of the catalog's
 * gpu_limits.json: each configuration's occupancy before it is built). */
struct wl_request_model {
	struct wl_device_model dm;
	int lanes, hot;
	const json_t *arch;		/* NULL: every configuration at the most warps resident */
};

/* The model of normalized (a validated request) on device (its record,
 * with facts), its DRAM rate copy_gbps or, where 0, the float4 copy's fact,
 * its architecture's limits from cat's gpu_limits.json where known, into
 * *m. 0, or -1 where the device has no measured facts to predict with (*m
 * then not to be used). */
int wl_request_model_init(const struct wl_catalog *cat, const json_t *normalized, const json_t *device,
			  double copy_gbps, struct wl_request_model *m);

/* The predicted time in ms of variant def (with declared accesses) of exp
 * at values (one per param) — at the warps a compute unit keeps resident of
 * it where m->arch is set: the occupancy calculator's limits of warps,
 * work-group slots and the variant's declared local memory, its registers
 * unknown before a build — within the model's deadline (monotonic
 * seconds); -1 with err where the model gives none. */
double wl_request_model_ms(const struct wl_request_model *m, const struct wl_experiment *exp,
			   const struct wl_variant_def *def, const long long *values, double deadline,
			   struct wl_error *err);

/* The seconds the kernels of normalized should take on device by the model,
 * each point and variant's predicted time over the launches its sampling
 * makes: *least where each meets its noise target at its first judgement
 * (WL_MIN_SAMPLES launches, or repeat where fewer; the budget may stop it
 * sooner), *most where none does (repeat, cut where the budget is spent);
 * within max_s of predicting. Returns 1 with both, 0 where the model
 * cannot time every measurement (custom kernels, a variant without
 * declared accesses, a device without facts, past max_s, or out of memory
 * while predicting: an estimate goes without), -1 when out of memory
 * expanding the points; both 0 unless 1. */
int wl_request_kernel_seconds(const struct wl_catalog *cat, const json_t *normalized, const json_t *device,
			      double max_s, double *least, double *most);

#endif
