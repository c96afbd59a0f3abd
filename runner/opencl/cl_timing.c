/* Profiling-event timing. All timed launches are enqueued back to back before
 * any is read, so host work between them cannot stretch the measured window;
 * a cold measurement puts a cache flush in front of each launch, on the same
 * in-order queue, so the launch's event starts after the flush has finished. */
#include "cl_timing.h"

#include <stdint.h>
#include <stdlib.h>

#include "clock.h"

/* Overwrite the flush buffer: its lines displace whatever the cache held. */
static cl_int enqueue_flush(cl_command_queue q, const struct wl_flush *flush, cl_uint round)
{
	cl_uint pattern = 0x9E3779B9u ^ round;

	if (!flush)
		return CL_SUCCESS;
	return clEnqueueFillBuffer(q, (cl_mem)(uintptr_t)flush->buf.handle, &pattern, sizeof(pattern), 0, flush->bytes, 0, NULL,
				   NULL);
}

int wl_time_launches(cl_command_queue q, const struct wl_launch *l, long long warmup,
		     long long repeat, const struct wl_flush *flush, double *samples_ms,
		     cl_int *code, struct wl_error *err)
{
	const size_t *local = l->local[0] ? l->local : NULL;
	cl_event *events;
	long long enqueued = 0;
	cl_int rc = CL_SUCCESS;
	int status = -1;

	events = calloc((size_t)repeat, sizeof(*events));
	if (!events) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (long long i = 0; i < warmup; i++) {
		double started = wl_now_ms();

		rc = enqueue_flush(q, flush, (cl_uint)i);
		if (rc != CL_SUCCESS) {
			wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueFillBuffer (cache flush): %s",
				     wl_cl_error_name(rc));
			goto out;
		}
		rc = clEnqueueNDRangeKernel(q, (cl_kernel)l->handle, l->dims, NULL, l->global, local, 0, NULL,
					    NULL);
		if (rc != CL_SUCCESS) {
			wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueNDRangeKernel: %s",
				     wl_cl_error_name(rc));
			goto out;
		}
		/* A long kernel is warm after one launch: the rest would only
		 * cost its time again (minplus at n = 4000, a big banks run). */
		if (i == 0 && warmup > 1) {
			if ((rc = clFinish(q)) != CL_SUCCESS) {
				wl_error_set(err, WL_ERR_INTERNAL, "clFinish after a warm-up: %s", wl_cl_error_name(rc));
				goto out;
			}
			if (wl_now_ms() - started >= WL_WARM_AFTER_MS)
				break;
		}
	}
	for (; enqueued < repeat; enqueued++) {
		rc = enqueue_flush(q, flush, (cl_uint)enqueued);
		if (rc != CL_SUCCESS) {
			wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueFillBuffer (cache flush): %s",
				     wl_cl_error_name(rc));
			goto out;
		}
		rc = clEnqueueNDRangeKernel(q, (cl_kernel)l->handle, l->dims, NULL, l->global, local, 0, NULL,
					    &events[enqueued]);
		if (rc != CL_SUCCESS) {
			wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueNDRangeKernel: %s",
				     wl_cl_error_name(rc));
			goto out;
		}
	}
	rc = clFinish(q);
	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clFinish after the kernel: %s", wl_cl_error_name(rc));
		goto out;
	}
	for (long long i = 0; i < repeat; i++) {
		cl_ulong start = 0, end = 0;
		cl_int exec = CL_COMPLETE;

		clGetEventInfo(events[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(exec), &exec, NULL);
		if (exec < 0) {
			rc = exec;
			wl_error_set(err, WL_ERR_INTERNAL, "kernel launch failed: %s",
				     wl_cl_error_name(exec));
			goto out;
		}
		rc = clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_START, sizeof(start),
					     &start, NULL);
		if (rc == CL_SUCCESS)
			rc = clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_END, sizeof(end),
						     &end, NULL);
		if (rc != CL_SUCCESS) {
			wl_error_set(err, WL_ERR_INTERNAL, "clGetEventProfilingInfo: %s",
				     wl_cl_error_name(rc));
			goto out;
		}
		samples_ms[i] = (double)(end - start) / 1e6;
	}
	status = 0;
out:
	*code = rc;
	if (status < 0)
		clFinish(q);
	for (long long i = 0; i < enqueued; i++)
		clReleaseEvent(events[i]);
	free(events);
	return status;
}
