/* What measuring one variant at one point produced, and the exact checks of
 * its output against the CPU's reference: element by element, bit for bit,
 * or a sum of partial sums with a stated tolerance of zero. */
#ifndef WL_VERIFY_H
#define WL_VERIFY_H

#include <stddef.h>

#include "request.h"
#include "stats.h"

/* What measuring one variant at one point produced. */
struct wl_measurement {
	struct wl_stats stats;		/* of the timed launches, in ms */
	long long reps;
	int verified;			/* 1 matched, 0 did not, -1 not checked (a check of "none") */
	char error[512];		/* why the point has no valid result, or "" */
	char note[160];			/* something a reader should know, or "" */
	double bytes, ops;		/* when > 0, replace the catalog's count */
	char extra[1024];		/* a JSON object of figures beside the time, or "" */
	char energy[512];		/* a JSON object of its energy (energy.h), or "": not asked */
	enum wl_stop stop;		/* why sampling ended */
	long long discarded;		/* samples dropped (taken while throttled) */
	float samples[WL_REPEAT_MAX];	/* the reps samples kept, in ms */
};

/* Compare n floats bit for bit (data movement must not change a value);
 * describe the first difference and the count in res->error. Returns whether
 * they all match. */
int wl_verify_exact_float(const float *got, const float *want, size_t n, size_t row_len,
			  struct wl_measurement *res);

/* The same against expected values computed per element: want(ctx, i) is
 * element i of the reference, evaluated where it is compared so that a
 * reference that is a pure function of the index is never held in memory. */
typedef float (*wl_expected_fn)(const void *ctx, size_t i);
int wl_verify_exact_float_fn(const float *got, wl_expected_fn want, const void *ctx, size_t n,
			     size_t row_len, struct wl_measurement *res);

/* One such comparison as data: got against array, or against want(ctx, i)
 * when array is NULL. */
struct wl_exact_check {
	const float *got;
	const float *array;
	wl_expected_fn want;
	const void *ctx;
	size_t n, row_len;
};
int wl_exact_check_run(const struct wl_exact_check *job, struct wl_measurement *res);

/* The tolerance of the sum checks, stated: zero. Reductions and dot products run
 * on nonzero integers of magnitude at most 8 (wl_rng_fill_small_int), so every
 * partial sum the device forms, in whatever order, is an integer far below 2^24
 * and exact in float; the device's result must equal the CPU's double result
 * exactly, and one dropped or doubled element is seen. */
#define WL_SUM_TOLERANCE 0.0

/* Add the device's count partial sums in double and compare with want within
 * WL_SUM_TOLERANCE; explain a mismatch (or a poisoned partial) in res->error.
 * Returns whether it matched. */
int wl_verify_partial_sums(const float *partials, size_t count, double want,
			   struct wl_measurement *res);

#endif
