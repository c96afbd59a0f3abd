/* The CUDA backend (backend.h) over the device's CUDA side (cuda_device.h):
 * buffers are device pointers, kernels are calls into modules NVRTC built,
 * launches are timed between events, and every variant is profiled once
 * more for the hardware's counters, later and together where the point
 * allows (cuda_counts.h). A reset makes the primary context afresh and
 * proves it usable. */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cuda_counts.h"
#include "cuda_device.h"
#include "cupti_counters.h"
#include "cuda_nvrtc.h"
#include "device.h"

/* dev's open CUDA context, or NULL. */
static struct wl_cuda_device *cd_of(const struct wl_device *dev)
{
	const struct wl_cuda_side *side = wl_cuda_of(dev);

	return side ? side->cd : NULL;
}

static const char *family_source(const struct wl_experiment *exp)
{
	return exp->cuda_source;
}

/* The device's CUDA side, opened by its first CUDA run: a context of its
 * own, nothing of another API's side of the device. */
static int open_device(struct wl_device *dev, struct wl_error *err)
{
	struct wl_cuda_side *side = wl_cuda_of(dev);

	if (!side) {
		wl_error_set(err, WL_ERR_CONFIG, "%s has no CUDA side (the CUDA driver does not know it)", dev->id);
		return -1;
	}
	if (!side->cd && !(side->cd = wl_cuda_device_open(side->ordinal, side->nv, err)))
		return -1;
	return 0;
}

static int reset(struct wl_device *dev, struct wl_program_cache *programs, struct wl_error *err)
{
	struct wl_cuda_device *cd = cd_of(dev);
	struct wl_buf probe;

	(void)programs;
	if (!cd)
		return open_device(dev, err);
	/* Where the error is sticky for the process, the fresh context fails
	 * its first allocation or fill: the caller then knows the device
	 * cannot be used again here. */
	if (wl_cuda_device_reset(cd, err) < 0 || wl_cuda_buffer(cd, 4, NULL, &probe, err) < 0)
		return -1;
	if (wl_cuda_fill(cd, &probe, 0, 4, err) < 0) {
		wl_cuda_buffer_release(&probe);
		return -1;
	}
	wl_cuda_buffer_release(&probe);
	return 0;
}

static int buffer(struct wl_device *dev, enum wl_buf_role role, size_t bytes, const void *init,
		  struct wl_buf *out, struct wl_error *err)
{
	(void)role;	/* CUDA's memory has no access flags */
	if (wl_cuda_buffer(cd_of(dev), bytes, init, out, err) < 0)
		return -1;
	out->backend = &wl_backend_cuda;
	return 0;
}

static int fill(struct wl_device *dev, const struct wl_buf *b, uint32_t pattern, size_t bytes,
		struct wl_error *err)
{
	return wl_cuda_fill(cd_of(dev), b, pattern, bytes, err);
}

static int read_back(struct wl_device *dev, const struct wl_buf *b, size_t bytes, void *out, struct wl_error *err)
{
	return wl_cuda_read(cd_of(dev), b, bytes, out, err);
}

static int write_over(struct wl_device *dev, const struct wl_buf *b, size_t bytes, const void *host,
		      struct wl_error *err)
{
	return wl_cuda_write(cd_of(dev), b, bytes, host, err);
}

static int staging(struct wl_device *dev, unsigned slot, size_t bytes, void **ptr, struct wl_error *err)
{
	return wl_cuda_staging(cd_of(dev), slot, bytes, ptr, err);
}

static void *staging_now(const struct wl_device *dev, unsigned slot, size_t *size)
{
	if (!cd_of(dev)) {
		*size = 0;
		return NULL;
	}
	return wl_cuda_staging_now(cd_of(dev), slot, size);
}

static int kernel(const struct wl_kernel_site *site, const char *options, const char *name, struct wl_launch *l,
		  struct wl_error *err)
{
	struct wl_cuda_call *call = NULL;

