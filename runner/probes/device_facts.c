/* The device facts probes (see device_facts.h): small kernels in one
 * program, each timed with the queue's profiling events, the median of a few
 * launches after a warm-up. */
#include "device_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access_facts.h"
#include "launch.h"
#include "probe_kit.h"
#include "time_budget.h"
#include "rng.h"
#include "stats.h"

static const char FACTS_SOURCE[] =
	"__kernel void fact_empty(__global uint *out) { }\n"
	/* One work-item follows a random cycle: every load waits for the last. */
	/* Each launch goes on from where the last stopped (out[0]), so that
	 * none finds the sectors of another in a cache. */
	"__kernel void fact_chase(__global const uint *next, __global uint *out, uint steps)\n"
	"{\n"
	"	uint i = out[0];\n"
	"	for (uint s = 0; s < steps; s++)\n"
	"		i = next[i];\n"
	"	out[0] = i;\n"
	"}\n"
	/* One warp alone streams a load and a store per iteration, as seed 000's
	 * MyAdd does: its pace is latency over what one warp keeps in flight. */
	"__kernel void fact_stream(__global const float *a, __global float *c, uint n)\n"
	"{\n"
	"	uint t = get_global_id(0), w = get_global_size(0);\n"
	"	for (uint k = t; k < n; k += w)\n"
	"		c[k] = a[k] + a[k];\n"
	"}\n"
	/* The same with each lane on a row of its own (a line per lane), as
	 * MyAdd's rows are. */
	"__kernel void fact_stream_rows(__global const float *a, __global float *c, uint n)\n"
	"{\n"
	"	uint t = get_global_id(0), w = get_global_size(0), row = n / w;\n"
	"	for (uint k = 0; k < row; k++)\n"
	"		c[t * row + k] = a[t * row + k] + a[t * row + k];\n"
	"}\n"
	/* Every request of a warp lands in one bank: 32 passes each. */
	"__kernel void fact_local(__global float *out, uint iters)\n"
	"{\n"
	"	__local float tile[1024];\n"
	"	uint lid = get_local_id(0), lane = lid % 32;\n"
	"	for (uint i = lid; i < 1024; i += get_local_size(0))\n"
	"		tile[i] = (float)i;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	float acc = 0.0f;\n"
	"	for (uint k = 0; k < iters; k++)\n"
	"		acc += tile[(lane * 32 + k) & 1023];\n"
	"	out[get_global_id(0)] = acc;\n"
	"}\n"
	/* Reads of a set the last-level cache holds, each pass starting where
	 * another compute unit read the last, so the first-level caches miss. */
	"__kernel void fact_cache(__global const float4 *in, __global float *out, uint n4, uint reps)\n"
	"{\n"
	"	float4 acc = (float4)(0.0f);\n"
	"	uint g = get_global_id(0), size = get_global_size(0), shift = 0;\n"
	"	for (uint r = 0; r < reps; r++, shift = shift + n4 / 7 + 1 < n4 ? shift + n4 / 7 + 1 : 0)\n"
	"		for (uint i = g; i < n4; i += size)\n"
	"			acc += in[i + shift < n4 ? i + shift : i + shift - n4];\n"
	"	out[g] = acc.x + acc.y + acc.z + acc.w;\n"
	"}\n"
	/* Work-groups of 256 cross barriers in turn, a local store and load
	 * between each, as a reduction's tree does. */
	"__kernel void fact_barrier(__global float *out, uint rounds)\n"
	"{\n"
	"	__local float t[256];\n"
	"	uint lid = get_local_id(0);\n"
	"	float acc = (float)lid;\n"
	"	for (uint r = 0; r < rounds; r++) {\n"
	"		t[lid] = acc;\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"		acc += t[(lid + r + 1) & 255];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	out[get_global_id(0)] = acc;\n"
	"}\n"
	/* Loads the first-level cache serves: each request's 32 lanes spread
	 * over `lines` lines (lane % lines), on words `skew` banks apart from
	 * line to line (0: every line's word in one bank), eight requests per
	 * iteration a 4 KB block apart, the whole 40 KB read over and over. The
	 * sums hang on no load, so a warp keeps as many in flight as it can. */
	"__kernel void fact_l1(__global const float *in, __global float *out, uint iters, uint lines, uint skew)\n"
	"{\n"
	"	uint lane = get_local_id(0) % 32;\n"
	"	__global const float *q = in + (lane % lines) * 32 + ((lane / lines + skew * (lane % lines)) & 31);\n"
	"	float acc = 0.0f;\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		__global const float *p = q + (k & 7) * 32;\n"
	"		acc += ((p[0] + p[1024]) + (p[2048] + p[3072])) + ((p[4096] + p[5120]) + (p[6144] + p[7168]));\n"
	"	}\n"
	"	out[get_global_id(0)] = acc;\n"
	"}\n"
	/* One word every stride floats. */
	"__kernel void fact_strided(__global const float *in, __global float *out, uint stride)\n"
	"{\n"
	"	uint g = get_global_id(0);\n"
	"	out[g] = in[g * stride];\n"
	"}\n";

