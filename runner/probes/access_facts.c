/* The access-pattern facts' probes (see access_facts.h): one program, a
 * scratch buffer as large as the largest span, each kernel timed by the
 * median of a few launches after five untimed (probe_kit.h). */
#include "access_facts.h"

#include <stdio.h>
#include <string.h>

#include "probe_kit.h"

static const char ACCESS_SOURCE[] =
	/* A per-work-item seed and Marsaglia's xorshift32 to step on. */
	"uint hash32(uint x)\n"
	"{\n"
	"	x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;\n"
	"	return x;\n"
	"}\n"
	"uint xorshift(uint x)\n"
	"{\n"
	"	x ^= x << 13; x ^= x >> 17; x ^= x << 5;\n"
	"	return x;\n"
	"}\n"
	/* A word of a random sector (mask: sectors - 1), four independent
	 * loads an iteration: no address hangs on a load. */
	"__kernel void fact_random_read(__global const uint *buf, __global uint *out, uint mask, uint iters)\n"
	"{\n"
	"	uint g = get_global_id(0), x = hash32(g) | 1u, acc = 0;\n"
	"	for (uint k = 0; k < iters; k += 4) {\n"
	"		uint x1 = xorshift(x), x2 = xorshift(x1), x3 = xorshift(x2);\n"
	"		x = xorshift(x3);\n"
	"		acc += (buf[(x1 & mask) * 8u] + buf[(x2 & mask) * 8u]) + (buf[(x3 & mask) * 8u] + buf[(x & mask) * 8u]);\n"
	"	}\n"
	"	out[g] = acc;\n"
	"}\n"
	/* A word stored to a random sector per iteration. */
	"__kernel void fact_random_store(__global uint *buf, uint mask, uint iters)\n"
	"{\n"
	"	uint g = get_global_id(0), x = hash32(g ^ 0x5eedu) | 1u;\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		x = xorshift(x);\n"
	"		buf[(x & mask) * 8u] = g ^ k;\n"
	"	}\n"
	"}\n"
	/* Down the columns: each lane of a warp its own sector (row), the
	 * group's other warps (other y) the rest of those sectors. */
	"__kernel void fact_columns(__global uint *out, uint n)\n"
	"{\n"
	"	uint x = get_global_id(0), y = get_global_id(1);\n"
	"	out[x * n + y] = x ^ y;\n"
	"}\n"
	"__kernel void fact_atomic(__global uint *words, uint mask, uint iters)\n"
	"{\n"
	"	uint x = hash32(get_global_id(0) ^ 0xa70u) | 1u;\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		x = xorshift(x);\n"
	"		atomic_add(&words[x & mask], 1u);\n"
	"	}\n"
	"}\n"
	/* Each group of 256 re-reads its own w4 float4s, four loads in flight. */
	"__kernel void fact_working_set(__global const float4 *in, __global float *out, uint w4, uint passes)\n"
	"{\n"
	"	uint lid = get_local_id(0);\n"
	"	__global const float4 *p = in + (size_t)get_group_id(0) * w4;\n"
	"	float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;\n"
	"	for (uint r = 0; r < passes; r++)\n"
	"		for (uint i = lid; i < w4; i += 1024u) {\n"
	"			a0 += p[i]; a1 += p[i + 256u]; a2 += p[i + 512u]; a3 += p[i + 768u];\n"
	"		}\n"
	"	float4 a = (a0 + a1) + (a2 + a3);\n"
	"	out[get_global_id(0)] = a.x + a.y + a.z + a.w;\n"
	"}\n"
	/* A copy of one element per work-item, of a lane width each: the
	 * second half of the buffer from the first. */
	"__kernel void fact_copy_lane4(__global float *buf, uint n) { uint i = get_global_id(0); buf[n + i] = buf[i]; }\n"
	"__kernel void fact_copy_lane8(__global float2 *buf, uint n) { uint i = get_global_id(0); buf[n + i] = buf[i]; }\n"
	"__kernel void fact_copy_lane16(__global float4 *buf, uint n) { uint i = get_global_id(0); buf[n + i] = buf[i]; }\n"
	/* Eight independent multiply-adds, 32 an iteration. */
	"#define MAD8 a0 = mad(a0, m, c); a1 = mad(a1, m, c); a2 = mad(a2, m, c); a3 = mad(a3, m, c); \\\n"
	"	a4 = mad(a4, m, c); a5 = mad(a5, m, c); a6 = mad(a6, m, c); a7 = mad(a7, m, c);\n"
	"__kernel void fact_issue(__global float *out, uint iters, float m, float c)\n"
	"{\n"
	"	float g = (float)get_global_id(0), a0 = g, a1 = g + 1.0f, a2 = g + 2.0f, a3 = g + 3.0f;\n"
	"	float a4 = g + 4.0f, a5 = g + 5.0f, a6 = g + 6.0f, a7 = g + 7.0f;\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		MAD8 MAD8 MAD8 MAD8\n"
	"	}\n"
	"	out[get_global_id(0)] = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));\n"
	"}\n";

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)
#define GROUP 256

