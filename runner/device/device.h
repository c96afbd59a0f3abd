/* A device the runner measures on, as every API sees it: its id, kind,
 * memory, compute units, limits and description — what runs, plans, probes
 * and results read — and, behind opaque handles, each API's own side of it
 * (an OpenCL device with its context and queue, a CUDA context), which only
 * that API's folder looks inside. Devices are found by the backends
 * (backend.h) in their table's order: each finds its own or joins the ones
 * found before it by PCI address (backend.h: wl_devices_find). The vendor's telemetry (clocks, power,
 * energy: NVML on NVIDIA) hangs on the device the same way, so nothing above
 * the device APIs names one.
 *
 *	struct wl_devices devs;
 *	if (wl_devices_find("gpu", NULL, &devs, &err) < 0) ...	// backend.h
 *	wl_devices_keep(&devs, slot);		// a worker serves one device
 *	... devs.list[0] ...
 *	wl_devices_free(&devs);
 */
#ifndef WL_DEVICE_H
#define WL_DEVICE_H

#include <jansson.h>
#include <stddef.h>

#include "device_fit.h"
#include "error.h"
#include "pci_address.h"

/* Room for each language's API side of a device, indexed by the backend's
 * language (enum wl_language). */
#define WL_DEVICE_APIS 4

/* A vendor's telemetry of a device, behind one small table: its clocks and
 * temperature now (a new JSON object, or NULL), the memory's theoretical
 * peak in GB/s, whether it throttles now, its energy counter in mJ (-1
 * with why where it has none), and its release. */
struct wl_telemetry {
	const char *name;			/* "NVML" */
	json_t *(*state)(void *handle);
	double (*peak_gbps)(void *handle);
	int (*throttled)(void *handle);
	int (*energy_mj)(void *handle, unsigned long long *mj, char *why, size_t why_len);
	void (*close)(void *handle);
};

struct wl_device {
	char id[96];			/* stable across restarts: "nvidia-h100-80gb-hbm3-0" */
	int is_gpu;
	int fp64;
	unsigned compute_units;
	unsigned long long global_mem, max_alloc, local_mem;
	size_t max_work_group;
	json_t *info;			/* its description, GET /api/devices's; owned */
	int has_pci;			/* pci is known */
	struct wl_pci_address pci;
	int nvidia_index;		/* its place among NVIDIA GPUs (NVML's order), or -1 */
	/* Pinned staging slot the next point takes (of two, so that one
	 * variant's output is checked while the next one's is read). */
	unsigned staging_turn;
	/* Its telemetry (NULL: none known) and that table's handle, owned. */
	const struct wl_telemetry *telemetry;
	void *telemetry_handle;
	/* Each API's side of the device, by language: what its backend
	 * opened or found (NULL: none), owned by that backend, which releases
	 * it in its detach operation. */
	void *api[WL_DEVICE_APIS];
};

struct wl_devices {
	size_t count;
	struct wl_device *list;
};

/* Append dev (its description and API sides now owned by devs) for a
 * backend's find. -1 with err when out of memory: dev is then still the
 * caller's to release. */
int wl_devices_add(struct wl_devices *devs, const struct wl_device *dev, struct wl_error *err);

/* Mark every device as without fp64 (its description too), so experiments
 * in double run in float. */
void wl_devices_disable_fp64(struct wl_devices *devs);

/* Whether dev passes the --devices filter only (NULL or empty: all). */
int wl_device_wanted(const char *only, const struct wl_device *dev);

/* The device's limits for the request checks. */
void wl_device_limits(const struct wl_device *dev, struct wl_device_limits *out);

/* Lower-case the text into a device id part: letters and digits, runs of
 * anything else as one '-'. */
void wl_device_slug(const char *text, char *out, size_t len);

/* ---- telemetry, where the device has some (each says "none" plainly) ---- */

/* Clocks, temperature, power and throttling now (a new reference), or NULL
 * where the device has no telemetry. */
json_t *wl_device_clock_state(const struct wl_device *dev);
/* The memory's theoretical peak in GB/s, or 0 where unknown. */
double wl_device_peak_gbps(const struct wl_device *dev);
/* Whether the device throttles now (0 where nobody can say). */
int wl_device_throttled(const struct wl_device *dev);
/* The energy counter in mJ into *mj; -1 with why where there is none. */
int wl_device_energy_mj(const struct wl_device *dev, unsigned long long *mj, char *why, size_t why_len);

#endif
