/* Order statistics by sorting a copy: sample counts are at most 1000. The
 * interval of the median is the sign-test (binomial) one, which assumes
 * nothing about the timings' distribution — they are skewed, with rare slow
 * outliers — and which an outlier cannot widen by more than one rank. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of sorted[0..n). */
static double median_of(const double *sorted, size_t n)
{
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

void wl_median_ci_ranks(size_t n, size_t *j, size_t *k)
{
	/* P(X <= r) for X ~ Binomial(n, 1/2), summed in logs so n = 1000 is
	 * exact enough; the largest j with P(X <= j - 1) <= 0.025. */
	double cdf = 0;
	size_t best = 0;

	for (size_t r = 0; r < n; r++) {
		cdf += exp(lgamma((double)n + 1) - lgamma((double)r + 1) - lgamma((double)(n - r) + 1) -
			   (double)n * log(2.0));
		if (cdf > 0.025)
			break;
		best = r + 1;
	}
	if (best == 0) {
		*j = 1;
		*k = n;
		return;
	}
	*j = best;
	*k = n + 1 - best;
}

int wl_stats_summary(const double *samples, size_t n, struct wl_stats *out)
{
	double *sorted;
	size_t j, k;

	if (n == 0)
		return -1;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	memcpy(sorted, samples, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_double);
	out->n = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = median_of(sorted, n);
	out->q1 = median_of(sorted, n / 2 ? n / 2 : 1);
	out->q3 = median_of(sorted + (n + 1) / 2 - (n == 1), n / 2 ? n / 2 : 1);
	wl_median_ci_ranks(n, &j, &k);
	out->ci_low = sorted[j - 1];
	out->ci_high = sorted[k - 1];
	free(sorted);
	return 0;
}

double wl_stats_rel_ci(const struct wl_stats *s)
{
	return s->median > 0 ? (s->ci_high - s->ci_low) / 2 / s->median : INFINITY;
}

double wl_stats_rel_spread(const struct wl_stats *s)
{
	return s->median > 0 ? (s->q3 - s->q1) / s->median : INFINITY;
}

enum wl_stop wl_sampling_verdict(const struct wl_sampling *rule, const double *samples, size_t n,
				 double elapsed_ms)
{
	struct wl_stats s;

	if (n >= rule->min_samples && n >= 6 && wl_stats_summary(samples, n, &s) == 0 &&
	    wl_stats_rel_ci(&s) <= rule->target)
		return WL_STOP_NOISE;
	if (n >= rule->max_samples)
		return WL_STOP_MAX;
	if (elapsed_ms >= rule->budget_ms && n >= 1)
		return WL_STOP_BUDGET;
	return WL_STOP_MORE;
}

const char *wl_stop_name(enum wl_stop s)
{
	switch (s) {
	case WL_STOP_NOISE: return "noise";
	case WL_STOP_BUDGET: return "budget";
	case WL_STOP_MAX: return "max";
	case WL_STOP_MORE: break;
	}
	return "more";
}
