/* How long a point, and the first launch of someone else's kernel in it,
 * may take before the supervisor stops the worker (executor.h): from the
 * point's work at a rate slow enough for any device, with room for builds
 * and transfers. */
#include "executor.h"

long long wl_point_deadline(const struct wl_experiment *exp, const struct wl_variant_def *const *variants,
			    size_t nvariants, const long long *values, long long repeat, long long warmup,
			    double per_variant_s, long long max_s)
{
	double seconds = 60;

	for (size_t k = 0; k < nvariants; k++) {
		double work = wl_variant_cost(exp, variants[k], exp->metric == WL_METRIC_BANDWIDTH ?
								WL_COST_BYTES : WL_COST_OPS, values);
		double host = wl_variant_cost(exp, variants[k], WL_COST_MEMORY, values);

		seconds += 1 + (double)(repeat + warmup) * work / WL_FLOOR_RATE + host / WL_FLOOR_RATE +
			   per_variant_s;
	}
	return seconds > (double)max_s ? max_s : (long long)seconds + 1;
}

long long wl_probe_deadline(const struct wl_experiment *exp, const struct wl_variant_def *v, const long long *values,
			    long long max_s)
{
	double work = wl_variant_cost(exp, v, exp->metric == WL_METRIC_BANDWIDTH ? WL_COST_BYTES : WL_COST_OPS, values);
	double seconds = 20 * work / WL_FLOOR_RATE;
	long long s = seconds > WL_PROBE_MIN_S ? (long long)seconds + 1 : WL_PROBE_MIN_S;

	return max_s > 0 && s > max_s ? max_s : s;
}