/* The sizes of the probes on this device. */
struct access_sizes {
	size_t far, near;		/* spans: 16 last levels (at most 1 GiB), half of one */
	size_t grid;			/* work-items of a full grid */
	cl_uint iters;			/* per work-item */
	cl_uint columns;		/* the side of the column stores' square */
	int gpu;
};

static size_t pow2_below(size_t x)
{
	size_t p = 1;

	while (p * 2 <= x)
		p *= 2;
	return p;
}

static void size_access(const struct wl_device *dev, long long cache_bytes, struct access_sizes *z)
{
	size_t cache = cache_bytes > 0 ? (size_t)cache_bytes : 4 * MIB;
	size_t cap = dev->max_alloc / 2 < dev->global_mem / 8 ? dev->max_alloc / 2 : dev->global_mem / 8;

	z->gpu = dev->is_gpu;
	z->far = pow2_below(16 * cache);
	if (z->far > (dev->is_gpu ? 1024 * MIB : 64 * MIB))
		z->far = dev->is_gpu ? 1024 * MIB : 64 * MIB;
	while (z->far > cap && z->far > MIB)
		z->far /= 2;
	z->near = pow2_below(cache / 2);
	if (z->near > z->far)
		z->near = z->far;
	z->grid = (size_t)dev->compute_units * (dev->is_gpu ? 2048 : GROUP);
	z->iters = dev->is_gpu ? 256 : 16;
	/* A square of words half the last level holds, in whole 32 x 8 groups. */
	z->columns = 32;
	while ((size_t)z->columns * 2 * z->columns * 2 * 4 <= cache / 2 && z->columns < (dev->is_gpu ? 4096 : 256))
		z->columns *= 2;
}

/* Sectors (or stores, atomics) per µs: items x iters in ms. */
static double per_us(size_t items, cl_uint iters, double ms)
{
	return (double)items * iters / (ms * 1000);
}

static int random_facts(struct wl_probe *p, const struct access_sizes *z, cl_mem buf, cl_mem out, struct wl_facts *f)
{
	size_t local = GROUP, grid = z->grid;
	cl_uint far = (cl_uint)(z->far / 32 - 1), near = (cl_uint)(z->near / 32 - 1), iters = z->iters;
	cl_uint words = (cl_uint)(z->near / 4 - 1);
	const size_t read_sizes[] = { sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint), sizeof(cl_uint) };
	const size_t store_sizes[] = { sizeof(cl_mem), sizeof(cl_uint), sizeof(cl_uint) };
	double ms;

	if ((ms = wl_probe_time(p, "fact_random_read", 1, &grid, &local, 4, read_sizes,
				(const void *[]){ &buf, &out, &far, &iters }, 5, 0)) < 0)
		return -1;
	f->dram_random_per_us = wl_probe_usable(per_us(grid, iters, ms));
	if ((ms = wl_probe_time(p, "fact_random_read", 1, &grid, &local, 4, read_sizes,
				(const void *[]){ &buf, &out, &near, &iters }, 5, 0)) < 0)
		return -1;
	f->cache_random_per_us = wl_probe_usable(per_us(grid, iters, ms));
	if ((ms = wl_probe_time(p, "fact_random_store", 1, &grid, &local, 3, store_sizes,
				(const void *[]){ &buf, &far, &iters }, 5, 0)) < 0)
		return -1;
	f->scatter_per_us = wl_probe_usable(per_us(grid, iters, ms));
	if ((ms = wl_probe_time(p, "fact_atomic", 1, &grid, &local, 3, store_sizes,
				(const void *[]){ &buf, &words, &iters }, 5, 0)) < 0)
		return -1;
	f->atomic_per_us = wl_probe_usable(per_us(grid, iters, ms));
	{
		size_t global[2] = { z->columns, z->columns }, group[2] = { 32, 8 };
		cl_uint n = z->columns;

		if ((ms = wl_probe_time(p, "fact_columns", 2, global, group, 2,
					(const size_t[]){ sizeof(cl_mem), sizeof(cl_uint) }, (const void *[]){ &buf, &n },
					5, 0)) < 0)
			return -1;
		f->partial_store_per_us = wl_probe_usable((double)n * n / (ms * 1000));
	}
	return 0;
}

/* DRAM's rate by the width of a lane's access: a copy of one element per
 * work-item (the catalog's copy, seed 000's MyAdd) from one half of the far
 * span to the other, each half past the last level. A warp of 4-byte lanes
 * keeps a quarter of the bytes in flight that one of 16-byte lanes does, and
 * on a GPU whose DRAM needs more in flight than a full grid of such warps
 * holds, it streams slower: the model's DRAM ceiling for streamed bytes
 * follows the width of the requests that move them. */