#define TIMED 5
#define SHORT WL_PROBE_TIMED_MAX

struct probe {
	struct wl_probe kit;		/* the program, the device, the error */
	struct wl_device *dev;
	cl_mem a, b;			/* scratch buffers */
	size_t a_bytes, b_bytes;
	struct wl_error *err;
};

static double timed_n(struct probe *p, const char *name, size_t global, size_t local, int nargs,
		      const size_t *sizes, const void *const *values, int n, int fastest)
{
	return wl_probe_time(&p->kit, name, 1, &global, &local, nargs, sizes, values, n, fastest);
}

static double timed(struct probe *p, const char *name, size_t global, size_t local, int nargs,
		    const size_t *sizes, const void *const *values)
{
	return timed_n(p, name, global, local, nargs, sizes, values, TIMED, 0);
}

/* A random cycle through the sectors of the first bytes of buffer a: entry
 * i * 8 (one uint per 32-byte sector, so that no two steps share one)
 * names the next sector's entry. */
static int chase_cycle(struct probe *p, size_t bytes)
{
	size_t lines = bytes / 32, words = lines * 8;
	cl_uint *next = calloc(words, sizeof(*next));
	size_t *order = malloc(lines * sizeof(*order));
	struct wl_rng r;
	int rc = -1;

	if (next && order) {
		wl_rng_seed(&r, 0x5eed);
		for (size_t i = 0; i < lines; i++)
			order[i] = i;
		/* A random order of the lines, chained into one cycle. */
		for (size_t i = lines - 1; i > 0; i--) {
			size_t j = (size_t)(wl_rng_next(&r) % (i + 1)), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (size_t i = 0; i < lines; i++)
			next[order[i] * 8] = (cl_uint)(order[(i + 1) % lines] * 8);
		rc = clEnqueueWriteBuffer(wl_cl_of(p->dev)->queue, p->a, CL_TRUE, 0, words * sizeof(*next), next, 0, NULL,
					  NULL) == CL_SUCCESS ? 0 : -1;
	}
	free(next);
	free(order);
	return rc;
}

/* Sizes, so that a GPU's probes last milliseconds and a CPU's stay short. */
struct sizes {
	size_t chase_bytes, stream_n, cache_bytes, cache_total, strided_n, local_groups;
	cl_uint chase_steps, local_iters;
};

static void size_probes(const struct wl_device *dev, long long cache_bytes, struct sizes *z)
{
	size_t cap = dev->max_alloc / 2 < dev->global_mem / 8 ? dev->max_alloc / 2 : dev->global_mem / 8;
	size_t cache = cache_bytes > 0 ? (size_t)cache_bytes : (size_t)4 << 20;

	z->chase_bytes = cache * 4;
	if (z->chase_bytes > (dev->is_gpu ? (size_t)512 << 20 : (size_t)64 << 20))
		z->chase_bytes = dev->is_gpu ? (size_t)512 << 20 : (size_t)64 << 20;
	if (z->chase_bytes < ((size_t)8 << 20))
		z->chase_bytes = (size_t)8 << 20;
	z->chase_steps = 20000;
	z->stream_n = dev->is_gpu ? (size_t)1 << 20 : (size_t)1 << 18;
	z->cache_bytes = cache / 2 > ((size_t)64 << 20) ? (size_t)64 << 20 : cache / 2;
	z->cache_total = dev->is_gpu ? (size_t)1 << 30 : (size_t)16 << 20;
	z->strided_n = dev->is_gpu ? (size_t)1 << 22 : (size_t)1 << 18;
	z->local_groups = (size_t)dev->compute_units * 8;
	z->local_iters = dev->is_gpu ? 4096 : 256;
	while (z->chase_bytes > cap && z->chase_bytes > ((size_t)1 << 20))
		z->chase_bytes /= 2;
	while (z->strided_n * 16 * sizeof(float) > cap && z->strided_n > 1024)
		z->strided_n /= 2;
	while (z->cache_bytes > cap && z->cache_bytes > ((size_t)1 << 20))
		z->cache_bytes /= 2;
}

/* The first-level cache, eight work-groups of 256 per compute unit: warp
 * requests of one line; requests of 32 lines on one bank (a pass per
 * line); requests of 32 lines on 32 banks (the lines alone); and one warp
 * alone's pace when its loads hit. */
static int l1_probes(struct probe *p, const struct sizes *z, int warp, struct wl_facts *f)
{
	cl_uint iters = z->local_iters / 4, alone = z->local_iters * 2, one = 1, all = 32, none = 0;
	double warps = (double)z->local_groups * (256.0 / warp), units = p->dev->compute_units, per_us[3], ms;
	const size_t sizes[] = { sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint), sizeof(cl_uint), sizeof(cl_uint) };
	const cl_uint *shape[3][2] = { { &one, &none }, { &all, &none }, { &all, &one } };

	for (int i = 0; i < 3; i++) {
		ms = timed(p, "fact_l1", z->local_groups * 256, 256, 5, sizes,
			   (const void *[]){ &p->a, &p->b, &iters, shape[i][0], shape[i][1] });
		if (ms < 0)
			return -1;
		per_us[i] = warps * iters * 8 * *shape[i][0] / (ms * 1000) / units;
	}
	ms = timed(p, "fact_l1", (size_t)warp, (size_t)warp, 5, sizes, (const void *[]){ &p->a, &p->b, &alone, &one, &none });
	if (ms < 0)
		return -1;
	f->l1_requests_per_us = wl_probe_usable(per_us[0]);
	f->l1_passes_per_us = wl_probe_usable(per_us[1]);
	f->l1_lines_per_us = wl_probe_usable(per_us[2]);
	f->l1_interval_ns = wl_probe_usable(ms * 1e6 / ((double)alone * 8));
	return 0;
}

