/* The backends there are, in the order they find devices, and what goes
 * through all of them: finding and releasing devices, the one whose counts
 * wait on a device; and the one a request's language picks (backend.h): the
 * one place the language chooses the API. */
#include "backend.h"

#include <stdlib.h>
#include <string.h>

#include "device.h"

const struct wl_backend *const wl_backends[] = { &wl_backend_opencl, &wl_backend_cuda, NULL };

/* Release what dev holds: every API's side, its telemetry, its description. */
static void release(struct wl_device *dev)
{
	for (size_t i = 0; wl_backends[i]; i++)
		if (wl_backends[i]->detach)
			wl_backends[i]->detach(dev);
	if (dev->telemetry)
		dev->telemetry->close(dev->telemetry_handle);
	dev->telemetry = NULL;
	dev->telemetry_handle = NULL;
	json_decref(dev->info);
	dev->info = NULL;
}

int wl_devices_find(const char *only, const char *host, struct wl_devices *out, struct wl_error *err)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; wl_backends[i]; i++)
		if (wl_backends[i]->find && wl_backends[i]->find(only, host, out, err) < 0) {
			wl_devices_free(out);
			return -1;
		}
	return 0;
}

void wl_devices_free(struct wl_devices *devs)
{
	for (size_t i = 0; i < devs->count; i++)
		release(&devs->list[i]);
	free(devs->list);
	memset(devs, 0, sizeof(*devs));
}

void wl_devices_keep(struct wl_devices *devs, size_t index)
{
	for (size_t i = 0; i < devs->count; i++)
		if (i != index)
			release(&devs->list[i]);
	if (index != 0)
		devs->list[0] = devs->list[index];
	devs->count = 1;
}

const struct wl_backend *wl_device_deferring(const struct wl_device *dev)
{
	for (size_t i = 0; dev && wl_backends[i]; i++) {
		const struct wl_backend *be = wl_backends[i];

		if (be->deferred && (unsigned)be->language < WL_DEVICE_APIS && dev->api[be->language])
			return be;
	}
	return NULL;
}

const struct wl_backend *wl_backend_for(enum wl_language language)
{
	for (size_t i = 0; wl_backends[i]; i++)
		if (wl_backends[i]->language == language)
			return wl_backends[i];
	return &wl_backend_opencl;
}
