/* Exact verification of a variant's output (see verify.h): on every core,
 * counting the differences and naming the first. */
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int wl_verify_partial_sums(const float *partials, size_t count, double want,
			   struct wl_measurement *res)
{
	double got = 0;

	for (size_t i = 0; i < count; i++) {
		if (!isfinite(partials[i])) {
			snprintf(res->error, sizeof(res->error),
				 "verification failed: partial sum %zu of %zu was never written", i, count);
			return 0;
		}
		got += partials[i];
	}
	if (fabs(got - want) > WL_SUM_TOLERANCE) {
		snprintf(res->error, sizeof(res->error),
			 "verification failed: the sum is %.17g, the CPU's is %.17g (off by %.17g; tolerance %g)",
			 got, want, got - want, WL_SUM_TOLERANCE);
		return 0;
	}
	return 1;
}

int wl_exact_check_run(const struct wl_exact_check *job, struct wl_measurement *res)
{
	const float *got = job->got, *array = job->array;
	size_t n = job->n, row_len = job->row_len, bad = 0, first = n;
	float expected;

	/* On every core: the count of differences and the first of them. Dynamic
	 * chunks, because the thread that times the next variant may be busy
	 * waiting on one of the cores. */
#pragma omp parallel for reduction(+ : bad) reduction(min : first) schedule(dynamic, 65536) if (n > 65536)
	for (size_t i = 0; i < n; i++) {
		float w = array ? array[i] : job->want(job->ctx, i);

		if (memcmp(&got[i], &w, sizeof(float)) != 0) {
			bad++;
			if (i < first)
				first = i;
		}
	}
	if (bad == 0)
		return 1;
	expected = array ? array[first] : job->want(job->ctx, first);
	if (row_len > 1)
		snprintf(res->error, sizeof(res->error),
			 "verification failed: %zu of %zu elements differ; first at [%zu][%zu]: got %.9g, expected %.9g",
			 bad, n, first / row_len, first % row_len, (double)got[first],
			 (double)expected);
	else
		snprintf(res->error, sizeof(res->error),
			 "verification failed: %zu of %zu elements differ; first at [%zu]: got %.9g, expected %.9g",
			 bad, n, first, (double)got[first], (double)expected);
	return 0;
}

int wl_verify_exact_float(const float *got, const float *want, size_t n, size_t row_len,
			  struct wl_measurement *res)
{
	const struct wl_exact_check job = { .got = got, .array = want, .n = n, .row_len = row_len };

	return wl_exact_check_run(&job, res);
}

int wl_verify_exact_float_fn(const float *got, wl_expected_fn want, const void *ctx, size_t n,
			     size_t row_len, struct wl_measurement *res)
{
	const struct wl_exact_check job = { .got = got, .want = want, .ctx = ctx, .n = n,
					    .row_len = row_len };

	return wl_exact_check_run(&job, res);
}
