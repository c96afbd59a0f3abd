/* Drop detection on synthetic sweeps: the seed's partition-camping curve, a
 * steep rise, noise, and the edges. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis.h"

/* Seed 003 on a GTX 280: 75 GB/s, 19 at multiples of 512, 35 at other multiples
 * of 256, 62 at other multiples of 128. */
static double seed_curve(long long n)
{
	if (n % 512 == 0)
		return 19;
	if (n % 256 == 0)
		return 35;
	if (n % 128 == 0)
		return 62;
	return 75;
}

void test_drops_find_the_seeds_partition_camping(void)
{
	enum { N = 121 };	/* n = 256, 288, ..., 4096 */
	double y[N];
	struct wl_drop d[N];
	size_t found, by_pow2[3] = { 0 };

	for (int i = 0; i < N; i++)
		y[i] = seed_curve(256 + 32LL * i);
	found = wl_find_drops(y, NULL, NULL, N, 0.15, d, N);
	/* Every interior multiple of 128 from 288 to 4064: 384, 512, ..., 3968. */
	CHECK(found == 29, "%zu drops, expected the 29 interior multiples of 128", found);
	for (size_t k = 0; k < found && k < N; k++) {
		long long n = 256 + 32LL * (long long)d[k].index;
		long long p = wl_pow2_divisor(n);

		CHECK(n % 128 == 0, "drop at %lld is not a multiple of 128", n);
		CHECK(d[k].trend == 75, "trend at %lld: %g", n, d[k].trend);
		by_pow2[p >= 512 ? 2 : p == 256 ? 1 : 0]++;
	}
	CHECK(by_pow2[2] == 7 && by_pow2[1] == 7 && by_pow2[0] == 15,
	      "by label: %zu x 512+, %zu x 256, %zu x 128", by_pow2[2], by_pow2[1], by_pow2[0]);
	CHECK(fabs(d[0].below - (1 - 62.0 / 75)) < 1e-12, "how far below: %g", d[0].below);
	/* With the ±2% intervals of a well-measured sweep, every drop stays. */
	{
		double lo[N], hi[N];

		for (int i = 0; i < N; i++) {
			lo[i] = y[i] * 0.98;
			hi[i] = y[i] * 1.02;
		}
		CHECK(wl_find_drops(y, lo, hi, N, 0.15, d, N) == 29, "the seed's drops survive their intervals");
	}
}

/* A noisy flat sweep (PoCL, repeat 2) whose medians dip 20% at random: each
 * dip's interval reaches its neighbours', so none is a drop; the same dip
 * measured tightly is one. */
void test_drops_need_intervals_apart(void)
{
	static const double y[] = { 100, 78, 101, 99, 80, 102, 100 };
	double lo[7], hi[7];
	struct wl_drop d[7];

	for (int i = 0; i < 7; i++) {
		lo[i] = y[i] * 0.75;
		hi[i] = y[i] * 1.3;
	}
	CHECK(wl_find_drops(y, NULL, NULL, 7, 0.15, d, 7) == 2, "the medians alone show two drops");
	CHECK(wl_find_drops(y, lo, hi, 7, 0.15, d, 7) == 0, "wide intervals: noise, no drops");
	for (int i = 0; i < 7; i++) {
		lo[i] = y[i] * 0.99;
		hi[i] = y[i] * 1.01;
	}
	CHECK(wl_find_drops(y, lo, hi, 7, 0.15, d, 7) == 2, "tight intervals: both drops are real");
	/* One neighbour within reach is enough to doubt it. */
	hi[1] = 100 * 0.99 + 0.5;
	CHECK(wl_find_drops(y, lo, hi, 7, 0.15, d, 7) == 1, "an interval touching a neighbour's is noise");
}

void test_drops_ignore_rises_noise_and_edges(void)
{
	static const struct {
		double y[8];
		size_t n;
		size_t drops;
		const char *what;
	} rows[] = {
		{ { 82, 318, 622, 1092, 1588, 2103, 2509, 2724 }, 8, 0, "a GPU filling up" },
		{ { 87, 355, 714, 1157, 1793, 2149, 2611, 2970 }, 8, 0, "a convex rise" },
		{ { 100, 96, 104, 98, 103, 95, 101, 99 }, 8, 0, "5% noise" },
		{ { 40, 100, 100, 100, 100, 100, 100, 30 }, 8, 0, "low ends have one neighbour" },
		{ { 100, 100, 80, 100, 100, 100, 100, 100 }, 8, 1, "20% below both" },
		{ { 100, 100, 86, 100, 100, 100, 100, 100 }, 8, 0, "14% below: under the threshold" },
		{ { 100, 100, 50, 50, 100, 100, 100, 100 }, 8, 0, "two low in a row hide each other" },
		{ { 100, 50, 100, 50, 100, 50, 100, 100 }, 8, 3, "every other point" },
		{ { 100, 50 }, 2, 0, "too short" },
		{ { 0, 0, 0 }, 3, 0, "zeros" },
	};
	struct wl_drop d[8];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t found = wl_find_drops(rows[i].y, NULL, NULL, rows[i].n, 0.15, d, 8);

		CHECK(found == rows[i].drops, "%s: %zu drops, expected %zu", rows[i].what, found,
		      rows[i].drops);
	}
	CHECK(wl_pow2_divisor(4000) == 32 && wl_pow2_divisor(4096) == 4096 && wl_pow2_divisor(384) == 128 &&
		      wl_pow2_divisor(7) == 1,
	      "largest power of two dividing n");
}
