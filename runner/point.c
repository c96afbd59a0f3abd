/* Helpers the experiment files share: building a kernel, buffers, poisoning,
 * timing a launch into a measurement, handing the output to verification. */
#include "point.h"

#include "checker.h"
#include "cuda_counts.h"
#include "cuda_point.h"
#include "cupti_counters.h"
#include "nvml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

long long wl_point_value(const struct wl_point *pt, const char *name)
{
	int p = wl_experiment_param(pt->exp, name);

	return p >= 0 ? pt->values[p] : 0;
}

static int point_kernel(const struct wl_point *pt, const char *options, const char *name,
			cl_kernel *out, struct wl_error *err);

/* The number of parameters of kernel name of src built with options. */
static int kernel_arity(const struct wl_point *pt, const struct wl_source *src, const char *options,
			const char *name, cl_uint *out, struct wl_error *err)
{
	cl_program program;
	cl_kernel k;
	cl_int rc;

	if (wl_program_get(pt->programs, pt->dev, src, options, &program, err) < 0)
		return -1;
	k = clCreateKernel(program, name, &rc);
	if (!k) {
		wl_error_set(err, WL_ERR_INTERNAL, "clCreateKernel %s: %s", name, wl_cl_error_name(rc));
		return -1;
	}
	rc = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(*out), out, NULL);
	clReleaseKernel(k);
	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clGetKernelInfo %s: %s", name, wl_cl_error_name(rc));
		return -1;
	}
	return 0;
}

int wl_point_kernel(const struct wl_point *pt, const char *options, const char *name,
		    cl_kernel *out, struct wl_error *err)
{
	double started = wl_now_ms();
	int rc = point_kernel(pt, options, name, out, err);

	wl_budget_add(pt->budget, WL_PHASE_BUILD, started);
	return rc;
}

static int point_kernel(const struct wl_point *pt, const char *options, const char *name,
			cl_kernel *out, struct wl_error *err)
{
	cl_program program;
	cl_uint have, want;
	cl_int rc;

	if (wl_program_get(pt->programs, pt->dev, pt->source, options, &program, err) < 0)
		return -1;
	*out = clCreateKernel(program, name, &rc);
	if (!*out) {
		wl_error_set(err, rc == CL_INVALID_KERNEL_NAME ? WL_ERR_CONFIG : WL_ERR_INTERNAL,
			     "clCreateKernel %s: %s", name, wl_cl_error_name(rc));
		return -1;
	}
	if (!pt->like_kernel)
		return 0;
	/* A custom kernel is called with its built-in's arguments: say so plainly
	 * rather than let the launch fail with CL_INVALID_KERNEL_ARGS. */
	if (kernel_arity(pt, pt->family, options, pt->like_kernel, &want, err) < 0 ||
	    clGetKernelInfo(*out, CL_KERNEL_NUM_ARGS, sizeof(have), &have, NULL) != CL_SUCCESS) {
		clReleaseKernel(*out);
		*out = NULL;
		if (!err || !err->msg[0])
			wl_error_set(err, WL_ERR_INTERNAL, "clGetKernelInfo %s failed", name);
		return -1;
	}
	if (have != want) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "%s takes %u parameters, but the harness calls it like %s, with %u (see its signature)",
			     name, have, pt->like_kernel, want);
		clReleaseKernel(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* OpenCL's flags for role. */
static cl_mem_flags cl_flags(enum wl_buf_role role)
{
	return role == WL_BUF_IN ? CL_MEM_READ_ONLY : role == WL_BUF_OUT ? CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE;
}

int wl_point_buffer(const struct wl_point *pt, enum wl_buf_role role, size_t bytes,
		    const void *init, struct wl_buf *out, struct wl_error *err)
{
	double started = wl_now_ms();
	cl_int rc;

	memset(out, 0, sizeof(*out));
	if (pt->cuda) {
		if (wl_cuda_buffer(pt->dev->cuda, bytes, init, out, err) < 0)
			return -1;
		wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
		return 0;
	}
	out->cl = clCreateBuffer(pt->dev->context, cl_flags(role), bytes, NULL, &rc);
	if (!out->cl) {
		wl_error_set(err, WL_ERR_INTERNAL, "clCreateBuffer of %zu bytes: %s", bytes,
			     wl_cl_error_name(rc));
		return -1;
	}
	out->bytes = bytes;
	if (init) {
		rc = clEnqueueWriteBuffer(pt->dev->queue, out->cl, CL_TRUE, 0, bytes, init, 0, NULL, NULL);
		if (rc != CL_SUCCESS) {
			wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueWriteBuffer of %zu bytes: %s",
				     bytes, wl_cl_error_name(rc));
			wl_buf_release(out);
			return -1;
		}
	}
	wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
	return 0;
}

