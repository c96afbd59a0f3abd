/* The size of a cold launch's flush (see cold_flush.h). */
#include "cold_flush.h"

size_t wl_cache_flush_bytes(const struct wl_device *dev, long long cache_bytes, size_t max)
{
	size_t bytes = cache_bytes > 0 ? (size_t)cache_bytes * 4 : WL_FLUSH_UNKNOWN, cap = dev->max_alloc;

	if (bytes < WL_FLUSH_MIN)
		bytes = WL_FLUSH_MIN;
	if (max && bytes > max)
		bytes = max;
	if (cap > dev->global_mem / 4)
		cap = dev->global_mem / 4;
	return bytes < cap ? bytes : cap;
}
