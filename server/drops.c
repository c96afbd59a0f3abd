/* Drops below both neighbours (see drops.h). */
#include "drops.h"

size_t wl_find_drops(const double *y, const double *lo, const double *hi, size_t n, double threshold,
		     struct wl_drop *out, size_t max)
{
	size_t found = 0;

	for (size_t i = 1; i + 1 < n; i++) {
		double trend = y[i - 1] < y[i + 1] ? y[i - 1] : y[i + 1];

		if (trend <= 0 || y[i] >= (1.0 - threshold) * trend)
			continue;
		if (lo && hi && (hi[i] >= lo[i - 1] || hi[i] >= lo[i + 1]))
			continue;	/* within the noise of a neighbour */
		if (found < max) {
			out[found].index = i;
			out[found].trend = trend;
			out[found].below = 1.0 - y[i] / trend;
		}
		found++;
	}
	return found;
}

long long wl_pow2_divisor(long long v)
{
	return v > 0 ? v & -v : 0;
}