int wl_point_poison(const struct wl_point *pt, const struct wl_buf *buf, size_t bytes, struct wl_error *err)
{
	const cl_uint pattern = 0xFFFFFFFFu;
	double started = wl_now_ms();
	cl_int rc;

	if (pt->cuda) {
		if (wl_cuda_fill(pt->dev->cuda, buf, pattern, bytes, err) < 0)
			return -1;
		wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
		return 0;
	}
	rc = clEnqueueFillBuffer(pt->dev->queue, buf->cl, &pattern, sizeof(pattern), 0, bytes, 0, NULL,
				 NULL);
	if (rc == CL_SUCCESS)
		rc = clFinish(pt->dev->queue);
	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueFillBuffer (poison): %s",
			     wl_cl_error_name(rc));
		return -1;
	}
	wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
	return 0;
}

int wl_point_read(const struct wl_point *pt, const struct wl_buf *buf, size_t bytes, void *out,
		  struct wl_error *err)
{
	double started = wl_now_ms();
	cl_int rc = CL_SUCCESS;

	if (pt->cuda) {
		int read = wl_cuda_read(pt->dev->cuda, buf, bytes, out, err);

		wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
		return read;
	}
	rc = clEnqueueReadBuffer(pt->dev->queue, buf->cl, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
	wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueReadBuffer of %zu bytes: %s", bytes,
			     wl_cl_error_name(rc));
		return -1;
	}
	return 0;
}

int wl_warm_known(const struct wl_warm_kernels *w, const char *variant)
{
	for (size_t i = 0; w && variant && i < w->count; i++)
		if (strcmp(w->names[i], variant) == 0)
			return 1;
	return 0;
}

void wl_warm_note(struct wl_warm_kernels *w, const char *variant, double median_ms)
{
	if (w && variant && median_ms >= WL_WARM_AFTER_MS && !wl_warm_known(w, variant) && w->count < WL_WARM_MAX)
		w->names[w->count++] = variant;
}

int wl_point_time(const struct wl_point *pt, const struct wl_launch *l,
		  struct wl_measurement *res, struct wl_error *err)
{
	const struct wl_sampling fixed = { .min_samples = (size_t)pt->repeat,
					   .max_samples = (size_t)pt->repeat, .target = 0,
					   .budget_ms = 1e300 };
	const struct wl_sampling *rule = pt->sampling ? pt->sampling : &fixed;
	size_t max = (size_t)pt->repeat, n = 0;
	size_t group = 1;
	long long warmup = wl_warm_known(pt->warm, pt->variant) ? 0 : pt->warmup;
	double *samples, started = wl_now_ms();
	enum wl_stop stop = WL_STOP_MORE;
	cl_int code;
	int rc = 0;

	/* No check against CL_KERNEL_WORK_GROUP_SIZE: NVIDIA's driver reports 256
	 * for every kernel and launches 1024 (bench/cl-workgroup-probe.c). The
	 * launch itself says whether the size is refused. */
	for (cl_uint d = 0; d < l->dims; d++)
		group *= l->local[d];
	if (max > WL_REPEAT_MAX)
		max = WL_REPEAT_MAX;
	samples = calloc(max, sizeof(*samples));
	if (!samples) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	/* Batches: first the least the rule judges on, then half as many again
	 * as there are, so a point that converges early stops early and one that
	 * does not costs few judgements. */
	while (stop == WL_STOP_MORE) {
		size_t batch = n == 0 ? rule->min_samples : n / 2;

		if (batch < 1)
			batch = 1;
		if (batch > max - n)
			batch = max - n;
		rc = pt->cuda ? wl_cuda_time_launches(pt->dev->cuda, l, n == 0 ? warmup : 0, (long long)batch,
						       pt->flush, samples + n, &code, err)
			      : wl_time_launches(pt->dev->queue, l, n == 0 ? warmup : 0, (long long)batch,
						 pt->flush, samples + n, &code, err);
		if (rc < 0)
			break;
		/* A batch the GPU ran while capping its clocks is not the kernel's
		 * speed: drop it (up to four times the most samples, so a GPU that
		 * stays capped still gets measured, and says so). */
		if (pt->dev->nvml && wl_nvml_throttled(pt->dev->nvml) &&
		    res->discarded + (long long)batch <= 4 * (long long)max) {
			res->discarded += (long long)batch;
			continue;
		}
		n += batch;
		stop = wl_sampling_verdict(rule, samples, n, wl_now_ms() - started);
		if (n == max && stop == WL_STOP_MORE)
			stop = WL_STOP_MAX;
	}
	if (rc < 0 && code == CL_INVALID_WORK_GROUP_SIZE) {
		/* Refused before it ran: the queue is intact, only this point fails. */
		snprintf(res->error, sizeof(res->error),
			 "%s refused work-groups of %zu work-items for this kernel (CL_INVALID_WORK_GROUP_SIZE)",
			 pt->dev->id, group);
		wl_error_clear(err);
		rc = 0;
	} else if (rc == 0 && wl_stats_summary(samples, n, &res->stats) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		rc = -1;
	} else if (rc == 0) {
		res->reps = (long long)n;
		res->stop = stop;
		wl_warm_note(pt->warm, pt->variant, res->stats.median);
		for (size_t i = 0; i < n; i++) {
			res->samples[i] = (float)samples[i];
			if (pt->budget)
				pt->budget->kernel_ms += samples[i];
		}
	}
	free(samples);
	wl_budget_add(pt->budget, WL_PHASE_LAUNCH, started);
	return rc;
}

