/* Random inputs made on the device (see point.h, wl_point_random): the
 * same SplitMix64 values as rng.c, each element computed from its index by a
 * small kernel of the runner's own, so a 4 GiB input is never copied over PCIe.
 * The host computes the same values on its cores for the CPU reference. The
 * float scaling multiplies by 2^-23 (exact) rather than divide, which OpenCL
 * does not promise to round correctly. */
#include "experiment.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_point.h"
#include "rng.h"

/* One source for both languages: CUDA reads it through CUDA_PRELUDE. */
static const char RNG_SOURCE[] =
	"#ifndef WL_DEVICE\n"
	"#define WL_DEVICE\n"
	"#endif\n"
	"#define GAMMA 0x9e3779b97f4a7c15UL\n"
	"WL_DEVICE ulong wl_mix(ulong z)\n"
	"{\n"
	"	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;\n"
	"	z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;\n"
	"	return z ^ (z >> 31);\n"
	"}\n"
	"__kernel void wl_fill_float(__global float *out, ulong base, ulong n)\n"
	"{\n"
	"	for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
	"		int v = (int)(wl_mix(base + (i + 1) * GAMMA) >> 40) - (1 << 23);\n"
	"		out[i] = (float)(v ? v : 1) * 0x1p-23f;\n"
	"	}\n"
	"}\n"
	"__kernel void wl_fill_small_int(__global float *out, ulong base, ulong n, uint max)\n"
	"{\n"
	"	for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
	"		ulong v = wl_mix(base + (i + 1) * GAMMA);\n"
	"		int m = 1 + (int)((v >> 32) % max);\n"
	"		out[i] = (float)((v & 1) ? m : -m);\n"
	"	}\n"
	"}\n";

static const char CUDA_PRELUDE[] =
	"#define WL_DEVICE __device__\n"
	"#define ulong unsigned long long\n"
	"#define uint unsigned int\n"
	"#define __kernel extern \"C\" __global__\n"
	"#define __global\n"
	"#define get_global_id(d) (blockIdx.x * (ulong)blockDim.x + threadIdx.x)\n"
	"#define get_global_size(d) ((ulong)gridDim.x * blockDim.x)\n";

#define FILL_ITEMS ((size_t)1 << 20)

/* The CUDA side's fill: the same kernels through CUDA_PRELUDE, into a new
 * buffer *out. */
const struct wl_source *wl_device_rng_cuda_source(struct wl_error *err)
{
	static struct wl_source source;
	int rc;

	if (!source.text) {
		char *text = malloc(sizeof(CUDA_PRELUDE) + sizeof(RNG_SOURCE));

		if (!text) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return NULL;
		}
		memcpy(text, CUDA_PRELUDE, sizeof(CUDA_PRELUDE) - 1);
		memcpy(text + sizeof(CUDA_PRELUDE) - 1, RNG_SOURCE, sizeof(RNG_SOURCE));
		rc = wl_source_from_text(text, &source, err);
		free(text);
		if (rc < 0)
			return NULL;
	}
	return &source;
}

static int cuda_random(const struct wl_point *pt, uint64_t base, size_t n, int small_int_max, struct wl_buf *out,
		       struct wl_error *err)
{
	const struct wl_source *source = wl_device_rng_cuda_source(err);
	struct wl_cuda_call *call = NULL;
	size_t groups = (n < FILL_ITEMS ? n + 255 : FILL_ITEMS) / 256;
	int rc = -1;

	if (!source)
		return -1;
	if (wl_point_buffer(pt, WL_BUF_SCRATCH, n * sizeof(float), NULL, out, err) < 0 ||
	    wl_cuda_call_new(pt->dev->cuda, source, "", small_int_max > 0 ? "wl_fill_small_int" : "wl_fill_float", &call,
			     err) < 0 ||
	    wl_cuda_call_buffer(call, out, err) < 0 || wl_cuda_call_u64(call, base, err) < 0 ||
	    wl_cuda_call_u64(call, n, err) < 0 ||
	    (small_int_max > 0 && wl_cuda_call_word(call, (uint32_t)small_int_max, err) < 0) ||
	    wl_cuda_call_run(call, groups ? groups : 1, 256, err) < 0)
		goto out;
	rc = 0;
out:
	wl_cuda_call_free(call);
	if (rc < 0)
		wl_buf_release(out);
	return rc;
}

const struct wl_source *wl_device_rng_source(struct wl_error *err)
{
	static struct wl_source source;

	if (!source.text) {
		if (wl_source_from_text(RNG_SOURCE, &source, err) < 0)
			return NULL;
		source.keep_binary = 1;
	}
	return &source;
}

int wl_point_random(const struct wl_point *pt, struct wl_rng *r, size_t n, int small_int_max,
		    float *host, enum wl_buf_role role, struct wl_buf *out, struct wl_error *err)
{
	const struct wl_source *source = wl_device_rng_source(err);
	struct wl_point own = *pt;
	struct wl_launch l = { .dims = 1, .local = { 256 } };	/* for its sizes */
	cl_ulong base = r->state, count = n;
	cl_uint max = (cl_uint)small_int_max;
	cl_int code;
	int rc = -1;

	if (!source)
		return -1;
	if (!host)
		wl_rng_skip(r, n);
	else if (small_int_max > 0)
		wl_rng_fill_small_int(r, host, n, small_int_max);
	else
		wl_rng_fill_float(r, host, n);
	memset(out, 0, sizeof(*out));
	if (pt->cuda)
		return cuda_random(pt, base, n, small_int_max, out, err);
	own.source = source;
	own.like_kernel = NULL;
	own.budget = NULL;	/* it runs in a setup, whose time is the inputs' */
	/* A kernel fills it, so it cannot be read-only (Oclgrind's check found
	 * that writing one is undefined, whatever drivers let pass): whatever
	 * role the family gives an input, it is made as scratch. */
	(void)role;
	if (wl_point_buffer(&own, WL_BUF_SCRATCH, n * sizeof(float), NULL, out, err) < 0 ||
	    wl_point_kernel(&own, "", small_int_max > 0 ? "wl_fill_small_int" : "wl_fill_float", &l.kernel,
			    err) < 0)
		goto out;
	l.global[0] = n < FILL_ITEMS ? (n + 255) / 256 * 256 : FILL_ITEMS;
	clSetKernelArg(l.kernel, 0, sizeof(cl_mem), &out->cl);
	clSetKernelArg(l.kernel, 1, sizeof(cl_ulong), &base);
	clSetKernelArg(l.kernel, 2, sizeof(cl_ulong), &count);
	if (small_int_max > 0)
		clSetKernelArg(l.kernel, 3, sizeof(cl_uint), &max);
	code = clEnqueueNDRangeKernel(pt->dev->queue, l.kernel, 1, NULL, l.global, l.local, 0, NULL, NULL);
	if (code == CL_SUCCESS)
		code = clFinish(pt->dev->queue);
	if (code != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "random inputs on the device: %s", wl_cl_error_name(code));
		goto out;
	}
	rc = 0;
out:
	if (l.kernel)
		clReleaseKernel(l.kernel);
	if (rc < 0)
		wl_buf_release(out);
	return rc;
}