static int lane_facts(struct wl_probe *p, const struct access_sizes *z, cl_mem buf, struct wl_facts *f)
{
	static const char *const names[3] = { "fact_copy_lane4", "fact_copy_lane8", "fact_copy_lane16" };
	static const size_t widths[3] = { 4, 8, 16 };
	double *rate[3] = { &f->dram_lane4_gbps, &f->dram_lane8_gbps, &f->dram_lane16_gbps };

	for (int i = 0; i < 3; i++) {
		size_t local = GROUP, global = z->far / 2 / widths[i] / GROUP * GROUP;
		cl_uint n = (cl_uint)global;
		double ms = wl_probe_time(p, names[i], 1, &global, &local, 2,
					  (const size_t[]){ sizeof(cl_mem), sizeof(cl_uint) }, (const void *[]){ &buf, &n }, 5, 0);

		if (ms < 0)
			return -1;
		*rate[i] = 2.0 * (double)global * (double)widths[i] / (ms * 1e6);
	}
	return 0;
}

/* The first level's capacity: one group of 256 per compute unit re-reading
 * its own set, from 16 KB up; the largest read at 90% of the best pace. */
static int working_set_fact(struct wl_probe *p, cl_mem buf, cl_mem out, size_t room, struct wl_facts *f)
{
	static const size_t sets[] = { 16, 32, 64, 96, 128, 160, 176, 192, 208, 224, 240, 256, 320 };
	size_t units = p->dev->compute_units, global = units * GROUP, local = GROUP;
	double rate[sizeof(sets) / sizeof(sets[0])], best = 0;
	size_t tried = 0;

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]) && sets[i] * KIB * units <= room; i++, tried++) {
		cl_uint w4 = (cl_uint)(sets[i] * KIB / 16), passes = (cl_uint)(16 * MIB / (sets[i] * KIB));
		double ms = wl_probe_time(p, "fact_working_set", 1, &global, &local, 4,
					  (const size_t[]){ sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_uint), sizeof(cl_uint) },
					  (const void *[]){ &buf, &out, &w4, &passes }, 3, 0);

		if (ms < 0)
			return -1;
		rate[i] = (double)sets[i] * passes / ms;
		if (rate[i] > best)
			best = rate[i];
	}
	for (size_t i = 0; i < tried; i++)
		if (rate[i] >= 0.9 * best)
			f->l1_bytes = (double)(sets[i] * KIB);
	return 0;
}

static int issue_fact(struct wl_probe *p, const struct access_sizes *z, cl_mem out, struct wl_facts *f)
{
	size_t global = z->grid, local = GROUP;
	cl_uint iters = 2048;
	cl_float m = 0.999f, c = 0.001f;
	double ms = wl_probe_time(p, "fact_issue", 1, &global, &local, 4,
				  (const size_t[]){ sizeof(cl_mem), sizeof(cl_uint), sizeof(cl_float), sizeof(cl_float) },
				  (const void *[]){ &out, &iters, &m, &c }, 5, 0);

	if (ms < 0)
		return -1;
	/* 32 multiply-adds an iteration per work-item, a warp instruction each per warp. */
	f->issue_per_ns = wl_probe_usable((double)global / 32 * iters * 32 / (ms * 1e6) / p->dev->compute_units);
	return 0;
}

int wl_access_facts_probe(struct wl_device *dev, long long cache_bytes, struct wl_facts *f, struct wl_error *err)
{
	struct wl_probe p = { .dev = dev, .err = err };
	struct access_sizes z;
	size_t room;
	cl_mem buf = NULL, out = NULL;
	int rc = -1;

	size_access(dev, cache_bytes, &z);
	room = z.far > (size_t)dev->compute_units * 320 * KIB ? z.far : (size_t)dev->compute_units * 320 * KIB;
	if (wl_probe_build(&p, ACCESS_SOURCE, "access pattern") < 0 || !(buf = wl_probe_buffer(&p, room)) ||
	    !(out = wl_probe_buffer(&p, z.grid * sizeof(cl_uint))))
		goto out;
	if (random_facts(&p, &z, buf, out, f) < 0 || lane_facts(&p, &z, buf, f) < 0)
		goto out;
	/* A CPU has no warps: no first level the model sizes, no issue slots. */
	if (z.gpu && (working_set_fact(&p, buf, out, room, f) < 0 || issue_fact(&p, &z, out, f) < 0))
		goto out;
	rc = 0;
out:
	if (buf)
		clReleaseMemObject(buf);
	if (out)
		clReleaseMemObject(out);
	wl_probe_release(&p);
	return rc;
}
