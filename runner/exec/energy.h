/* A variant's energy at a point, from the GPU's total-energy counter (the
 * device's telemetry, device.h: NVML's on NVIDIA): a burst of back-to-back launches of its launch between
 * two of the counter's updates, the idle power over the rest of that window
 * subtracted. On the H100 the counter (in mJ) moves every ~100 ms, and one
 * read takes ~3.5 ms (bench/energy-probe.c,
 * bench/RESULTS.md); bursts of ~200 ms came within ±1.3% of their median
 * there, 100 ms within ±2%. The burst runs without cache flushes: its
 * launches find what the one before left. */
#ifndef WL_ENERGY_H
#define WL_ENERGY_H

#include <stddef.h>

#include "error.h"

struct wl_backend;
struct wl_device;
struct wl_kernel_site;
struct wl_launch;
struct wl_time_budget;

/* What a burst runs on: the point's kernel as its backend's timing takes
 * it, the backend and device, and the budget its time goes to (or NULL). */
struct wl_energy_site {
	const struct wl_kernel_site *kernel;
	const struct wl_backend *backend;
	struct wl_device *dev;
	struct wl_time_budget *budget;
};

/* The burst aimed at, ms; the most launches it takes (a kernel of a few µs
 * makes it shorter, and says so in its launch count). */
#define WL_ENERGY_BURST_MS 200.0
#define WL_ENERGY_LAUNCHES_MAX 100000L

/* The most a variant's energy adds to its point, s: the burst, two waits
 * for the counter, and the device's idle power measured once. */
#define WL_ENERGY_VARIANT_S 7.5

/* The energy of launch l at site's point, whose median took median_ms, into out as a
 * JSON object: {"j_per_launch", "j_above_idle_per_launch", "avg_w",
 * "idle_w", "launches", "burst_ms", "window_ms", "throttled"}; or
 * {"error": why} where the device has no energy counter or the burst
 * failed (the point's result stands either way). Its time goes to the
 * site's budget as energy. -1 only for an error of the device that stops the run
 * (err set; out then holds the error object). */
int wl_energy_measure(const struct wl_energy_site *site, const struct wl_launch *l, double median_ms, char *out,
		      size_t len, struct wl_error *err);

#endif
