/* The host side of an experiment family, one file each (exp_copy.c,
 * exp_transpose.c, ...). For every point of a run the executor calls setup once
 * (allocate, fill inputs from the point's seed, compute the CPU reference), then
 * measure once per variant (poison the output, time the launches, read back,
 * verify), then teardown. */
#ifndef WL_EXPERIMENT_H
#define WL_EXPERIMENT_H

#include <stdint.h>

#include "catalog.h"
#include "cl_device.h"
#include "cl_program.h"
#include "measure.h"
#include "request.h"
#include "stats.h"
#include "time_budget.h"

/* One point of a run, as the host code sees it. */
struct wl_point {
	struct wl_cl_device *dev;
	const struct wl_experiment *exp;
	const long long *values;	/* one per param, in catalog order */
	uint64_t seed;			/* for this point's inputs */
	long long warmup, repeat;
	struct wl_program_cache *programs;
	const struct wl_source *source;
	/* For a custom kernel (pt->source is its code): the family's source and
	 * the built-in kernel it stands in for, whose parameters it must take. */
	const struct wl_source *family;
	const char *like_kernel;
	/* How long to sample (pt->repeat is the most samples; NULL: exactly
	 * repeat), and the flush before each launch for cold timings (NULL: hot). */
	const struct wl_sampling *sampling;
	const struct wl_flush *flush;
	struct wl_time_budget *budget;	/* where the helpers count their time, or NULL */
	/* Where exact checks run while the next variant is timed; NULL: they
	 * run before measure returns. */
	struct wl_checker *checker;
};

/* What measuring one variant at one point produced. */
struct wl_measurement {
	struct wl_stats stats;		/* of the timed launches, in ms */
	long long reps;
	int verified;
	char error[512];		/* why the point has no valid result, or "" */
	char note[160];			/* something a reader should know, or "" */
	double bytes, ops;		/* when > 0, replace the catalog's count */
	char extra[256];		/* a JSON object of figures beside the time, or "" */
	enum wl_stop stop;		/* why sampling ended */
	long long discarded;		/* samples dropped (taken while throttled) */
	float samples[WL_REPEAT_MAX];	/* the reps samples kept, in ms */
};

struct wl_experiment_ops {
	const char *id;		/* the catalog's experiment id */
	/* Prepare the point; *state is passed to measure and teardown. A failure
	 * here (an OpenCL error) fails the run. */
	int (*setup)(const struct wl_point *pt, void **state, struct wl_error *err);
	/* Measure variant v. A wrong result is not a failure: it is recorded as
	 * verified = 0 with the reason in res->error. Return -1 only for errors
	 * that stop the run (OpenCL errors, out of memory). */
	int (*measure)(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
		       struct wl_measurement *res, struct wl_error *err);
	void (*teardown)(void *state);
};

/* The host implementation of experiment id, or NULL. */
const struct wl_experiment_ops *wl_experiment_ops_find(const char *id);

/* Fail, naming them, if some catalog experiments have no host implementation,
 * or if the catalog lists a test-only experiment and allow_test is 0. */
int wl_experiments_check(const struct wl_catalog *cat, int allow_test, struct wl_error *err);

/* The value of param name at pt (the catalog guarantees it exists). */
long long wl_point_value(const struct wl_point *pt, const char *name);

/* ---- helpers shared by the experiment files ---- */

/* The kernel called name from pt's source built with options. Caller releases
 * it with clReleaseKernel(). */
int wl_point_kernel(const struct wl_point *pt, const char *options, const char *name,
		    cl_kernel *out, struct wl_error *err);

/* A device buffer of bytes, filled from init when not NULL. */
int wl_point_buffer(const struct wl_point *pt, cl_mem_flags flags, size_t bytes,
		    const void *init, cl_mem *out, struct wl_error *err);

/* A device buffer of n floats with the random values that wl_rng_fill_float
 * (small_int_max 0) or wl_rng_fill_small_int (with that max) would write from
 * r, made on the device; host, when not NULL, receives the same values (a
 * reference that evaluates wl_rng_float_at() per element needs none), and r
 * advances as those fills advance it. */
struct wl_rng;
int wl_point_random(const struct wl_point *pt, struct wl_rng *r, size_t n, int small_int_max,
		    float *host, cl_mem_flags flags, cl_mem *out, struct wl_error *err);

/* Fill buf with 0xFF bytes (NaN as floats) so that an element the kernel does
 * not write fails verification. */
int wl_point_poison(const struct wl_point *pt, cl_mem buf, size_t bytes, struct wl_error *err);

/* Read bytes of buf back into out (blocking). */
int wl_point_read(const struct wl_point *pt, cl_mem buf, size_t bytes, void *out,
		  struct wl_error *err);

/* Time launch l after pt->warmup warm-ups into res, in batches, until
 * pt->sampling says the median is known well enough (or its budget or
 * pt->repeat samples are reached). A work-group size the driver refuses is
 * recorded in res->error (the point fails, not the run). */
int wl_point_time(const struct wl_point *pt, const struct wl_launch *l,
		  struct wl_measurement *res, struct wl_error *err);

/* The steps every variant takes: poison out (bytes), time launch l, read out
 * back into the device's pinned staging memory, *host pointing at it (valid
 * until the next wl_point_run on the device). Returns 1 when the output is
 * there to verify, 0 when the point failed without output (res->error says
 * why), -1 for an error that stops the run. */
int wl_point_run(const struct wl_point *pt, const struct wl_launch *l, cl_mem out, size_t bytes,
		 const void **host, struct wl_measurement *res, struct wl_error *err);

/* Release *m if set and clear it; for teardown functions. */
void wl_mem_release(cl_mem *m);

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

/* Check a variant's output exactly, setting res->verified: in the background
 * (pt->checker) while the next variant is timed, else now. The output (in
 * staging memory) and the reference must stay as they are until the executor
 * has waited for the check, which it does before a point's teardown. */
void wl_point_verify(const struct wl_point *pt, const struct wl_exact_check *job,
		     struct wl_measurement *res);

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
