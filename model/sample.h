/* Which of a launch's work-groups a count samples, and what each stands for.
 * WL_SAMPLE_SPREAD groups on a rank-1 lattice over the grid: the i-th at
 * (i nx / S, (3i mod S) ny / S, (5i mod S) nz / S) for S the spread — every
 * column and every row of groups gets its share, where groups evenly spaced
 * in the launch's linear order would fall on one column of a grid whose
 * width divides their spacing (a 63 x 63 grid's spacing of 566 is its last
 * column, cut short by the grid's edge, again and again). Each stands for
 * the launch's groups over S (two that fall on one group: that group twice
 * over); where groups differ (a guard, a grid-stride loop on part of the
 * grid, a triangle) their mean is the launch's group. A launch of no more
 * than S groups is sampled whole. Beside them, standing for none: the
 * WL_SAMPLE_NEIGHBOURS groups right after the first, which with it show
 * what consecutive groups share, and the launch's last group, which shows
 * what the first and a distant group share (a vector every group reads)
 * and whether a buffer's addresses move with the group as one block — the
 * lattice's groups lie at round fractions of a grid, which for a grid of a
 * power of two hides an index whose disorder is in its low bits (a hash
 * that xors in its own shifted bits), and the last has every low bit set.
 * The warp model simulates this sample of a
 * declaration; the tracer's Oclgrind plugin (runner/trace/oclgrind_trace.cpp,
 * which links this file) runs the same groups in a simulator. */
#ifndef WL_SAMPLE_H
#define WL_SAMPLE_H

#ifdef __cplusplus
extern "C" {
#endif

#define WL_SAMPLE_SPREAD 8
#define WL_SAMPLE_NEIGHBOURS 3
#define WL_SAMPLE_GROUPS 16	/* work-groups one sample holds: at least SPREAD + NEIGHBOURS + 1 */

struct wl_sample {
	int count;
	long long linear[WL_SAMPLE_GROUPS];	/* the groups, in the launch's order */
	double weight[WL_SAMPLE_GROUPS];	/* the launch's groups each stands for: 0 for a neighbour or the last alone */
	int neighbour[WL_SAMPLE_GROUPS];
};

/* The sample of a launch of groups[0] x groups[1] x groups[2] work-groups
 * (each >= 1; a linear id is x + nx (y + ny z)). */
void wl_sample_groups(const long long groups[3], struct wl_sample *out);

/* The launch's groups that group linear stands for in the sample of a
 * launch of groups (sample as wl_sample_groups made it): 0 for one not in
 * it, a neighbour or the last alone. */
double wl_sample_weight(const struct wl_sample *sample, long long linear);

#ifdef __cplusplus
}
#endif

#endif
