/* Random inputs made on the device (see point.h, wl_point_random): the
 * same SplitMix64 values as rng.c, each element computed from its index by a
 * small kernel of the runner's own, so a 4 GiB input is never copied over PCIe.
 * The host computes the same values on its cores for the CPU reference. The
 * float scaling multiplies by 2^-23 (exact) rather than divide, which OpenCL
 * does not promise to round correctly. */
#include "experiment.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "device.h"
#include "rng.h"

/* One source for every language: each backend's opencl_prelude makes it
 * its own (CUDA's maps these words to CUDA's). */
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

#define FILL_ITEMS ((size_t)1 << 20)

const struct wl_source *wl_device_rng_source(const struct wl_backend *be, struct wl_error *err)
{
	static struct wl_source sources[WL_DEVICE_APIS];

	return wl_runner_source(be, RNG_SOURCE, sources, err);
}

int wl_point_random(const struct wl_point *pt, struct wl_rng *r, size_t n, int small_int_max,
		    float *host, enum wl_buf_role role, struct wl_buf *out, struct wl_error *err)
{
	const struct wl_backend *be = pt->backend;
	const struct wl_source *source = wl_device_rng_source(be, err);
	struct wl_point own = *pt;
	struct wl_launch l = { .dims = 1, .local = { 256 } };
	uint64_t base = r->state;
	struct wl_error why;
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
	own.source = source;
	own.like_kernel = NULL;
	own.budget = NULL;	/* it runs in a setup, whose time is the inputs' */
	/* A kernel fills it, so it cannot be read-only (Oclgrind's check found
	 * that writing one is undefined, whatever drivers let pass): whatever
	 * role the family gives an input, it is made as scratch. */
	(void)role;
	l.global[0] = n < FILL_ITEMS ? (n + 255) / 256 * 256 : FILL_ITEMS;
	if (l.global[0] == 0)
		l.global[0] = 256;
	if (wl_point_buffer(&own, WL_BUF_SCRATCH, n * sizeof(float), NULL, out, err) < 0 ||
	    wl_point_kernel(&own, "", small_int_max > 0 ? "wl_fill_small_int" : "wl_fill_float", &l, err) < 0 ||
	    be->arg_buffer(&l, 0, out, err) < 0 || be->arg_u64(&l, 1, base, err) < 0 ||
	    be->arg_u64(&l, 2, n, err) < 0 ||
	    (small_int_max > 0 && be->arg_word(&l, 3, (uint32_t)small_int_max, err) < 0))
		goto out;
	if (be->run_once(pt->dev, &l, &why) < 0) {
		wl_error_set(err, why.kind, "random inputs on the device: %s", why.msg);
		goto out;
	}
	rc = 0;
out:
	wl_launch_release(&l);
	if (rc < 0)
		wl_buf_release(out);
	return rc;
}
