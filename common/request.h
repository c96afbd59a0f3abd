/* A run request (the body of POST /api/runs): validation against the catalog,
 * normalisation (defaults and seed filled in), expansion of parameter specs into
 * the run's points, and the check that a device can hold it. The server uses all
 * of it before queueing; the runner uses the expansion to execute. */
#ifndef WL_REQUEST_H
#define WL_REQUEST_H

#include <jansson.h>
#include <stddef.h>

#include "catalog.h"
#include "error.h"

#define WL_PARAM_VALUE_MAX (1LL << 40)
#define WL_SEED_MAX ((1LL << 53) - 1)	/* exact in a JavaScript number */
#define WL_LABEL_MAX 200		/* characters */
#define WL_REPEAT_MAX 10000		/* timed launches of a point, at most: enough for ±1% on kernels of a few µs */
#define WL_REPEAT_DEFAULT 100
#define WL_NOISE_DEFAULT 0.01		/* the median known to ±1% at 95% */
#define WL_NOISE_MIN 0.0001
#define WL_NOISE_MAX 0.5
#define WL_BUDGET_MS_DEFAULT 1000	/* sampling time per point and variant */
#define WL_BUDGET_MS_MAX 60000

/* Validate one param spec (a value, a list, or {"from","to","step"|"mul"}) for
 * param index p of exp, checking each value on its own (min, max, pow2, a fixed
 * multiple). *count is how many values it yields. Lists longer than max_list
 * fail. Errors name the field as params.<name>. */
int wl_param_spec_count(const struct wl_experiment *exp, int p, const json_t *spec,
			long long max_list, long long *count, struct wl_error *err);

/* Validate body against cat. On success *normalized (caller owns the reference)
 * holds every field with defaults and a seed filled in, and *measurements the
 * number of (variant, point) pairs. Errors carry the API's kind and field. */
int wl_request_validate(const struct wl_catalog *cat, const json_t *body, json_t **normalized,
			long long *measurements, struct wl_error *err);

/* A run's points: count rows of nparams values, in the catalog's param order,
 * the last param varying fastest. */
struct wl_points {
	size_t count, nparams;
	long long *values;	/* count * nparams */
};

/* Expand a normalized request's params for exp into *out (caller frees with
 * wl_points_free). Checks the constraints between params (n a multiple of tile). */
int wl_request_points(const struct wl_experiment *exp, const json_t *normalized,
		      struct wl_points *out, struct wl_error *err);
void wl_points_free(struct wl_points *pts);

/* The point's values as a JSON object {"n": 256, ...}. Caller owns it. */
json_t *wl_point_to_json(const struct wl_experiment *exp, const struct wl_points *pts, size_t i);

/* "n=8192, tile=32, rows=8": a point's values (one per param of exp) for
 * messages. */
void wl_point_text(const struct wl_experiment *exp, const long long *values, char *buf,
		   size_t len);

/* What a device offers, for the 422 check. */
struct wl_device_limits {
	const char *id;
	double global_mem, max_alloc, local_mem;
	long long max_work_group;
};

/* Whether dev can run every (variant, point) of the normalized request: memory,
 * largest buffer, local memory, work-group size. Fails with WL_ERR_DEVICE_LIMIT
 * naming the first point that does not fit. */
int wl_request_check_device(const struct wl_experiment *exp, const json_t *normalized,
			    const struct wl_device_limits *dev, struct wl_error *err);

#endif
