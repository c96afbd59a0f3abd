/* Whether a device can run a request: the 422 check the server makes before
 * queueing and the runner again before executing, from the catalog's cost
 * formulas. */
#ifndef WL_DEVICE_FIT_H
#define WL_DEVICE_FIT_H

#include <jansson.h>

#include "catalog.h"
#include "error.h"
#include "request.h"

/* Whether the device info describes (the API's device object) runs lang:
 * every device runs OpenCL, which is how runners find them; another
 * language where its "languages" lists it. The server's choice of a device
 * and the runner's plan ask the same. */
int wl_device_runs(const json_t *info, enum wl_language lang);

/* Why info's device runs no CUDA, as its runner found it, or NULL. */
const char *wl_device_cuda_reason(const json_t *info);

/* What a device offers, for the 422 check. */
struct wl_device_limits {
	const char *id;
	double global_mem, max_alloc, local_mem;
	long long max_work_group;
};

/* Whether dev can run every (variant, point) of the normalized request: memory,
 * largest buffer, local memory, work-group size. Fails with WL_ERR_DEVICE_LIMIT
 * naming the first point that does not fit. */
int wl_request_check_device(const struct wl_experiment *exp, const json_t *normalized,
			    const struct wl_device_limits *dev, struct wl_error *err);

#endif
