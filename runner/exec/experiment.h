/* The host side of an experiment: the one of every experiment declared as
 * data (runner/families/exp_declared.c), and a test's own. For every point
 * of a run the executor calls setup once (allocate, fill inputs from the
 * point's seed, prepare the CPU reference), then measure once per variant
 * (poison the output, time the launches, read back, verify), then
 * teardown — or, where the next point can use what setup made, reuse. The helpers they share are point.h's and
 * verify.h's. */
#ifndef WL_EXPERIMENT_H
#define WL_EXPERIMENT_H

#include "catalog.h"
#include "point.h"
#include "verify.h"

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
	/* Whether state, set up at point prev, serves pt as it is — the same
	 * inputs, sizes, scalars and reference — made ready for pt's variants
	 * where it is (1), or not (0: the executor tears it down and sets pt
	 * up). A tuning run's configurations of one size share their inputs,
	 * so only the first is set up. NULL: every point is set up. */
	int (*reuse)(const struct wl_point *prev, const struct wl_point *pt, void *state);
	/* The options its source is built with at pt, into out (len bytes):
	 * one rule for measure, which builds, and for the runner, which builds
	 * the catalog's programs ahead (program_ahead.h). NULL: none. */
	void (*options)(const struct wl_point *pt, char *out, size_t len);
};

/* ops' build options at pt ("" where it has none) into out. */
void wl_experiment_options(const struct wl_experiment_ops *ops, const struct wl_point *pt, char *out,
			   size_t len);

/* The host implementation of exp: the declared one where it declares its
 * buffers as data, else a test-only family's by id; NULL where there is
 * none. */
const struct wl_experiment_ops *wl_experiment_ops_find(const struct wl_experiment *exp);

/* Fail, naming them, if some catalog experiments have no host implementation
 * or name a reference the runner has not (or an output it does not know), or
 * if the catalog lists a test-only experiment and allow_test is 0. */
int wl_experiments_check(const struct wl_catalog *cat, int allow_test, struct wl_error *err);

#endif
