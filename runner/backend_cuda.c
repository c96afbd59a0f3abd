/* The CUDA backend (backend.h) over the device's CUDA side (cuda_point.h):
 * buffers are device pointers, kernels are calls into modules NVRTC built,
 * launches are timed between events, and every variant is profiled once
 * more for the hardware's counters (cuda_counts.h). A reset makes the
 * primary context afresh and proves it usable. */
#include "backend.h"

#include <stdio.h>
#include <string.h>

#include "cl_device.h"
#include "cuda_counts.h"
#include "cuda_point.h"
#include "cupti_counters.h"
#include "nvrtc.h"
#include "point.h"

static const char *family_source(const struct wl_experiment *exp)
{
	return exp->cuda_source;
}

/* The device's CUDA side, opened by its first CUDA run: a context of its
 * own, no OpenCL context or queue (the device's description, found through
 * OpenCL, is all a CUDA run reads of that side). */
static int open_device(struct wl_cl_device *dev, struct wl_error *err)
{
	if (!dev->cuda && !(dev->cuda = wl_cuda_device_open(dev->cuda_ordinal, dev->nvrtc, err)))
		return -1;
	return 0;
}

static int reset(struct wl_cl_device *dev, struct wl_program_cache *programs, struct wl_error *err)
{
	struct wl_buf probe;

	(void)programs;
	if (!dev->cuda)
		return open_device(dev, err);
	/* Where the error is sticky for the process, the fresh context fails
	 * its first allocation or fill: the caller then knows the device
	 * cannot be used again here. */
	if (wl_cuda_device_reset(dev->cuda, err) < 0 || wl_cuda_buffer(dev->cuda, 4, NULL, &probe, err) < 0)
		return -1;
	if (wl_cuda_fill(dev->cuda, &probe, 0, 4, err) < 0) {
		wl_cuda_buffer_release(&probe);
		return -1;
	}
	wl_cuda_buffer_release(&probe);
	return 0;
}

static int buffer(struct wl_cl_device *dev, enum wl_buf_role role, size_t bytes, const void *init,
		  struct wl_buf *out, struct wl_error *err)
{
	(void)role;	/* CUDA's memory has no access flags */
	return wl_cuda_buffer(dev->cuda, bytes, init, out, err);
}

static int fill(struct wl_cl_device *dev, const struct wl_buf *b, uint32_t pattern, size_t bytes,
		struct wl_error *err)
{
	return wl_cuda_fill(dev->cuda, b, pattern, bytes, err);
}

static int read_back(struct wl_cl_device *dev, const struct wl_buf *b, size_t bytes, void *out, struct wl_error *err)
{
	return wl_cuda_read(dev->cuda, b, bytes, out, err);
}

static int staging(struct wl_cl_device *dev, unsigned slot, size_t bytes, void **ptr, struct wl_error *err)
{
	return wl_cuda_staging(dev->cuda, slot, bytes, ptr, err);
}

static void *staging_now(const struct wl_cl_device *dev, unsigned slot, size_t *size)
{
	if (!dev->cuda) {
		*size = 0;
		return NULL;
	}
	return wl_cuda_staging_now(dev->cuda, slot, size);
}

static int kernel(const struct wl_point *pt, const char *options, const char *name, struct wl_launch *l,
		  struct wl_error *err)
{
	struct wl_cuda_call *call = NULL;

	if (wl_cuda_call_new(pt->dev->cuda, pt->source, options, name, &call, err) < 0)
		return -1;
	l->backend = &wl_backend_cuda;
	l->handle = call;
	return 0;
}

static int arg_buffer(struct wl_launch *l, unsigned i, const struct wl_buf *b, struct wl_error *err)
{
	(void)i;	/* the next parameter: they come in order */
	return wl_cuda_call_buffer(wl_cuda_call_of(l), b, err);
}

static int arg_word(struct wl_launch *l, unsigned i, uint32_t word, struct wl_error *err)
{
	(void)i;
	return wl_cuda_call_word(wl_cuda_call_of(l), word, err);
}

