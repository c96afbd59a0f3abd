/* The device facts' probes share this: a program of probe kernels built on
 * a device, zeroed scratch buffers, and the timing of one kernel's launches
 * from the queue's profiling events (device_facts.c, access_facts.c). */
#ifndef WL_PROBE_KIT_H
#define WL_PROBE_KIT_H

#include "cl_device.h"

struct wl_probe {
	struct wl_device *dev;
	cl_program program;
	struct wl_error *err;
};

/* Build source on p->dev (opened already) into p->program. -1 with p->err
 * naming what (the probes' name) when it does not build. */
int wl_probe_build(struct wl_probe *p, const char *source, const char *what);

/* A buffer of bytes on p->dev, zeroed; NULL with p->err set. The caller
 * releases it. */
cl_mem wl_probe_buffer(struct wl_probe *p, size_t bytes);

/* A fact's figure v as a probe measured it, or NaN where it is none (0,
 * negative or not finite: a timing of 0, or a clock that ran backwards)
 * for wl_facts_fill_unmeasured to measure again. */
double wl_probe_usable(double v);

/* Kernel name of p->program launched over dims (1 or 2) dimensions of
 * global and local work-items, with nargs arguments given as (size, pointer)
 * pairs: after five untimed launches, the median of n timed ones (at most
 * WL_PROBE_TIMED_MAX) in ms, or where fastest is set their lower quartile
 * (a kernel of microseconds is timed against the device's hiccups, which
 * only ever add, and the very fastest launch is a lucky one). -1 with
 * p->err set when the kernel is not there or a launch fails. */
#define WL_PROBE_TIMED_MAX 41
double wl_probe_time(struct wl_probe *p, const char *name, int dims, const size_t *global, const size_t *local,
		     int nargs, const size_t *sizes, const void *const *values, int n, int fastest);

void wl_probe_release(struct wl_probe *p);

#endif