	if (wl_cuda_call_new(cd_of(site->dev), site->source, options, name, &call, err) < 0)
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

static int arg_value(struct wl_launch *l, unsigned i, const void *value, size_t bytes, struct wl_error *err)
{
	(void)i;
	return wl_cuda_call_value(wl_cuda_call_of(l), value, bytes, err);
}

/* A custom CUDA kernel is called with its like variant's arguments (less
 * the local memory): say so plainly where its signature differs, rather
 * than let the launch read past them. */
static int bound(const struct wl_kernel_site *site, const struct wl_launch *l, struct wl_error *err)
{
	int have = wl_cuda_call_params(wl_cuda_call_of(l)), want = wl_cuda_call_given(wl_cuda_call_of(l));

	if (!site->like_kernel || have < 0 || have == want)
		return 0;
	wl_error_set(err, WL_ERR_CONFIG,
		     "%s takes %d parameters, but the harness calls it like %s, with %d (see its signature; local memory is extern __shared__ in CUDA, no parameter)",
		     site->variant ? site->variant : "the kernel", have, site->like_kernel, want);
	return -1;
}

static int run_once(struct wl_device *dev, const struct wl_launch *l, struct wl_error *err)
{
	(void)dev;
	return wl_cuda_call_run(wl_cuda_call_of(l), l->global[0] / l->local[0], l->local[0], err);
}

static int time_launches(const struct wl_kernel_site *site, const struct wl_launch *l, long long warmup, long long repeat,
			 const struct wl_flush *flush, double *samples_ms, int *refused, struct wl_error *err)
{
	return wl_cuda_time_launches(cd_of(site->dev), l, warmup, repeat, flush, samples_ms, refused, err);
}

static void launch_release(struct wl_launch *l)
{
	wl_cuda_call_free(wl_cuda_call_of(l));
}

/* The hardware's counts for one more launch of l (its output was read), as
 * the result's extra {"counters": {...}} or {"counters_error": why}: now,
 * or where the ask allows, later with other launches (cuda_counts.h), the
 * extra saying until then that they are coming. */
static void count(const struct wl_kernel_site *site, const struct wl_launch *l, const struct wl_count_ask *ask,
		  char *extra, size_t len)
{
	struct wl_cuda_device *cd = cd_of(site->dev);
	double values[WL_COUNTERS];
	char why[300];
	struct wl_error err;
	int profiled;

	if (ask->later && wl_cuda_count_later(cd, l, ask->flush, ask->median_ms, ask->run_id, ask->seq, &err) == 0) {
		snprintf(extra, len, "%s", WL_COUNTS_PENDING);
		return;
	}
	profiled = wl_cuda_profile(cd, l, values, why, sizeof(why)) == 0;
	wl_counts_extra(profiled ? values : NULL, why, extra, len);
}

/* The launches waiting for their counters on the device's open context
 * (none where it is not open). */
static size_t counts_waiting(const struct wl_device *dev, long long run_id)
{
	return cd_of(dev) ? wl_cuda_counts_waiting(cd_of(dev), run_id) : 0;
}

static int counts_due(const struct wl_device *dev, size_t held_max)
{
	return cd_of(dev) && wl_cuda_counts_due(cd_of(dev), held_max);
}

static long long counts_seconds(const struct wl_device *dev, size_t max)
{
	return cd_of(dev) ? wl_cuda_counts_seconds(cd_of(dev), max) : 0;
}

static void counts_profile(struct wl_device *dev, size_t max)
{
	if (cd_of(dev))
		wl_cuda_counts_profile(cd_of(dev), max);
}

static void counts_drop(struct wl_device *dev, const char *why, int context_lost, long long run_id)
{
	if (cd_of(dev))
		wl_cuda_counts_drop(cd_of(dev), why, context_lost, run_id);
}

static size_t counts_settled(const struct wl_device *dev, const struct wl_counted **out)
{
	*out = NULL;
	return cd_of(dev) ? wl_cuda_counts_settled(cd_of(dev), out) : 0;
}

static void counts_forget(struct wl_device *dev, size_t n)
{
	if (cd_of(dev))
		wl_cuda_counts_forget(cd_of(dev), n);
}

static const struct wl_deferred_counts deferred = {
	.session_max = WL_COUNTS_MAX,
	.waiting = counts_waiting,
	.due = counts_due,
	.seconds = counts_seconds,
	.profile = counts_profile,
	.drop = counts_drop,
	.settled = counts_settled,
	.forget = counts_forget,
};

static json_t *account(const struct wl_kernel_site *site, const char *options, const struct wl_launch *l,
		       const char **log, const char **ptx, size_t *ptx_dropped)
{
	(void)site;
	(void)options;
	*ptx_dropped = 0;
	return wl_cuda_call_account(wl_cuda_call_of(l), log, ptx);
}

/* NVRTC's version with the driver's, so that a build of the same source by
 * another compiler is another build. */
static char *compiler(const struct wl_device *dev)
{
	const char *driver = json_string_value(json_object_get(dev->info, "driver"));
	const struct wl_cuda_side *side = wl_cuda_of(dev);
	const struct wl_nvrtc *nv = side ? side->nv : NULL;
	char text[96];

	snprintf(text, sizeof(text), "NVRTC %d.%d, driver %s", nv ? nv->major : 0, nv ? nv->minor : 0,
		 driver ? driver : "");
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
	.traced = 1,
	.counted = 1,
	.names_loss = 1,
	.refused_name = "CUDA_ERROR_INVALID_VALUE",
	.opencl_prelude = WL_CUDA_OPENCL_PRELUDE,
	.detach = wl_cuda_detach,
	.family_source = family_source,
	.open = open_device,
	.reset = reset,
	.buffer = buffer,
	.fill = fill,
	.read = read_back,
	.write = write_over,
	.buffer_release = wl_cuda_buffer_release,
	.staging = staging,
	.staging_now = staging_now,
	.kernel = kernel,
	.arg_buffer = arg_buffer,
	.arg_word = arg_word,
	.arg_u64 = arg_u64,
	.arg_local = arg_local,
	.arg_value = arg_value,
	.bound = bound,
	.run_once = run_once,
	.time = time_launches,
	.launch_release = launch_release,
	.count = count,
	.deferred = &deferred,
	.account = account,
	.compiler = compiler,
	.build_log = build_log,
};