static int arg_u64(struct wl_launch *l, unsigned i, uint64_t value, struct wl_error *err)
{
	(void)i;
	return wl_cuda_call_u64(wl_cuda_call_of(l), value, err);
}

/* Local memory is no parameter in CUDA but the call's dynamic shared
 * memory (the kernel's extern __shared__). */
static int arg_local(struct wl_launch *l, unsigned i, size_t bytes, struct wl_error *err)
{
	(void)i;
	return wl_cuda_call_shared(wl_cuda_call_of(l), bytes, err);
}

/* A custom CUDA kernel is called with its like variant's arguments (less
 * the local memory): say so plainly where its signature differs, rather
 * than let the launch read past them. */
static int bound(const struct wl_point *pt, const struct wl_launch *l, struct wl_error *err)
{
	int have = wl_cuda_call_params(wl_cuda_call_of(l)), want = wl_cuda_call_given(wl_cuda_call_of(l));

	if (!pt->like_kernel || have < 0 || have == want)
		return 0;
	wl_error_set(err, WL_ERR_CONFIG,
		     "%s takes %d parameters, but the harness calls it like %s, with %d (see its signature; local memory is extern __shared__ in CUDA, no parameter)",
		     pt->variant ? pt->variant : "the kernel", have, pt->like_kernel, want);
	return -1;
}

static int run_once(struct wl_cl_device *dev, const struct wl_launch *l, struct wl_error *err)
{
	(void)dev;
	return wl_cuda_call_run(wl_cuda_call_of(l), l->global[0] / l->local[0], l->local[0], err);
}

static int time_launches(const struct wl_point *pt, const struct wl_launch *l, long long warmup, long long repeat,
			 const struct wl_flush *flush, double *samples_ms, int *refused, struct wl_error *err)
{
	cl_int code = CL_SUCCESS;
	int rc = wl_cuda_time_launches(pt->dev->cuda, l, warmup, repeat, flush, samples_ms, &code, err);

	*refused = rc < 0 && code == CL_INVALID_WORK_GROUP_SIZE;
	return rc;
}

static void launch_release(struct wl_launch *l)
{
	wl_cuda_call_free(wl_cuda_call_of(l));
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

static json_t *account(const struct wl_point *pt, const char *options, const struct wl_launch *l,
		       const char **log, const char **ptx, size_t *ptx_dropped)
{
	(void)pt;
	(void)options;
	*ptx_dropped = 0;
	return wl_cuda_call_account(wl_cuda_call_of(l), log, ptx);
}

/* NVRTC's version with the driver's, so that a build of the same source by
 * another compiler is another build. */
static char *compiler(const struct wl_cl_device *dev)
{
	const char *driver = json_string_value(json_object_get(dev->info, "driver"));
	char text[96];

	snprintf(text, sizeof(text), "NVRTC %d.%d, driver %s", dev->nvrtc ? dev->nvrtc->major : 0,
		 dev->nvrtc ? dev->nvrtc->minor : 0, driver ? driver : "");
	return strdup(text);
}

/* NVRTC's words, or the driver's JIT log, come with the error. */
static const char *build_log(const struct wl_program_cache *programs, const struct wl_error *why)
{
	(void)programs;
	return why->msg;
}

const struct wl_backend wl_backend_cuda = {
	.language = WL_LANG_CUDA,
	.name = "CUDA",
	.counted = 1,
	.names_loss = 1,
	.refused_name = "CUDA_ERROR_INVALID_VALUE",
	.family_source = family_source,
	.open = open_device,
	.reset = reset,
	.buffer = buffer,
	.fill = fill,
	.read = read_back,
	.buffer_release = wl_cuda_buffer_release,
	.staging = staging,
	.staging_now = staging_now,
	.kernel = kernel,
	.arg_buffer = arg_buffer,
	.arg_word = arg_word,
	.arg_u64 = arg_u64,
	.arg_local = arg_local,
	.bound = bound,
	.run_once = run_once,
	.time = time_launches,
	.launch_release = launch_release,
	.count = count,
	.account = account,
	.compiler = compiler,
	.build_log = build_log,
	.rng_source = wl_device_rng_cuda_source,
};
