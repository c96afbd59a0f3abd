/* The sample of a launch's work-groups (model/sample.c): the groups the warp
 * model simulates and the tracer's plugin runs, and what each stands for. */
#include <math.h>

#include "check.h"
#include "sample.h"

static int has(const struct wl_sample *s, long long linear)
{
	for (int k = 0; k < s->count; k++)
		if (s->linear[k] == linear)
			return 1;
	return 0;
}

/* A 63 x 63 grid: evenly spaced linear ids (566 apart) would all fall in
 * its last column, cut short by the grid's edge; the lattice's eight lie
 * in eight columns and eight rows, each an eighth of the launch; the first's
 * three neighbours and the launch's last stand for none. */
void test_sample_spreads_over_columns_and_rows(void)
{
	const long long grid[3] = { 63, 63, 1 };
	struct wl_sample s;
	int columns[63] = { 0 }, rows[63] = { 0 }, spread = 0, in_columns = 0, in_rows = 0;
	double weights = 0;

	wl_sample_groups(grid, &s);
	for (int k = 0; k < s.count; k++) {
		CHECK(k == 0 || s.linear[k] > s.linear[k - 1], "in the launch's order: %lld after %lld", s.linear[k],
		      k ? s.linear[k - 1] : -1);
		weights += s.weight[k];
		if (s.weight[k] > 0) {
			spread++;
			in_columns += !columns[s.linear[k] % 63]++;
			in_rows += !rows[s.linear[k] / 63]++;
		}
	}
	CHECK(spread == 8 && in_columns == 8 && in_rows == 8, "%d lattice groups over %d columns and %d rows", spread,
	      in_columns, in_rows);
	CHECK(fabs(weights - 63 * 63) < 1e-9, "they stand for the launch's 3969 groups: %g", weights);
	CHECK(s.count == 12 && has(&s, 0) && has(&s, 3968) && wl_sample_weight(&s, 3968) == 0,
	      "12 groups, the first and the last (weight %g) among them", wl_sample_weight(&s, 3968));
	for (long long l = 1; l <= 3; l++)
		CHECK(has(&s, l) && s.neighbour[l] && wl_sample_weight(&s, l) == 0,
		      "neighbour %lld: in the sample, standing for none", l);
	CHECK(wl_sample_weight(&s, 5) == 0 && !has(&s, 5), "group 5 is not sampled");
}

/* A launch of few groups is taken whole, each standing for itself; a long
 * one-dimensional launch of a power of two gets the lattice's round places
 * and its last group, whose low bits are all set. */
void test_sample_takes_few_groups_whole(void)
{
	const long long few[3] = { 5, 1, 1 }, many[3] = { 1 << 18, 1, 1 };
	struct wl_sample s;

	wl_sample_groups(few, &s);
	CHECK(s.count == 5, "5 groups: %d sampled", s.count);
	for (int k = 0; k < s.count; k++)
		CHECK(s.linear[k] == k && s.weight[k] == 1 && s.neighbour[k] == (k >= 1 && k <= 3),
		      "group %d: %lld, weight %g, neighbour %d", k, s.linear[k], s.weight[k], s.neighbour[k]);
	wl_sample_groups(many, &s);
	for (long long i = 0; i < 8; i++)
		CHECK(wl_sample_weight(&s, i << 15) == 1 << 15, "group %lld stands for %g", i << 15,
		      wl_sample_weight(&s, i << 15));
	CHECK(s.count == 12 && s.linear[s.count - 1] == (1 << 18) - 1, "the last sampled is the launch's: %lld",
	      s.linear[s.count - 1]);
}
