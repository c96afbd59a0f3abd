/* Launching a CUDA call (see cuda_device.h): timed between events, once for
 * the runner's own kernels, once more under the profiler for the counters. */
#include "cuda_device.h"

#include <stdio.h>
#include <stdlib.h>

#include "cuda_api.h"
#include "cupti_counters.h"
#include "log.h"
#include "launch.h"
#include "clock.h"

CUresult wl_cuda_launch_call(const struct wl_cuda_call *c, void **params, unsigned dims, const size_t *global,
			     const size_t *local, CUstream stream)
{
	unsigned grid[3] = { 1, 1, 1 }, block[3] = { 1, 1, 1 };

	for (unsigned d = 0; d < dims && d < 3; d++) {
		block[d] = (unsigned)local[d];
		grid[d] = (unsigned)(global[d] / local[d]);
	}
	return cu.launch(c->function, grid[0], grid[1], grid[2], block[0], block[1], block[2], (unsigned)c->shared,
			 stream, params, NULL);
}

/* One launch of l on the stream; its result. */
static CUresult launch(const struct wl_launch *l, CUstream stream)
{
	return wl_cuda_launch_call(wl_cuda_call_of(l), (void **)wl_cuda_call_of(l)->params, l->dims, l->global, l->local, stream);
}

int wl_cuda_time_launches(struct wl_cuda_device *cd, const struct wl_launch *l, long long warmup,
			  long long repeat, const struct wl_flush *flush, double *samples_ms, int *refused,
			  struct wl_error *err)
{
	CUevent *events = calloc((size_t)(2 * repeat), sizeof(*events));
	CUresult rc = 0;
	long long made = 0;
	double started;
	int status = -1;

	*refused = 0;
	if (!events) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	cu.ctx_set(cd->context);
	for (; made < 2 * repeat; made++)
		if (wl_cu_failed(cu.event_create(&events[made], CU_EVENT_DEFAULT), "cuEventCreate", err) < 0)
			goto out;
	started = wl_now_ms();
	for (long long i = 0; i < warmup + repeat && rc == 0; i++) {
		long long t = i - warmup;

		/* A long kernel is warm after one launch (launch.h): the timed
		 * launches follow at once. */
		if (i == 1 && warmup > 1) {
			rc = cu.stream_sync(cd->stream);
			if (rc == 0 && wl_now_ms() - started >= WL_WARM_AFTER_MS) {
				i = warmup;
				t = 0;
			}
		}
		if (rc == 0 && flush && flush->buf.handle)
			rc = cu.memset32(flush->buf.handle, 0x9E3779B9u ^ (unsigned)i, flush->bytes / 4, cd->stream);
		if (rc == 0 && t >= 0)
			rc = cu.event_record(events[2 * t], cd->stream);
		if (rc == 0)
			rc = launch(l, cd->stream);
		if (rc == 0 && t >= 0)
			rc = cu.event_record(events[2 * t + 1], cd->stream);
	}
	if (rc == CUDA_ERROR_INVALID_VALUE) {
		/* A block shape the driver refuses: only this point fails. */
		*refused = 1;
		wl_error_set(err, WL_ERR_INTERNAL, "cuLaunchKernel: %s", wl_cu_error_name(rc));
		cu.stream_sync(cd->stream);
		goto out;
	}
	if (wl_cu_failed(rc, "cuLaunchKernel", err) < 0 || wl_cu_failed(cu.stream_sync(cd->stream), "the kernel", err) < 0)
		goto out;
	for (long long t = 0; t < repeat; t++) {
		float ms = 0;

		if (wl_cu_failed(cu.event_elapsed(&ms, events[2 * t], events[2 * t + 1]), "cuEventElapsedTime", err) < 0)
			goto out;
		samples_ms[t] = ms;
	}
	status = 0;
out:
	for (long long i = 0; i < made; i++)
		cu.event_destroy(events[i]);
	free(events);
	return status;
}

struct profiled {
	const struct wl_launch *l;
	struct wl_cuda_device *cd;
};

static int launch_once(void *arg)
{
	const struct profiled *p = arg;

	return launch(p->l, p->cd->stream) == 0 && cu.stream_sync(p->cd->stream) == 0 ? 0 : -1;
}

int wl_cuda_counters_ready(struct wl_cuda_device *cd)
{
	cu.ctx_set(cd->context);
	if (!cd->counters && !cd->counters_why[0] &&
	    wl_counters_open(NULL, cd->context, cd->ordinal, &cd->counters, cd->counters_why, sizeof(cd->counters_why)) < 0)
		wl_log_info("CUDA device %d: counters unavailable: %s", cd->ordinal, cd->counters_why);
	return cd->counters != NULL;
}

int wl_cuda_profile(struct wl_cuda_device *cd, const struct wl_launch *l, double *values, char *why, size_t len)
{
	struct profiled p = { l, cd };

	if (!wl_cuda_counters_ready(cd)) {
		snprintf(why, len, "%s", cd->counters_why);
		return -1;
	}
	return wl_counters_profile(cd->counters, launch_once, &p, values, why, len);
}
