/* The write before each cold launch (a "cold" run's timings), sized from the
 * device's last-level cache so that a launch finds none of its data there:
 * the cache's size is the device's description's (probes/cache_probe.h
 * measures or asks it), the flush a multiple of it within what the device
 * lets one buffer hold. */
#ifndef WL_COLD_FLUSH_H
#define WL_COLD_FLUSH_H

#include <stddef.h>

#include "device.h"

#define WL_FLUSH_MIN ((size_t)8 << 20)
/* What a cold launch writes where the cache size is unknown: more than any
 * device's last-level cache (an H100's L2 is 50 MB, an H200's 60 MB, the
 * largest CPU L3s hundreds of MiB). */
#define WL_FLUSH_UNKNOWN ((size_t)512 << 20)

/* The bytes to write before a cold launch: four times the cache (at least
 * WL_FLUSH_MIN), WL_FLUSH_UNKNOWN where cache_bytes is unknown (0), within
 * what dev lets one buffer hold (and a quarter of its memory) and at most max
 * (0: no cap). */
size_t wl_cache_flush_bytes(const struct wl_device *dev, long long cache_bytes, size_t max);

#endif
