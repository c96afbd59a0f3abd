/* A run request (the body of POST /api/runs): validation against the catalog
 * and normalisation (defaults and a seed filled in), the limits and
 * defaults of its fields, and how a stored one reads (what "absent" means).
 * Its points are expanded by points.h, its fit on a device checked by
 * device_fit.h; run_request.h types a stored one whole for the runner. */
#ifndef WL_REQUEST_H
#define WL_REQUEST_H

#include <jansson.h>
#include <stddef.h>

#include "catalog.h"
#include "error.h"
#include "language.h"

#define WL_SEED_MAX ((1LL << 53) - 1)	/* exact in a JavaScript number */
#define WL_LABEL_MAX 200		/* characters */
#define WL_REPEAT_MAX 10000		/* timed launches of a point, at most: enough for ±1% on kernels of a few µs */
#define WL_REPEAT_DEFAULT 100
#define WL_NOISE_DEFAULT 0.01		/* the median known to ±1% at 95% */
#define WL_NOISE_MIN 0.0001
#define WL_NOISE_MAX 0.5
#define WL_BUDGET_MS_DEFAULT 1000	/* sampling time per point and variant */
#define WL_BUDGET_MS_MAX 60000
/* Samples a point takes at least before its noise is judged (fewer when the
 * request's repeat is smaller). */
#define WL_MIN_SAMPLES 10

/* The cache mode a request for exp gets when it names none: "cold" (DRAM
 * figures) for a bandwidth experiment, "hot" otherwise. */
const char *wl_request_default_cache(const struct wl_experiment *exp);

/* A stored request's cache mode, in one meaning for every reader: its
 * "cache"; absent in runs queued before cold mode existed, which timed
 * hot. wl_run_settings_read's cache (below), for a reader that needs no
 * other field; a value no validator writes reads as absent. */
enum wl_cache_mode { WL_CACHE_HOT, WL_CACHE_COLD };
enum wl_cache_mode wl_request_cache(const json_t *request);
/* "hot" or "cold". */
const char *wl_cache_mode_name(enum wl_cache_mode mode);

/* How a stored (normalized) request runs, read by one set of rules for every
 * reader, the runner's plan and the server's pages alike. The validator
 * writes every field; a request queued by an older server may lack some,
 * and "absent" means, here and nowhere else:
 *   language   WL_LANG_DEFAULT (language.h holds that rule)
 *   cache      hot (runs queued before cold mode timed hot)
 *   noise      not given (noise_given 0): the run was sampled exactly
 *              repeat times, before sampling was driven by noise; noise
 *              then reads WL_NOISE_DEFAULT, the least change that counts
 *              between two runs' times
 *   budget_ms  WL_BUDGET_MS_DEFAULT (it came with noise: only a run with
 *              noise given spends it)
 *   counters   on (runs queued before the field existed were counted)
 *   energy     off (runs queued before the field existed measured none)
 *   repeat     WL_REPEAT_DEFAULT; a stored one outside 1..WL_REPEAT_MAX is
 *              brought into it
 *   seed       0
 *   device     "auto"
 *   label      none (NULL) */
struct wl_run_settings {
	const char *device;		/* "auto", "gpu", "cpu" or a device id */
	const char *label;		/* NULL when none */
	enum wl_language language;
	enum wl_cache_mode cache;
	long long repeat;		/* timed launches of a point, at most */
	long long seed;
	double noise;			/* the median's 95% half-width aimed at, a fraction */
	int noise_given;		/* 0: sampled exactly repeat times */
	long long budget_ms;		/* sampling time per point and variant */
	int counters;			/* a CUDA run profiles each variant's counters */
	int energy;			/* each variant's energy measured too, in a burst
					 * of its launches beside its timed ones */
};

/* Read stored (a normalized request; NULL reads as all absent) into *out by
 * the rules above; its strings are borrowed from stored. *out is complete
 * either way. 0, or -1 with err naming the first field whose value no
 * validator writes (a language other than "opencl" or "cuda", a repeat that
 * is not an integer, ...), its value and what is allowed; that field then
 * reads as absent. A reader that shows a stored run may go on with *out;
 * one that executes it should refuse. */
int wl_run_settings_read(const json_t *stored, struct wl_run_settings *out, struct wl_error *err);

/* The request's defaults and limits as GET /api/experiments shows them, so a
 * form starts from the server's values: {"repeat", "repeat_max", "noise",
 * "budget_ms"}. Caller owns; NULL when out of memory. */
json_t *wl_request_defaults_json(void);

/* The language a request body asks for, into *out: its "language", else its
 * custom kernels', all alike; else WL_LANG_DEFAULT (language.h). 0, or -1
 * with err naming the field where it names another language or where a
 * kernel's differs (*out then untouched). A body that is not an object is in
 * the default language here (wl_request_validate says what is wrong with
 * it). */
int wl_request_language(const json_t *body, enum wl_language *out, struct wl_error *err);

/* Validate body against cat. On success *normalized (caller owns the reference)
 * holds every field with defaults and a seed filled in, and *measurements the
 * number of (variant, point) pairs. Errors carry the API's kind and field;
 * on failure *normalized is left as it was. */
int wl_request_validate(const struct wl_catalog *cat, const json_t *body, json_t **normalized,
			long long *measurements, struct wl_error *err);

/* wl_request_validate for a caller that has decided the body's language
 * already with wl_request_language (which must have given lang for body),
 * so it is decided once per request. The same results and errors. */
int wl_request_validate_in(const struct wl_catalog *cat, const json_t *body, enum wl_language lang,
			   json_t **normalized, long long *measurements, struct wl_error *err);

#endif
