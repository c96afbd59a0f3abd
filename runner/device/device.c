/* A device of no API (see device.h): its list, id, filter, limits and
 * telemetry. Finding and releasing devices goes through every backend
 * (backend.c). */
#include "device.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void wl_device_slug(const char *text, char *out, size_t len)
{
	size_t n = 0;
	int dash = 0;

	for (const char *c = text; *c && n + 1 < len; c++) {
		if (isalnum((unsigned char)*c)) {
			if (dash && n > 0 && n + 2 < len)
				out[n++] = '-';
			out[n++] = (char)tolower((unsigned char)*c);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	out[n] = '\0';
	if (n == 0)
		snprintf(out, len, "device");
}

int wl_device_wanted(const char *only, const struct wl_device *dev)
{
	char *list, *save = NULL;
	int keep = 0;

	if (!only || !*only)
		return 1;
	list = strdup(only);
	for (char *tok = list ? strtok_r(list, ", ", &save) : NULL; tok; tok = strtok_r(NULL, ", ", &save)) {
		if (strcmp(tok, dev->id) == 0 || (strcmp(tok, "gpu") == 0 && dev->is_gpu) ||
		    (strcmp(tok, "cpu") == 0 && !dev->is_gpu))
			keep = 1;
	}
	free(list);
	return keep;
}

int wl_devices_add(struct wl_devices *devs, const struct wl_device *dev, struct wl_error *err)
{
	struct wl_device *grown = realloc(devs->list, (devs->count + 1) * sizeof(*devs->list));

	if (!grown) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	devs->list = grown;
	devs->list[devs->count++] = *dev;
	return 0;
}

void wl_devices_disable_fp64(struct wl_devices *devs)
{
	for (size_t i = 0; i < devs->count; i++) {
		devs->list[i].fp64 = 0;
		json_object_set_new(devs->list[i].info, "fp64", json_false());
	}
}

void wl_device_limits(const struct wl_device *dev, struct wl_device_limits *out)
{
	out->id = dev->id;
	out->global_mem = (double)dev->global_mem;
	out->max_alloc = (double)dev->max_alloc;
	out->local_mem = (double)dev->local_mem;
	out->max_work_group = (long long)dev->max_work_group;
}

json_t *wl_device_clock_state(const struct wl_device *dev)
{
	return dev->telemetry ? dev->telemetry->state(dev->telemetry_handle) : NULL;
}

double wl_device_peak_gbps(const struct wl_device *dev)
{
	return dev->telemetry ? dev->telemetry->peak_gbps(dev->telemetry_handle) : 0;
}

int wl_device_throttled(const struct wl_device *dev)
{
	return dev->telemetry ? dev->telemetry->throttled(dev->telemetry_handle) : 0;
}

int wl_device_energy_mj(const struct wl_device *dev, unsigned long long *mj, char *why, size_t why_len)
{
	if (!dev->telemetry) {
		snprintf(why, why_len, "the device has no energy counter (no telemetry)");
		return -1;
	}
	return dev->telemetry->energy_mj(dev->telemetry_handle, mj, why, why_len);
}
