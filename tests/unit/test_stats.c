/* The statistics behind every result: the interval of the median from order
 * statistics, and the rule that stops sampling on the noise target, the time
 * budget or the maximum count — on synthetic streams that converge, that never
 * do, and that carry outliers. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "analysis.h"
#include "stats.h"

void test_median_interval_from_order_statistics(void)
{
	/* The sign-test ranks of published tables (e.g. Conover, Practical
	 * Nonparametric Statistics): n = 10 gives x(2)..x(9). */
	static const struct {
		size_t n, j, k;
	} rows[] = {
		{ 1, 1, 1 }, { 5, 1, 5 }, { 6, 1, 6 }, { 10, 2, 9 }, { 20, 6, 15 }, { 100, 40, 61 },
		{ 1000, 469, 532 },
	};
	double samples[10] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 10 };
	struct wl_stats s;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t j, k;

		wl_median_ci_ranks(rows[i].n, &j, &k);
		CHECK(j == rows[i].j && k == rows[i].k, "n = %zu: ranks %zu..%zu, expected %zu..%zu", rows[i].n, j,
		      k, rows[i].j, rows[i].k);
	}
	CHECK(wl_stats_summary(samples, 10, &s) == 0, "summary");
	CHECK(s.median == 5.5 && s.ci_low == 2 && s.ci_high == 9 && s.q1 == 3 && s.q3 == 8 && s.n == 10,
	      "1..10: median %g, interval %g..%g, quartiles %g %g", s.median, s.ci_low, s.ci_high, s.q1, s.q3);
	CHECK(fabs(wl_stats_rel_ci(&s) - 3.5 / 5.5) < 1e-12, "relative half-width %g", wl_stats_rel_ci(&s));
	CHECK(fabs(wl_stats_rel_spread(&s) - 5 / 5.5) < 1e-12, "relative spread %g", wl_stats_rel_spread(&s));
}

/* A deterministic stream: base times (1 + jitter * u) with u in [-1, 1), and
 * every outlier_every-th sample outlier times slower. */
static void stream(double *out, size_t n, double jitter, size_t outlier_every, double outlier)
{
	unsigned long long x = 12345;

	for (size_t i = 0; i < n; i++) {
		double u;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		u = (double)(x >> 11) / 9007199254740992.0 * 2 - 1;
		out[i] = 1.0 + jitter * u;
		if (outlier_every && i % outlier_every == outlier_every - 1)
			out[i] *= outlier;
	}
}

void test_sampling_stops_on_noise_budget_or_max(void)
{
	enum { N = 1000 };
	double *s = malloc(N * sizeof(*s));
	struct wl_sampling rule = { .min_samples = 10, .max_samples = 200, .target = 0.01, .budget_ms = 1000 };
	size_t n;

	/* Converges: 0.2% jitter is within ±1% at the first judgement. */
	stream(s, N, 0.002, 0, 1);
	CHECK(wl_sampling_verdict(&rule, s, 9, 1) == WL_STOP_MORE, "never on fewer than min_samples");
	CHECK(wl_sampling_verdict(&rule, s, 10, 1) == WL_STOP_NOISE, "tight samples stop at once");

	/* Never converges: ±60% jitter keeps the interval wide up to the maximum,
	 * or to the budget when that comes first. */
	stream(s, N, 0.6, 0, 1);
	for (n = 10; n < 200 && wl_sampling_verdict(&rule, s, n, 1) == WL_STOP_MORE; n += 10)
		;
	CHECK(n == 200 && wl_sampling_verdict(&rule, s, n, 1) == WL_STOP_MAX, "stopped at %zu", n);
	CHECK(wl_sampling_verdict(&rule, s, 50, 1000) == WL_STOP_BUDGET, "the budget stops it");
	CHECK(wl_sampling_verdict(&rule, s, 50, 999) == WL_STOP_MORE, "not before the budget");

	/* Outliers: one launch in seven ten times slower does not move the
	 * median's interval beyond ±1%. */
	stream(s, N, 0.002, 7, 10);
	CHECK(wl_sampling_verdict(&rule, s, 20, 1) == WL_STOP_NOISE, "robust to outliers");
	{
		struct wl_stats st;

		CHECK(wl_stats_summary(s, 20, &st) == 0 && st.max > 9 && fabs(st.median - 1) < 0.01,
		      "median %g despite max %g", st.median, st.max);
	}
	CHECK(wl_sampling_verdict(&rule, s, 1, 5000) == WL_STOP_BUDGET, "one sample, budget spent");
	free(s);
}

/* Compare and regression verdicts: apart only when the intervals are, and by
 * more than the precision asked for (1% here). */
void test_verdicts_only_beyond_the_noise(void)
{
	static const struct {
		double m, lo, hi, base_m, base_lo, base_hi;
		enum wl_verdict want;
		const char *what;
	} rows[] = {
		{ 0.92, 0.90, 0.95, 1.02, 1.00, 1.05, WL_FASTER, "wholly below, 10% faster" },
		{ 1.15, 1.10, 1.20, 1.02, 1.00, 1.05, WL_SLOWER, "wholly above, 13% slower" },
		{ 1.00, 0.97, 1.02, 1.02, 1.00, 1.05, WL_SAME, "overlapping: 2% apart is noise here" },
		{ 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, WL_SAME, "identical" },
		{ 0.98, 0.98, 0.98, 1.00, 1.00, 1.00, WL_FASTER, "medians only (old runs), 2% apart" },
		{ 1.025, 1.00, 1.05, 1.075, 1.05, 1.10, WL_SAME, "touching ends" },
		{ 0.997, 0.9969, 0.9971, 1.000, 0.9999, 1.0001, WL_SAME, "apart, but 0.3%: drift below the 1% asked for" },
		{ 0.5, 0.4, 0.6, 0.0, 0.0, 0.0, WL_SAME, "a zero baseline has no relative change" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum wl_verdict v = wl_time_verdict(rows[i].m, rows[i].lo, rows[i].hi, rows[i].base_m,
						    rows[i].base_lo, rows[i].base_hi, 0.01);

		CHECK(v == rows[i].want, "%s: %s, expected %s", rows[i].what, wl_verdict_name(v),
		      wl_verdict_name(rows[i].want));
	}
}