/* Each probe into facts; -1 with p->err set at the first that fails. */
static int run_probes(struct probe *p, const struct sizes *z, struct wl_facts *f)
{
	struct wl_device *dev = p->dev;
	int warp = (int)json_integer_value(json_object_get(dev->info, "warp_width"));
	cl_uint steps = z->chase_steps, n = (cl_uint)z->stream_n, iters = z->local_iters;
	cl_uint n4 = (cl_uint)(z->cache_bytes / 16), reps, s8 = 8, s16 = 16;
	double ms, t8, t16, wavefronts;

	if (warp <= 0)
		warp = 32;
	/* Clocks up first: an idle GPU's would make every figure slow. */
	for (double until = wl_now_ms() + (dev->is_gpu ? 300 : 0); wl_now_ms() < until;)
		if (timed(p, "fact_local", z->local_groups * 256, 256, 2, (size_t[]){ sizeof(cl_mem), sizeof(cl_uint) },
			  (const void *[]){ &p->b, &iters }) < 0)
			return -1;
	ms = timed_n(p, "fact_empty", 256, 256, 1, (size_t[]){ sizeof(cl_mem) }, (const void *[]){ &p->b }, SHORT, 1);
	if (ms < 0)
		return -1;
	f->launch_us = wl_probe_usable(ms * 1000);
	/* A GPU starts work-groups at a rate of its own, whatever their size:
	 * the same empty kernel over 2^20 groups of 64 takes that many starts
	 * past its launch. A CPU's groups are its runtime's loop. */
	if (dev->is_gpu) {
		ms = timed(p, "fact_empty", (size_t)64 << 20, 64, 1, (size_t[]){ sizeof(cl_mem) }, (const void *[]){ &p->b });
		if (ms < 0)
			return -1;
		f->groups_per_us = wl_probe_usable((double)(1 << 20) / (ms * 1000 - f->launch_us));
	}
	if (chase_cycle(p, z->chase_bytes) < 0 ||
	    clEnqueueFillBuffer(wl_cl_of(dev)->queue, p->b, &(cl_uint){ 0 }, sizeof(cl_uint), 0, p->b_bytes, 0, NULL, NULL) != CL_SUCCESS ||
	    (ms = timed(p, "fact_chase", 1, 1, 3, (size_t[]){ sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint) },
			(const void *[]){ &p->a, &p->b, &steps })) < 0)
		return -1;
	f->latency_ns = wl_probe_usable(ms * 1e6 / steps);
	f->latency_bytes = (double)z->chase_bytes;
	ms = timed(p, "fact_stream", (size_t)warp, (size_t)warp, 3, (size_t[]){ sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint) },
		   (const void *[]){ &p->a, &p->b, &n });
	if (ms < 0)
		return -1;
	t8 = timed(p, "fact_stream_rows", (size_t)warp, (size_t)warp, 3, (size_t[]){ sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint) },
		   (const void *[]){ &p->a, &p->b, &n });
	if (t8 < 0)
		return -1;
	f->warp_interval_ns = wl_probe_usable(ms * 1e6 / ((double)z->stream_n / warp * 2));
	f->warp_scattered_ns = wl_probe_usable(t8 * 1e6 / ((double)z->stream_n / warp * 2));
	ms = timed(p, "fact_local", z->local_groups * 256, 256, 2, (size_t[]){ sizeof(cl_mem), sizeof(cl_uint) },
		   (const void *[]){ &p->b, &iters });
	if (ms < 0)
		return -1;
	wavefronts = (double)z->local_groups * (256.0 / warp) * iters * warp;
	f->local_per_us = wl_probe_usable(wavefronts / (ms * 1000) / dev->compute_units);
	{
		cl_uint rounds = dev->is_gpu ? 4096 : 64;

		/* Eight groups of 256 per compute unit: one wave, as many as
		 * its 64 warps hold. */
		ms = timed(p, "fact_barrier", z->local_groups * 256, 256, 2, (size_t[]){ sizeof(cl_mem), sizeof(cl_uint) },
			   (const void *[]){ &p->b, &rounds });
		if (ms < 0)
			return -1;
		f->barrier_ns = wl_probe_usable(ms * 1e6 / rounds);
	}
	if (l1_probes(p, z, warp, f) < 0)
		return -1;
	/* At least one pass: a CPU whose last level holds hundreds of MiB gets
	 * a set larger than its total (64 MiB against 16), and no pass would
	 * time nothing and say the cache moves 0 bytes. */
	reps = z->cache_total > z->cache_bytes ? (cl_uint)(z->cache_total / z->cache_bytes) : 1;
	ms = timed(p, "fact_cache", (size_t)dev->compute_units * 1024, 256, 4,
		   (size_t[]){ sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint), sizeof(cl_uint) },
		   (const void *[]){ &p->a, &p->b, &n4, &reps });
	if (ms < 0)
		return -1;
	f->cache_gbps = wl_probe_usable((double)n4 * 16 * reps / (ms * 1e6));
	f->cache_probe_bytes = (double)z->cache_bytes;
	t8 = timed(p, "fact_strided", z->strided_n, 256, 3, (size_t[]){ sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint) },
		   (const void *[]){ &p->a, &p->b, &s8 });
	t16 = t8 < 0 ? -1 : timed(p, "fact_strided", z->strided_n, 256, 3, (size_t[]){ sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint) },
				   (const void *[]){ &p->a, &p->b, &s16 });
	if (t16 < 0)
		return -1;
	f->burst_bytes = t16 / t8 < 1.5 ? 32 : t16 / t8 < 3 ? 64 : 128;
	f->burst_ratio = t16 / t8;
	return 0;
}