/* The hardware's counts for one more launch of l (its output was read), as
 * the result's extra {"counters": {...}} or {"counters_error": why}: now,
 * or where the point says so, later with other launches (cuda_counts.h),
 * the extra saying until then that they are coming. */
static void count(const struct wl_point *pt, const struct wl_launch *l, struct wl_measurement *res)
{
	double values[WL_COUNTERS], started = wl_now_ms();
	char why[300];
	struct wl_error err;
	int profiled;

	if (pt->count_later && wl_cuda_count_later(pt->dev->cuda, l, pt->flush, res->stats.median, pt->run_id,
						   pt->result_seq, &err) == 0) {
		snprintf(res->extra, sizeof(res->extra), "%s", WL_COUNTS_PENDING);
		return;
	}
	profiled = wl_cuda_profile(pt->dev->cuda, l, values, why, sizeof(why)) == 0;
	wl_counts_extra(profiled ? values : NULL, why, res->extra, sizeof(res->extra));
	wl_budget_add(pt->budget, WL_PHASE_COUNTERS, started);
}

int wl_point_run(const struct wl_point *pt, const struct wl_launch *l, const struct wl_buf *out, size_t bytes,
		 const void **host, struct wl_measurement *res, struct wl_error *err)
{
	double started;
	void *staging;
	unsigned slot;
	int rc;

	if (wl_point_poison(pt, out, bytes, err) < 0 || wl_point_time(pt, l, res, err) < 0)
		return -1;
	if (res->error[0])
		return 0;
	/* Pinned memory kept between points: the read is a DMA at the bus's
	 * speed, into pages that are already there. The slots alternate, so the
	 * previous variant's output may still be checked; the one before it has
	 * been (its wait counts as verification). */
	slot = pt->dev->staging_turn++ & 1;
	if (pt->checker) {
		size_t size = pt->dev->staging[slot].size;
		void *held = pt->cuda ? wl_cuda_staging_now(pt->dev->cuda, slot, &size) : pt->dev->staging[slot].ptr;

		wl_checker_wait_reading(pt->checker, held, size);
	}
	started = wl_now_ms();
	rc = pt->cuda ? wl_cuda_staging(pt->dev->cuda, slot, bytes, &staging, err) :
		wl_cl_device_staging(pt->dev, slot, bytes, &staging, err);
	wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
	if (rc < 0 || wl_point_read(pt, out, bytes, staging, err) < 0)
		return -1;
	*host = staging;
	if (pt->cuda && !pt->uncounted)
		count(pt, l, res);
	return 1;
}

void wl_buf_release(struct wl_buf *b)
{
	if (b->cl)
		clReleaseMemObject(b->cl);
	if (b->cu)
		wl_cuda_buffer_release(b);
	memset(b, 0, sizeof(*b));
}

void wl_launch_release(struct wl_launch *l)
{
	if (l->kernel)
		clReleaseKernel(l->kernel);
	l->kernel = NULL;
	wl_cuda_call_free(l->cuda);
	l->cuda = NULL;
}

void wl_point_verify(const struct wl_point *pt, const struct wl_exact_check *job,
		     struct wl_measurement *res)
{
	if (pt->checker)
		wl_checker_start(pt->checker, job, res);
	else
		res->verified = wl_exact_check_run(job, res);
}
