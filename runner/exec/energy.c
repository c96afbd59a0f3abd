/* A variant's energy from a burst of its launches (see energy.h). */
#include "energy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "device.h"
#include "time_budget.h"

/* The longest the counter may take to move before it is called stuck. */
#define TICK_WAIT_MS 1000.0
/* Idle: after the device settles this long, over at least this window. */
#define IDLE_SETTLE_MS 1500.0
#define IDLE_WINDOW_MS 2000.0

/* The device's idle power, measured once per worker (one device each). */
static struct {
	const struct wl_device *dev;
	double w;
} idle;

/* Reads timed for a read's cost. */
#define READS_TIMED 5

/* The counter's next change after now: its value (mJ) and when it was
 * seen. Reads back to back: one read takes milliseconds already. */
static int next_tick(const struct wl_device *n, unsigned long long *mj, double *at_ms, char *why, size_t len)
{
	unsigned long long first, now;
	double start = wl_now_ms();

	if (wl_device_energy_mj(n, &first, why, len) < 0)
		return -1;
	do {
		if (wl_device_energy_mj(n, &now, why, len) < 0)
			return -1;
		if (now != first) {
			*mj = now;
			*at_ms = wl_now_ms();
			return 0;
		}
	} while (wl_now_ms() - start < TICK_WAIT_MS);
	snprintf(why, len, "the GPU's energy counter did not move in %.0f ms", TICK_WAIT_MS);
	return -1;
}

static void sleep_ms(double ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(fmod(ms, 1000) * 1e6) };

	nanosleep(&ts, NULL);
}

/* The device's power at rest, W: the counter between two of its updates at
 * least IDLE_WINDOW_MS apart, after IDLE_SETTLE_MS without work; with the
 * counter's update period and a read's cost, the device's energy facts
 * (its description's "energy", with their method). */
static int idle_power(const struct wl_energy_site *site, double *w, char *why, size_t len)
{
	const struct wl_device *n = site->dev;
	unsigned long long e0, e1, ignored;
	double t0, t1, tick, read_ms, started;

	if (idle.dev == site->dev) {
		*w = idle.w;
		return 0;
	}
	sleep_ms(IDLE_SETTLE_MS);
	started = wl_now_ms();
	for (int i = 0; i < READS_TIMED; i++)
		if (wl_device_energy_mj(n, &ignored, why, len) < 0)
			return -1;
	read_ms = (wl_now_ms() - started) / READS_TIMED;
	if (next_tick(n, &e0, &tick, why, len) < 0 || next_tick(n, &e0, &t0, why, len) < 0)
		return -1;
	sleep_ms(IDLE_WINDOW_MS);
	if (next_tick(n, &e1, &t1, why, len) < 0)
		return -1;
	idle.dev = site->dev;
	idle.w = (double)(e1 - e0) / (t1 - t0);	/* mJ / ms */
	*w = idle.w;
	json_object_set_new(site->dev->info, "energy",
			    json_pack("{s:f, s:f, s:f, s:s}", "idle_w", idle.w, "counter_period_ms", t0 - tick,
				      "read_ms", read_ms, "method",
				      "NVML's total-energy counter: idle power over two of its updates at least 2 s apart "
				      "after 1.5 s at rest; the update period between two updates in a row; a read's cost "
				      "the mean of 5"));
	return 0;
}

static void say_error(char *out, size_t len, const char *why)
{
	json_t *o = json_pack("{s:s}", "error", why);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	snprintf(out, len, "%s", text ? text : "{\"error\": \"out of memory\"}");
	free(text);
	json_decref(o);
}

/* The burst and its window; -1 with why for a counter that fails, -2 with
 * err for a launch that stops the run. */
static int burst(const struct wl_energy_site *site, const struct wl_launch *l, double median_ms, double idle_w,
		 char *out, size_t len, char *why, size_t why_len, struct wl_error *err)
{
	const struct wl_device *n = site->dev;
	double want = ceil(WL_ENERGY_BURST_MS / (median_ms > 1e-4 ? median_ms : 1e-4));
	long launches = want < 1 ? 1 : want > WL_ENERGY_LAUNCHES_MAX ? WL_ENERGY_LAUNCHES_MAX : (long)want;
	double *samples = malloc((size_t)launches * sizeof(*samples));
	unsigned long long e0, e1;
	double t0, t1, started, burst_ms, joules, burst_j;
	int refused = 0, throttled, rc = -1;

	if (!samples) {
		snprintf(why, why_len, "out of memory for %ld launches", launches);
		return -1;
	}
	if (next_tick(n, &e0, &t0, why, why_len) < 0)
		goto out;
	throttled = wl_device_throttled(n);
	started = wl_now_ms();
	if (site->backend->time(site->kernel, l, 0, launches, NULL, samples, &refused, err) < 0) {
		rc = -2;
		goto out;
	}
	burst_ms = wl_now_ms() - started;
	throttled = throttled || wl_device_throttled(n);
	if (next_tick(n, &e1, &t1, why, why_len) < 0)
		goto out;
	joules = (double)(e1 - e0) / 1000;
	/* The window's time outside the burst was idle. */
	burst_j = joules - idle_w * (t1 - t0 - burst_ms) / 1000;
	snprintf(out, len,
		 "{\"j_per_launch\": %.6g, \"j_above_idle_per_launch\": %.6g, \"avg_w\": %.5g, \"idle_w\": %.5g, "
		 "\"launches\": %ld, \"burst_ms\": %.4g, \"window_ms\": %.4g, \"throttled\": %s}",
		 burst_j / launches, (burst_j - idle_w * burst_ms / 1000) / launches, burst_j / (burst_ms / 1000),
		 idle_w, launches, burst_ms, t1 - t0, throttled ? "true" : "false");
	rc = 0;
out:
	free(samples);
	return rc;
}

int wl_energy_measure(const struct wl_energy_site *site, const struct wl_launch *l, double median_ms, char *out,
		      size_t len, struct wl_error *err)
{
	const char *clocks = json_string_value(json_object_get(site->dev->info, "clocks"));
	double started = wl_now_ms(), idle_w;
	char why[300];
	int rc = 0;

	if (!site->dev->telemetry) {
		/* NVML's own reason, as the device's clocks say it. */
		snprintf(why, sizeof(why), "no energy counter on %s (%s)", site->dev->id,
			 clocks && strncmp(clocks, "unknown: ", 9) == 0 ? clocks + 9 : "NVML does not know it");
		say_error(out, len, why);
		return 0;
	}
	if (idle_power(site, &idle_w, why, sizeof(why)) < 0 ||
	    (rc = burst(site, l, median_ms, idle_w, out, len, why, sizeof(why), err)) == -1) {
		say_error(out, len, why);
		rc = 0;
	} else if (rc == -2) {
		say_error(out, len, err->msg);
		rc = -1;
	}
	wl_budget_add(site->budget, WL_PHASE_ENERGY, started);
	return rc;
}
