/* A run request (the body of POST /api/runs): validation against the catalog
 * and normalisation (defaults and a seed filled in), and the limits and
 * defaults of its fields. Its points are expanded by points.h, its fit on a
 * device checked by device_fit.h. */
#ifndef WL_REQUEST_H
#define WL_REQUEST_H

#include <jansson.h>
#include <stddef.h>

#include "catalog.h"
#include "error.h"

#define WL_SEED_MAX ((1LL << 53) - 1)	/* exact in a JavaScript number */
#define WL_LABEL_MAX 200		/* characters */
#define WL_REPEAT_MAX 10000		/* timed launches of a point, at most: enough for ±1% on kernels of a few µs */
#define WL_REPEAT_DEFAULT 100
#define WL_NOISE_DEFAULT 0.01		/* the median known to ±1% at 95% */
#define WL_NOISE_MIN 0.0001
#define WL_NOISE_MAX 0.5
#define WL_BUDGET_MS_DEFAULT 1000	/* sampling time per point and variant */
#define WL_BUDGET_MS_MAX 60000

/* The cache mode a request for exp gets when it names none: "cold" (DRAM
 * figures) for a bandwidth experiment, "hot" otherwise. */
const char *wl_request_default_cache(const struct wl_experiment *exp);

/* A stored request's cache mode, in one meaning for every reader: its
 * "cache"; absent in runs queued before cold mode existed, which timed
 * hot. */
enum wl_cache_mode { WL_CACHE_HOT, WL_CACHE_COLD };
enum wl_cache_mode wl_request_cache(const json_t *request);
/* "hot" or "cold". */
const char *wl_cache_mode_name(enum wl_cache_mode mode);

/* The request's defaults and limits as GET /api/experiments shows them, so a
 * form starts from the server's values: {"repeat", "repeat_max", "noise",
 * "budget_ms"}. Caller owns; NULL when out of memory. */
json_t *wl_request_defaults_json(void);

/* The language a request body asks for: "opencl" or "cuda" (its
 * "language", else its custom kernels', all alike: a run is in one
 * language; else "opencl"). NULL with err naming the field where it names
 * another, or where a kernel's differs. A body that is not an object is
 * "opencl" here (wl_request_validate says what is wrong with it). */
const char *wl_request_language(const json_t *body, struct wl_error *err);

/* Validate body against cat. On success *normalized (caller owns the reference)
 * holds every field with defaults and a seed filled in, and *measurements the
 * number of (variant, point) pairs. Errors carry the API's kind and field. */
int wl_request_validate(const struct wl_catalog *cat, const json_t *body, json_t **normalized,
			long long *measurements, struct wl_error *err);

#endif
