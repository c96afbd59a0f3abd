/* Drop detection for sweeps (the partition-camping chart): points that fall
 * well below the curve around them. A point is a drop when it is more than
 * threshold (a fraction) below both of its neighbours on the sweep; the first
 * and last points, with one neighbour only, are never drops. Comparing with
 * both neighbours keeps a steep rise (a GPU filling up at small sizes) from
 * counting, while an isolated dip — the seed's matrices at multiples of 512 —
 * does. */
#ifndef WL_DROPS_H
#define WL_DROPS_H

#include <stddef.h>

struct wl_drop {
	size_t index;		/* into the sweep's points */
	double trend;		/* the lower neighbour the point is measured against */
	double below;		/* 1 - y / trend: how far below, as a fraction */
};

/* Find the drops of y (n points, in sweep order) below threshold; write at most
 * max of them to out and return how many there are. When lo and hi (each
 * point's 95% interval) are given, a drop must also lie apart from its
 * neighbours: its upper bound below both of theirs lower bounds, so that
 * noise is never called a drop. */
size_t wl_find_drops(const double *y, const double *lo, const double *hi, size_t n, double threshold,
		     struct wl_drop *out, size_t max);

/* The largest power of two dividing v (v > 0): what the seed labels drops by. */
long long wl_pow2_divisor(long long v);

#endif