int wl_device_facts_probe(struct wl_device *dev, long long cache_bytes, json_t **out, struct wl_error *err)
{
	struct probe p = { .kit = { .dev = dev, .err = err }, .dev = dev, .err = err };
	struct sizes z;
	struct wl_facts facts = { 0 };
	cl_int rc;
	int status = -1;

	*out = NULL;
	if (wl_cl_device_open(dev, err) < 0)
		return -1;
	size_probes(dev, cache_bytes, &z);
	p.a_bytes = z.chase_bytes;
	if (z.strided_n * 16 * sizeof(float) > p.a_bytes)
		p.a_bytes = z.strided_n * 16 * sizeof(float);
	if (z.cache_bytes > p.a_bytes)
		p.a_bytes = z.cache_bytes;
	p.b_bytes = (z.local_groups * 256 > z.stream_n ? z.local_groups * 256 : z.stream_n) * sizeof(float);
	if ((size_t)dev->compute_units * 1024 * sizeof(float) > p.b_bytes)
		p.b_bytes = (size_t)dev->compute_units * 1024 * sizeof(float);
	if (z.strided_n * sizeof(float) > p.b_bytes)
		p.b_bytes = z.strided_n * sizeof(float);
	if (wl_probe_build(&p.kit, FACTS_SOURCE, "latency and pace") < 0)
		goto out;
	p.a = clCreateBuffer(wl_cl_of(dev)->context, CL_MEM_READ_WRITE, p.a_bytes, NULL, &rc);
	p.b = p.a ? clCreateBuffer(wl_cl_of(dev)->context, CL_MEM_READ_WRITE, p.b_bytes, NULL, &rc) : NULL;
	if (!p.a || !p.b) {
		wl_error_set(err, WL_ERR_INTERNAL, "device facts: cannot allocate %zu bytes on %s", p.a_bytes, dev->id);
		goto out;
	}
	if (run_probes(&p, &z, &facts) < 0 || wl_access_facts_probe(dev, cache_bytes, &facts, err) < 0)
		goto out;
	/* A busy machine's clock can give a probe no figure: those are
	 * measured once more, and said absent where they fail again. */
	if (wl_facts_any_unmeasured(&facts)) {
		struct wl_facts again = { 0 };

		if (run_probes(&p, &z, &again) < 0 || wl_access_facts_probe(dev, cache_bytes, &again, err) < 0)
			goto out;
		wl_facts_fill_unmeasured(&facts, &again);
	}
	*out = wl_facts_to_json(&facts);
	if (!*out) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	status = 0;
out:
	if (p.a)
		clReleaseMemObject(p.a);
	if (p.b)
		clReleaseMemObject(p.b);
	wl_probe_release(&p.kit);
	return status;
}

json_t *wl_device_facts_describe(struct wl_device *dev, long long cache_bytes, const json_t *stored)
{
	struct wl_error err;
	json_t *facts = NULL;

	if (stored && json_integer_value(json_object_get(stored, "version")) == WL_FACTS_VERSION &&
	    !json_object_get(stored, "error"))
		return json_deep_copy(stored);
	if (wl_device_facts_probe(dev, cache_bytes, &facts, &err) < 0)
		return json_pack("{s:i, s:s}", "version", WL_FACTS_VERSION, "error", err.msg);
	return facts;
}
