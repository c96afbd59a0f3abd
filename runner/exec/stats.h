/* Statistics of repeated timings: the median is what results report, with a
 * distribution-free 95% confidence interval of it (from order statistics), the
 * interquartile spread, and the rule that decides when enough samples have
 * been taken. */
#ifndef WL_STATS_H
#define WL_STATS_H

#include <stddef.h>

struct wl_stats {
	double median, min, max;
	double q1, q3;			/* quartiles (the medians of each half) */
	double ci_low, ci_high;		/* 95% interval of the median; min/max when n < 6 */
	size_t n;
};

/* Summarise n > 0 samples (not modified). The median of an even count is the
 * mean of the two middle samples. Returns -1 when n is 0 or memory runs out. */
int wl_stats_summary(const double *samples, size_t n, struct wl_stats *out);

/* The 1-based ranks (j, k) of the order statistics that bound the median of n
 * samples with at least 95% confidence: the sign-test interval, j the largest
 * rank with P(Binomial(n, 1/2) < j) <= 2.5%, k = n + 1 - j. For n < 6 no pair
 * reaches 95% and the whole range (1, n) is returned. */
void wl_median_ci_ranks(size_t n, size_t *j, size_t *k);

/* Half the interval's width relative to the median: the "±" of a result. */
double wl_stats_rel_ci(const struct wl_stats *s);

/* (q3 - q1) / median: how spread the samples are. */
double wl_stats_rel_spread(const struct wl_stats *s);

/* When to stop timing a point. */
struct wl_sampling {
	size_t min_samples;		/* never judge on fewer */
	size_t max_samples;		/* the request's repeat */
	double target;			/* stop when wl_stats_rel_ci <= target (0.01: ±1%) */
	double budget_ms;		/* stop when this much wall time has gone */
};

enum wl_stop { WL_STOP_MORE = 0, WL_STOP_NOISE, WL_STOP_BUDGET, WL_STOP_MAX };

/* Whether sampling may stop after these n samples taking elapsed_ms, and why.
 * Reaching the target wins over the other reasons at the same count. */
enum wl_stop wl_sampling_verdict(const struct wl_sampling *rule, const double *samples, size_t n,
				 double elapsed_ms);

/* "noise", "budget", "max". */
const char *wl_stop_name(enum wl_stop s);

#endif
