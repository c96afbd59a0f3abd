/* Summary statistics of repeated timings: the median is what results report,
 * min and max show the spread. */
#ifndef WL_STATS_H
#define WL_STATS_H

#include <stddef.h>

struct wl_stats {
	double median, min, max;
};

/* Summarise n > 0 samples (not modified). The median of an even count is the
 * mean of the two middle samples. Returns -1 when n is 0 or memory runs out. */
int wl_stats_summary(const double *samples, size_t n, struct wl_stats *out);

#endif
