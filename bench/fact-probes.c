/* fact-probes: candidate device facts for warplab's memory-access model, each
 * measured by a small OpenCL microbenchmark, so that the lead can pick which
 * become facts in runner/probes/device_facts.c. Standalone: OpenCL only, no warplab
 * library.
 *
 *   tlb           one work-item chases a random cycle of pages (strides 4 KiB,
 *                 64 KiB, 2 MiB) over spans of 1 MiB to 8 GiB: ns per step
 *   random_reads  the full grid reads random 32-byte sectors of 8 MiB to 8 GiB,
 *                 then random 32/64/128-byte blocks at the largest span
 *   stores        the full grid stores one word per sector, strided or random,
 *                 within the L2 (16 MiB) and beyond (1 GiB); a naive
 *                 transpose's column writes alone (n = 4096, 8192)
 *   local_latency dependent loads through local memory, one warp and 256 items
 *   l1_capacity   one group per compute unit re-reads W bytes of its own
 *   l2_capacity   the full grid re-reads a footprint F, each pass shifted
 *   dram_stream   1 GiB float4 read, write and copy
 *   issue         independent float FMAs and a dependent integer multiply-add
 *                 chain, full grid; the chain in one warp alone (its latency)
 *   atomics       global atomic_add on random words, 256 bins, a word per
 *                 group; local atomic_add on 256 bins
 *   cached_chase  one work-item chases a random cycle of sectors over 8 MiB
 *                 (the L2 holds it, the L1 does not) and over 16 KiB (the L1)
 *
 * The "full grid" is compute units x 2048 work-items in groups of 256. Each
 * kernel is timed by the queue's profiling events: two untimed launches, then
 * the median of seven. Every chase follows a random cycle built here from a
 * seeded SplitMix64 (the device only writes the links), and every kernel
 * stores what it computed; those buffers are read back into a checksum. A
 * probe that fails (an OpenCL call, a build, a buffer over the limit) says
 * which call and why on stderr and is skipped; the others still run. No
 * buffer is larger than min(CL_DEVICE_MAX_MEM_ALLOC_SIZE, global memory / 4).
 * On an H100 the whole run takes a few seconds (sized for < 90 s).
 *
 * Build and run (bench/fact-probes.sh does both, on the lent GPU too):
 *   cc -std=c11 -O2 -Wall -Wextra -Werror bench/fact-probes.c -o /tmp/fact-probes -lOpenCL -lm
 *   /tmp/fact-probes [--cpu] [--quick] [--json FILE] [--skip NAME,NAME...]
 * The device is the first GPU, else the first device; --cpu takes the first
 * CPU device; --quick shrinks every size (a PoCL run in well under a minute).
 * stdout gets a markdown table (probe, parameter, value, unit, method); --json
 * writes the same rows as JSON lines to FILE, after a first line describing
 * the device. The exit status is 1 where a probe was skipped. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)

#define WARM 2		/* untimed launches before the timed ones */
#define TIMED 7		/* timed launches; their median is the time */
#define GROUP 256	/* work-items per group, unless a probe says otherwise */
#define MAX_OWNED 8	/* kernels or buffers one probe holds */

/* The device and what every probe shares. */
struct lab {
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
	int gpu, quick;
	char name[256];
	cl_uint units, clock_mhz;
	cl_ulong global_mem, max_alloc, local_mem, cache_bytes;
	cl_uint cache_line;
	size_t max_group;
	size_t cap;	/* the largest buffer a probe may make */
	size_t grid;	/* the full grid: units * 2048 work-items */
	FILE *json;
	uint64_t checksum;
};

/* One probe's OpenCL objects: it owns them all, run_probe releases them. */
struct probe {
	struct lab *lab;
	const char *name;
	cl_program program;
	cl_kernel kernels[MAX_OWNED];
	cl_mem mems[MAX_OWNED];
	int nkernels, nmems;
};

/* ---- Kernels ---- */

/* Prepended to every probe's source: a per-work-item hash to seed from and
 * Marsaglia's xorshift32 to step on. */
static const char COMMON_SRC[] =
	"uint hash32(uint x)\n"
	"{\n"
	"	x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;\n"
	"	return x;\n"
	"}\n"
	"uint xorshift(uint x)\n"
	"{\n"
	"	x ^= x << 13; x ^= x >> 17; x ^= x << 5;\n"
	"	return x;\n"
	"}\n";

static const char WARM_SRC[] =
	"__kernel void spin(__global float *out, uint iters)\n"
	"{\n"
	"	float a = (float)get_global_id(0);\n"
	"	for (uint k = 0; k < iters; k++)\n"
	"		a = mad(a, 0.999f, 0.001f);\n"
	"	out[get_global_id(0)] = a;\n"
	"}\n";

/* One work-item follows next[] from where the last launch stopped (at[0]),
 * every load waiting for the one before. link_cycle writes a cycle the host
 * laid out: step k at word words[k] names step k + 1's word. */
static const char CHASE_SRC[] =
	"__kernel void chase(__global const uint *next, __global uint *at, uint steps)\n"
	"{\n"
	"	uint i = at[0];\n"
	"	for (uint s = 0; s < steps; s++)\n"
	"		i = next[i];\n"
	"	at[0] = i;\n"
	"}\n"
	"__kernel void link_cycle(__global uint *next, __global const uint *words, uint n)\n"
	"{\n"
	"	uint k = get_global_id(0);\n"
	"	if (k < n)\n"
	"		next[words[k]] = words[k + 1 < n ? k + 1 : 0];\n"
	"}\n";

/* Independent loads (the addresses hang on no load), four per iteration.
 * rand_words: a 4-byte word of a random 32-byte sector (mask: sectors - 1).
 * rand_blocks: lanes lpb at a time read one random block of lpb float4s. */
static const char RANDOM_SRC[] =
	"__kernel void rand_words(__global const uint *buf, __global uint *out, uint mask, uint iters, uint seed)\n"
	"{\n"
	"	uint g = get_global_id(0), x = hash32(g ^ seed) | 1u, acc = 0;\n"
	"	for (uint k = 0; k < iters; k += 4) {\n"
	"		uint x1 = xorshift(x), x2 = xorshift(x1), x3 = xorshift(x2);\n"
	"		x = xorshift(x3);\n"
	"		uint v0 = buf[(x1 & mask) * 8u], v1 = buf[(x2 & mask) * 8u];\n"
	"		uint v2 = buf[(x3 & mask) * 8u], v3 = buf[(x & mask) * 8u];\n"
	"		acc += (v0 + v1) + (v2 + v3);\n"
	"	}\n"
	"	out[g] = acc;\n"
	"}\n"
	"__kernel void rand_blocks(__global const float4 *buf, __global float *out, uint mask, uint lpb, uint iters, uint seed)\n"
	"{\n"
	"	uint g = get_global_id(0), part = g % lpb, x = hash32(g / lpb ^ seed) | 1u;\n"
	"	float4 acc = (float4)(0.0f);\n"
	"	for (uint k = 0; k < iters; k += 4) {\n"
	"		uint x1 = xorshift(x), x2 = xorshift(x1), x3 = xorshift(x2);\n"
	"		x = xorshift(x3);\n"
	"		float4 v0 = buf[(x1 & mask) * lpb + part], v1 = buf[(x2 & mask) * lpb + part];\n"
	"		float4 v2 = buf[(x3 & mask) * lpb + part], v3 = buf[(x & mask) * lpb + part];\n"
	"		acc += (v0 + v1) + (v2 + v3);\n"
	"	}\n"
	"	out[g] = acc.x + acc.y + acc.z + acc.w;\n"
	"}\n";

/* Stores alone. store_stride: iteration k's grid writes words (k * size + g)
 * * stride, wrapped in the span (mask: words - 1); store_random: a word of a
 * random sector (mask: sectors - 1); store_columns: a naive transpose's
 * writes, x fastest in a warp, so each warp writes 32 rows. */
static const char STORE_SRC[] =
	"__kernel void store_stride(__global uint *buf, uint stride, uint mask, uint iters)\n"
	"{\n"
	"	uint g = get_global_id(0), n = get_global_size(0);\n"
	"	for (uint k = 0; k < iters; k++)\n"
	"		buf[((k * n + g) * stride) & mask] = g ^ k;\n"
	"}\n"
	"__kernel void store_random(__global uint *buf, uint mask, uint iters, uint seed)\n"
	"{\n"
	"	uint g = get_global_id(0), x = hash32(g ^ seed) | 1u;\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		x = xorshift(x);\n"
	"		buf[(x & mask) * 8u] = g ^ k;\n"
	"	}\n"
	"}\n"
	"__kernel void store_columns(__global uint *out, uint n)\n"
	"{\n"
	"	uint x = get_global_id(0), y = get_global_id(1);\n"
	"	out[x * n + y] = x ^ y;\n"
	"}\n";

/* Each lane chases its own bank: word j * 32 + lane names the next row's word
 * of the same lane, so a warp's 32 loads fall in 32 banks (no conflict) and
 * each waits for the last. ROWS comes from the build options. */
static const char LOCAL_SRC[] =
	"__kernel void local_chase(__global const uint *cycle, __global uint *out, uint steps)\n"
	"{\n"
	"	__local uint tile[ROWS * 32];\n"
	"	uint lid = get_local_id(0);\n"
	"	for (uint i = lid; i < ROWS * 32u; i += get_local_size(0))\n"
	"		tile[i] = cycle[i >> 5] * 32u + (i & 31u);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	uint x = lid & 31u;\n"
	"	for (uint s = 0; s < steps; s++)\n"
	"		x = tile[x];\n"
	"	out[get_global_id(0)] = x;\n"
	"}\n";

/* Each group re-reads its own w4 float4s, coalesced, four loads in flight
 * per iteration (groups of 256 only; w4 a multiple of 1024). */
static const char L1_SRC[] =
	"__kernel void l1_sweep(__global const float4 *restrict in, __global float *out, uint w4, uint passes)\n"
	"{\n"
	"	uint lid = get_local_id(0);\n"
	"	__global const float4 *p = in + (size_t)get_group_id(0) * w4;\n"
	"	float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;\n"
	"	for (uint r = 0; r < passes; r++)\n"
	"		for (uint i = lid; i < w4; i += 1024u) {\n"
	"			a0 += p[i];\n"
	"			a1 += p[i + 256u];\n"
	"			a2 += p[i + 512u];\n"
	"			a3 += p[i + 768u];\n"
	"		}\n"
	"	float4 a = (a0 + a1) + (a2 + a3);\n"
	"	out[get_global_id(0)] = a.x + a.y + a.z + a.w;\n"
	"}\n";

/* runner/probes/device_facts.c's fact_cache, as it is: each pass starts n4/7 + 1
 * further on, so no compute unit reads what it read the pass before. */
static const char L2_SRC[] =
	"__kernel void fact_cache(__global const float4 *in, __global float *out, uint n4, uint reps)\n"
	"{\n"
	"	float4 acc = (float4)(0.0f);\n"
	"	uint g = get_global_id(0), size = get_global_size(0), shift = 0;\n"
	"	for (uint r = 0; r < reps; r++, shift = shift + n4 / 7 + 1 < n4 ? shift + n4 / 7 + 1 : 0)\n"
	"		for (uint i = g; i < n4; i += size)\n"
	"			acc += in[i + shift < n4 ? i + shift : i + shift - n4];\n"
	"	out[g] = acc.x + acc.y + acc.z + acc.w;\n"
	"}\n";

static const char STREAM_SRC[] =
	"__kernel void stream_read(__global const float4 *in, __global float *out, uint n4)\n"
	"{\n"
	"	uint g = get_global_id(0), size = get_global_size(0);\n"
	"	float4 acc = (float4)(0.0f);\n"
	"	for (uint i = g; i < n4; i += size)\n"
	"		acc += in[i];\n"
	"	out[g] = acc.x + acc.y + acc.z + acc.w;\n"
	"}\n"
	"__kernel void stream_write(__global float4 *out, uint n4)\n"
	"{\n"
	"	uint g = get_global_id(0), size = get_global_size(0);\n"
	"	float4 v = (float4)((float)g);\n"
	"	for (uint i = g; i < n4; i += size)\n"
	"		out[i] = v;\n"
	"}\n"
	"__kernel void stream_copy(__global const float4 *in, __global float4 *out, uint n4)\n"
	"{\n"
	"	uint g = get_global_id(0), size = get_global_size(0);\n"
	"	for (uint i = g; i < n4; i += size)\n"
	"		out[i] = in[i];\n"
	"}\n";

/* fma_grid: 32 mads an iteration over 8 independent accumulators.
 * imad_chain: four dependent x = x * x + b an iteration (x * x: no closed
 * form a compiler could fold the chain into). */
static const char ISSUE_SRC[] =
	"#define MAD8 a0 = mad(a0, m, c); a1 = mad(a1, m, c); a2 = mad(a2, m, c); a3 = mad(a3, m, c); \\\n"
	"	a4 = mad(a4, m, c); a5 = mad(a5, m, c); a6 = mad(a6, m, c); a7 = mad(a7, m, c);\n"
	"__kernel void fma_grid(__global float *out, uint iters, float m, float c)\n"
	"{\n"
	"	float g = (float)get_global_id(0);\n"
	"	float a0 = g, a1 = g + 1.0f, a2 = g + 2.0f, a3 = g + 3.0f;\n"
	"	float a4 = g + 4.0f, a5 = g + 5.0f, a6 = g + 6.0f, a7 = g + 7.0f;\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		MAD8 MAD8 MAD8 MAD8\n"
	"	}\n"
	"	out[get_global_id(0)] = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));\n"
	"}\n"
	"__kernel void imad_chain(__global uint *out, uint iters, uint b)\n"
	"{\n"
	"	uint x = get_global_id(0);\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		x = x * x + b; x = x * x + b; x = x * x + b; x = x * x + b;\n"
	"	}\n"
	"	out[get_global_id(0)] = x;\n"
	"}\n";

static const char ATOMIC_SRC[] =
	"__kernel void atomic_random(__global uint *words, uint mask, uint iters, uint seed)\n"
	"{\n"
	"	uint x = hash32(get_global_id(0) ^ seed) | 1u;\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		x = xorshift(x);\n"
	"		atomic_add(&words[x & mask], 1u);\n"
	"	}\n"
	"}\n"
	"__kernel void atomic_bins(__global uint *bins, uint iters, uint seed)\n"
	"{\n"
	"	uint x = hash32(get_global_id(0) ^ seed) | 1u;\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		x = xorshift(x);\n"
	"		atomic_add(&bins[x % 256u], 1u);\n"
	"	}\n"
	"}\n"
	"__kernel void atomic_group(__global uint *words, uint iters)\n"
	"{\n"
	"	uint w = get_group_id(0);\n"
	"	for (uint k = 0; k < iters; k++)\n"
	"		atomic_add(&words[w], 1u);\n"
	"}\n"
	"__kernel void atomic_local(__global uint *bins_out, uint iters, uint seed)\n"
	"{\n"
	"	__local uint bins[256];\n"
	"	uint lid = get_local_id(0), x = hash32(get_global_id(0) ^ seed) | 1u;\n"
	"	for (uint i = lid; i < 256u; i += get_local_size(0))\n"
	"		bins[i] = 0;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (uint k = 0; k < iters; k++) {\n"
	"		x = xorshift(x);\n"
	"		atomic_add(&bins[x % 256u], 1u);\n"
	"	}\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (uint i = lid; i < 256u; i += get_local_size(0))\n"
	"		atomic_add(&bins_out[i], bins[i]);\n"
	"}\n";

/* ---- Host helpers ---- */

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* SplitMix64 (Steele, Lea and Flood), as runner/exec/rng.c. */
static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random order of 0 .. n-1 (Fisher-Yates), or NULL; the caller frees it. */
static cl_uint *random_order(size_t n, uint64_t seed)
{
	cl_uint *order = malloc(n * sizeof(*order));

	if (!order)
		return NULL;
	for (size_t i = 0; i < n; i++)
		order[i] = (cl_uint)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(splitmix(&seed) % (i + 1));
		cl_uint t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	return order;
}

static size_t pow2_floor(size_t x)
{
	size_t p = 1;

	while (p <= x / 2)
		p *= 2;
	return p;
}

/* want, or the largest power of two a buffer may be where that is less. */
static size_t fit(const struct lab *L, size_t want)
{
	size_t most = pow2_floor(L->cap);

	return want < most ? want : most;
}

/* "4 KiB", "8 GiB": a struct so that several can sit in one printf. */
struct size_text {
	char s[24];
};

static struct size_text size_text(size_t bytes)
{
	struct size_text t;

	if (bytes >= GiB && bytes % GiB == 0)
		snprintf(t.s, sizeof(t.s), "%zu GiB", bytes / GiB);
	else if (bytes >= MiB && bytes % MiB == 0)
		snprintf(t.s, sizeof(t.s), "%zu MiB", bytes / MiB);
	else if (bytes >= KiB && bytes % KiB == 0)
		snprintf(t.s, sizeof(t.s), "%zu KiB", bytes / KiB);
	else
		snprintf(t.s, sizeof(t.s), "%zu B", bytes);
	return t;
}

static const char *cl_error(cl_int rc)
{
	switch (rc) {
	case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
	case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
	case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
	case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
	case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
	case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
	case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
	case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
	case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
	case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
	case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
	case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
	case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
	case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
	case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
	case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
	case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
	case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
	case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
	case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
	case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
	case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
	case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
	case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
	case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
	case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
	case CL_INVALID_EVENT: return "CL_INVALID_EVENT";
	case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
	case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
	case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
	case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
	case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform: no ICD file?)";
	default: return "an OpenCL error";
	}
}

/* Says on stderr that probe p failed at what, and returns -1. */
static int failed(const struct probe *p, const char *what, cl_int rc)
{
	fprintf(stderr, "fact-probes: probe %s: %s failed: %s (%d)\n", p->name, what, cl_error(rc), (int)rc);
	return -1;
}

static int failedf(const struct probe *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int failedf(const struct probe *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fact-probes: probe %s: ", p->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* Returns -1 from the calling probe function where call fails. */
#define CHECK(p, call)							\
	do {								\
		cl_int rc_ = (call);					\
		if (rc_ != CL_SUCCESS)					\
			return failed((p), #call, rc_);		\
	} while (0)

/* Builds the probe's one program from COMMON_SRC and src, printing the
 * build log where it fails. */
static int build(struct probe *p, const char *src, const char *options)
{
	const struct lab *L = p->lab;
	const char *srcs[2] = { COMMON_SRC, src };
	cl_int rc;

	p->program = clCreateProgramWithSource(L->context, 2, srcs, NULL, &rc);
	if (!p->program)
		return failed(p, "clCreateProgramWithSource", rc);
	rc = clBuildProgram(p->program, 1, &L->device, options, NULL, NULL);
	if (rc != CL_SUCCESS) {
		char log[4096] = "";

		clGetProgramBuildInfo(p->program, L->device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
		fprintf(stderr, "fact-probes: probe %s: the build log:\n%s\n", p->name, log);
		return failed(p, "clBuildProgram", rc);
	}
	return 0;
}

/* A kernel of the probe's program, owned by the probe; NULL on failure. */
static cl_kernel kernel(struct probe *p, const char *name)
{
	cl_int rc;
	cl_kernel k;

	if (p->nkernels == MAX_OWNED) {
		failedf(p, "more than %d kernels", MAX_OWNED);
		return NULL;
	}
	k = clCreateKernel(p->program, name, &rc);
	if (!k) {
		fprintf(stderr, "fact-probes: probe %s: clCreateKernel(%s) failed: %s (%d)\n", p->name, name,
			cl_error(rc), (int)rc);
		return NULL;
	}
	p->kernels[p->nkernels++] = k;
	return k;
}

/* A device buffer of bytes, owned by the probe; NULL where it would pass the
 * allocation limit or the device refuses it. */
static cl_mem buffer(struct probe *p, size_t bytes)
{
	cl_int rc;
	cl_mem m;

	if (bytes > p->lab->cap) {
		failedf(p, "a buffer of %zu bytes would pass the limit of %zu", bytes, p->lab->cap);
		return NULL;
	}
	if (p->nmems == MAX_OWNED) {
		failedf(p, "more than %d buffers", MAX_OWNED);
		return NULL;
	}
	m = clCreateBuffer(p->lab->context, CL_MEM_READ_WRITE, bytes, NULL, &rc);
	if (!m) {
		fprintf(stderr, "fact-probes: probe %s: clCreateBuffer(%zu bytes) failed: %s (%d)\n", p->name, bytes,
			cl_error(rc), (int)rc);
		return NULL;
	}
	p->mems[p->nmems++] = m;
	return m;
}

static int fill_zero(struct probe *p, cl_mem m, size_t bytes)
{
	const cl_uint zero = 0;

	CHECK(p, clEnqueueFillBuffer(p->lab->queue, m, &zero, sizeof(zero), 0, bytes, 0, NULL, NULL));
	return 0;
}

static int upload(struct probe *p, cl_mem m, size_t bytes, const void *host)
{
	CHECK(p, clEnqueueWriteBuffer(p->lab->queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
	return 0;
}

/* Reads bytes of m back; where sum is given, the sum of its words. The words
 * also go into the lab's checksum: every kernel's result is read. */
static int read_back(struct probe *p, cl_mem m, size_t bytes, uint64_t *sum)
{
	cl_uint *host = malloc(bytes);
	uint64_t s = 0;
	cl_int rc;

	if (!host)
		return failedf(p, "no host memory to read back %zu bytes", bytes);
	rc = clEnqueueReadBuffer(p->lab->queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
	if (rc == CL_SUCCESS)
		for (size_t i = 0; i < bytes / sizeof(*host); i++)
			s += host[i];
	free(host);
	if (rc != CL_SUCCESS)
		return failed(p, "clEnqueueReadBuffer", rc);
	p->lab->checksum = p->lab->checksum * 31 + s;
	if (sum)
		*sum = s;
	return 0;
}

/* Sets kernel k's n arguments from (size, pointer) pairs: ARG(v) gives one. */
#define ARG(v) sizeof(v), (const void *)&(v)

static int args(struct probe *p, cl_kernel k, int n, ...)
{
	va_list ap;
	cl_int rc = CL_SUCCESS;
	int i;

	va_start(ap, n);
	for (i = 0; i < n && rc == CL_SUCCESS; i++) {
		size_t size = va_arg(ap, size_t);
		const void *value = va_arg(ap, const void *);

		rc = clSetKernelArg(k, (cl_uint)i, size, value);
	}
	va_end(ap);
	if (rc != CL_SUCCESS) {
		fprintf(stderr, "fact-probes: probe %s: clSetKernelArg(argument %d) failed: %s (%d)\n", p->name, i - 1,
			cl_error(rc), (int)rc);
		return -1;
	}
	return 0;
}

/* One untimed launch, waited for. */
static int launch(struct probe *p, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local)
{
	CHECK(p, clEnqueueNDRangeKernel(p->lab->queue, k, dims, NULL, global, local, 0, NULL, NULL));
	CHECK(p, clFinish(p->lab->queue));
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* k's time in ms: WARM untimed launches, then the median of TIMED from the
 * queue's profiling events; -1 on failure. */
static double timed(struct probe *p, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local)
{
	cl_command_queue q = p->lab->queue;
	cl_event ev[TIMED];
	double ms[TIMED];
	int made = 0;
	cl_int rc = CL_SUCCESS;

	for (int i = 0; i < WARM && rc == CL_SUCCESS; i++)
		rc = clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL);
	while (made < TIMED && rc == CL_SUCCESS) {
		rc = clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, &ev[made]);
		if (rc == CL_SUCCESS)
			made++;
	}
	if (rc == CL_SUCCESS)
		rc = clFinish(q);
	for (int i = 0; i < made && rc == CL_SUCCESS; i++) {
		cl_ulong start = 0, end = 0;

		rc = clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof(start), &start, NULL);
		if (rc == CL_SUCCESS)
			rc = clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL);
		ms[i] = end > start ? (double)(end - start) / 1e6 : 0;
	}
	for (int i = 0; i < made; i++)
		clReleaseEvent(ev[i]);
	if (rc != CL_SUCCESS) {
		char name[64] = "?";

		clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name) - 1, name, NULL);
		fprintf(stderr, "fact-probes: probe %s: timing kernel %s failed: %s (%d)\n", p->name, name, cl_error(rc),
			(int)rc);
		return -1;
	}
	qsort(ms, TIMED, sizeof(ms[0]), by_value);
	if (ms[TIMED / 2] <= 0) {
		failedf(p, "the profiling events gave no time");
		return -1;
	}
	return ms[TIMED / 2];
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

/* One result: a row of the table and a JSON line. ms is the kernel's median
 * time behind it (JSON only). */
static void row(struct probe *p, double value, const char *unit, double ms, const char *method, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void row(struct probe *p, double value, const char *unit, double ms, const char *method, const char *fmt, ...)
{
	FILE *json = p->lab->json;
	char param[200], text[32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(param, sizeof(param), fmt, ap);
	va_end(ap);
	if (!isfinite(value))
		snprintf(text, sizeof(text), "-");
	else if (fabs(value) >= 100)
		snprintf(text, sizeof(text), "%.0f", value);
	else
		snprintf(text, sizeof(text), "%.3g", value);
	printf("| %s | %s | %s | %s | %s |\n", p->name, param, text, unit, method);
	fflush(stdout);
	if (json) {
		fputs("{\"probe\": ", json);
		json_string(json, p->name);
		fputs(", \"parameter\": ", json);
		json_string(json, param);
		fputs(", \"value\": ", json);
		json_number(json, value);
		fputs(", \"unit\": ", json);
		json_string(json, unit);
		fputs(", \"method\": ", json);
		json_string(json, method);
		fputs(", \"ms\": ", json);
		json_number(json, ms);
		fputs("}\n", json);
		fflush(json);
	}
}

/* ---- The probes ---- */

/* Lays a random cycle of n steps into next: step k at word order[k] *
 * stride/4, plus (spread) a random sector of its stride, so that steps do not
 * all fall in one cache set. The order comes from seed here; link_cycle only
 * writes the links. at[0] gets the first step's word. */
static int lay_cycle(struct probe *p, cl_kernel link, cl_mem next, cl_mem words_buf, cl_mem at, size_t n,
		     size_t stride, int spread, uint64_t seed)
{
	cl_uint *words = random_order(n, seed), count = (cl_uint)n;
	size_t global = (n + 63) / 64 * 64;
	int rc = -1;

	if (!words)
		return failedf(p, "no host memory for a cycle of %zu steps", n);
	for (size_t k = 0; k < n; k++) {
		size_t sector = spread ? (size_t)(splitmix(&seed) % (stride / 32)) : 0;

		words[k] = (cl_uint)((size_t)words[k] * (stride / 4) + sector * 8);
	}
	if (upload(p, words_buf, n * sizeof(*words), words) == 0 &&
	    args(p, link, 3, ARG(next), ARG(words_buf), ARG(count)) == 0 &&
	    launch(p, link, 1, &global, NULL) == 0 && upload(p, at, sizeof(*words), words) == 0)
		rc = 0;
	free(words);
	return rc;
}

/* 1. The TLB's reach and a miss's cost. With a 2 MiB stride the sectors
 * touched stay few (8 GiB: 4096 of them, 128 KiB) so a step's time is the
 * translation; with 4 KiB the data outgrow the caches too. */
static int probe_tlb(struct probe *p)
{
	const struct lab *L = p->lab;
	static const size_t strides[] = { 4 * KiB, 64 * KiB, 2 * MiB };
	size_t top = fit(L, L->quick ? 64 * MiB : 8 * GiB), one = 1;
	cl_uint steps = L->quick ? 256 : 4096, warm_cap = L->quick ? 1024 : 16384;
	cl_kernel chase, link;
	cl_mem next, words, at;

	if (build(p, CHASE_SRC, "") < 0 || !(chase = kernel(p, "chase")) || !(link = kernel(p, "link_cycle")) ||
	    !(next = buffer(p, top)) || !(words = buffer(p, top / strides[0] * sizeof(cl_uint))) ||
	    !(at = buffer(p, sizeof(cl_uint))))
		return -1;
	for (size_t s = 0; s < sizeof(strides) / sizeof(strides[0]); s++)
		for (size_t span = MiB; span <= top; span *= 2) {
			size_t n = span / strides[s];
			cl_uint warm = n < warm_cap ? (cl_uint)n : warm_cap;
			double ms;

			if (n < 4)
				continue;
			/* A first pass (up to warm_cap steps) so that what fits the
			 * TLB and the caches is in them. */
			if (lay_cycle(p, link, next, words, at, n, strides[s], 1, 0x71b0 + span + s) < 0 ||
			    args(p, chase, 3, ARG(next), ARG(at), ARG(warm)) < 0 || launch(p, chase, 1, &one, &one) < 0 ||
			    args(p, chase, 3, ARG(next), ARG(at), ARG(steps)) < 0 ||
			    (ms = timed(p, chase, 1, &one, &one)) < 0)
				return -1;
			row(p, ms * 1e6 / steps, "ns per step", ms,
			    "one work-item follows a random cycle of span/stride pages (one 32-byte sector at a random offset in each), each load waiting for the last; where it steps up the TLB's reach ends",
			    "stride %s, span %s (%zu pages)", size_text(strides[s]).s, size_text(span).s, n);
		}
	return read_back(p, at, sizeof(cl_uint), NULL);
}

/* 2. Random sector reads at full occupancy, then random blocks of 32, 64 and
 * 128 bytes at the largest span: DRAM's granularity for random access. */
static int probe_random_reads(struct probe *p)
{
	const struct lab *L = p->lab;
	static const size_t spans[] = { 8 * MiB, 32 * MiB, 128 * MiB, 512 * MiB, 2 * GiB, 8 * GiB };
	/* 8 GiB hung NVIDIA's OpenCL on the H100 (2026-11-24): 2 GiB is 40
	 * times its L2. */
	size_t top = fit(L, L->quick ? 32 * MiB : 2 * GiB), global = L->grid, local = GROUP;
	cl_uint iters = L->quick ? 16 : 256, seed = 0x5ec7;
	cl_kernel words, blocks;
	cl_mem buf, out;

	if (build(p, RANDOM_SRC, "") < 0 || !(words = kernel(p, "rand_words")) || !(blocks = kernel(p, "rand_blocks")) ||
	    !(buf = buffer(p, top)) || !(out = buffer(p, L->grid * sizeof(cl_uint))) || fill_zero(p, buf, top) < 0)
		return -1;
	for (size_t s = 0; s < sizeof(spans) / sizeof(spans[0]) && spans[s] <= top; s++) {
		cl_uint mask = (cl_uint)(spans[s] / 32 - 1);
		double ms, per_us;

		if (args(p, words, 5, ARG(buf), ARG(out), ARG(mask), ARG(iters), ARG(seed)) < 0 ||
		    (ms = timed(p, words, 1, &global, &local)) < 0)
			return -1;
		per_us = (double)L->grid * iters / (ms * 1e3);
		row(p, per_us, "sectors per µs", ms,
		    "the full grid reads random 4-byte words, each of its own 32-byte sector (xorshift per work-item, four independent loads per iteration)",
		    "span %s, %u loads per work-item", size_text(spans[s]).s, iters);
		row(p, per_us * 32 / 1e3, "GB/s", ms, "the sectors per µs above, at 32 bytes each",
		    "span %s, sector bytes", size_text(spans[s]).s);
	}
	for (cl_uint bytes = 32; bytes <= 128; bytes *= 2) {
		cl_uint lpb = bytes / 16, mask = (cl_uint)(top / bytes - 1);
		double ms, per_us;

		if (args(p, blocks, 6, ARG(buf), ARG(out), ARG(mask), ARG(lpb), ARG(iters), ARG(seed)) < 0 ||
		    (ms = timed(p, blocks, 1, &global, &local)) < 0)
			return -1;
		per_us = (double)(L->grid / lpb) * iters / (ms * 1e3);
		row(p, per_us, "blocks per µs", ms,
		    "the full grid reads random aligned blocks, a float4 per lane, bytes/16 consecutive lanes per block",
		    "span %s, %u-byte blocks", size_text(top).s, bytes);
		row(p, per_us * bytes / 1e3, "GB/s", ms, "the blocks per µs above times their bytes",
		    "span %s, %u-byte blocks, bytes", size_text(top).s, bytes);
	}
	return read_back(p, out, L->grid * sizeof(cl_uint), NULL);
}

/* 3. Stores one word per sector, strided and random, within the L2 and far
 * beyond it; then a naive transpose's column writes alone. */
static int probe_stores(struct probe *p)
{
	const struct lab *L = p->lab;
	size_t spans[] = { L->quick ? 4 * MiB : 16 * MiB, fit(L, L->quick ? 64 * MiB : GiB) };
	size_t sides[] = { L->quick ? 512 : 4096, L->quick ? 1024 : 8192 };
	size_t global = L->grid, local = GROUP, top = spans[1];
	cl_uint iters = L->quick ? 8 : 128, seed = 0x5707e, strides[] = { 8, 32 };
	cl_kernel stride, random, columns;
	cl_mem buf;

	if (build(p, STORE_SRC, "") < 0 || !(stride = kernel(p, "store_stride")) ||
	    !(random = kernel(p, "store_random")) || !(columns = kernel(p, "store_columns")))
		return -1;
	for (size_t i = 0; i < 2; i++)
		if (sides[i] * sides[i] * sizeof(cl_uint) > top)
			top = sides[i] * sides[i] * sizeof(cl_uint);
	if (!(buf = buffer(p, top)) || fill_zero(p, buf, top) < 0)
		return -1;
	for (size_t s = 0; s < 2; s++) {
		double ms;

		for (size_t i = 0; i < 2; i++) {
			cl_uint mask = (cl_uint)(spans[s] / 4 - 1);

			if (args(p, stride, 4, ARG(buf), ARG(strides[i]), ARG(mask), ARG(iters)) < 0 ||
			    (ms = timed(p, stride, 1, &global, &local)) < 0)
				return -1;
			row(p, (double)L->grid * iters / (ms * 1e3), "stores per µs", ms,
			    "the full grid stores one 4-byte word per work-item per iteration, word (k*grid + i)*stride, each in its own 32-byte sector, wrapped in the span",
			    "span %s, stride %u words", size_text(spans[s]).s, strides[i]);
		}
		{
			cl_uint mask = (cl_uint)(spans[s] / 32 - 1);

			if (args(p, random, 4, ARG(buf), ARG(mask), ARG(iters), ARG(seed)) < 0 ||
			    (ms = timed(p, random, 1, &global, &local)) < 0)
				return -1;
			row(p, (double)L->grid * iters / (ms * 1e3), "stores per µs", ms,
			    "the full grid stores one 4-byte word per work-item per iteration to a random 32-byte sector of the span",
			    "span %s, random", size_text(spans[s]).s);
		}
	}
	for (size_t i = 0; i < 2; i++) {
		size_t grid2[2] = { sides[i], sides[i] }, local2[2] = { 32, 8 };
		cl_uint n = (cl_uint)sides[i];
		double ms;

		if (args(p, columns, 2, ARG(buf), ARG(n)) < 0 || (ms = timed(p, columns, 2, grid2, local2)) < 0)
			return -1;
		row(p, ms, "ms", ms,
		    "out[x*n + y] = x ^ y over an n x n grid of 32x8 groups, x fastest: a naive transpose's writes alone, each warp's 32 stores in 32 rows",
		    "n = %zu, time", sides[i]);
		row(p, (double)sides[i] * sides[i] / (ms * 1e3), "stores per µs", ms, "n*n stores over the time above",
		    "n = %zu, stores", sides[i]);
	}
	return read_back(p, buf, 4 * KiB, NULL);
}

/* 4. Local memory's latency: one warp alone, then a group of 256 on the same
 * chains (do eight warps' chains overlap?). */
static int probe_local_latency(struct probe *p)
{
	const struct lab *L = p->lab;
	cl_uint rows = 256, steps = L->quick ? 4096 : 65536, *next = NULL, *order;
	size_t sizes[] = { 32, 256 };
	char options[32];
	cl_kernel chase;
	cl_mem cycle, out;

	while (rows > 8 && (cl_ulong)rows * 32 * sizeof(cl_uint) > L->local_mem)
		rows /= 2;
	snprintf(options, sizeof(options), "-DROWS=%u", rows);
	if (build(p, LOCAL_SRC, options) < 0 || !(chase = kernel(p, "local_chase")) ||
	    !(cycle = buffer(p, rows * sizeof(cl_uint))) || !(out = buffer(p, 256 * sizeof(cl_uint))))
		return -1;
	order = random_order(rows, 0x10ca1);
	next = order ? malloc(rows * sizeof(*next)) : NULL;
	if (next)
		for (cl_uint k = 0; k < rows; k++)
			next[order[k]] = order[(k + 1) % rows];
	free(order);
	if (!next)
		return failedf(p, "no host memory for a cycle of %u rows", rows);
	if (upload(p, cycle, rows * sizeof(*next), next) < 0) {
		free(next);
		return -1;
	}
	free(next);
	if (args(p, chase, 3, ARG(cycle), ARG(out), ARG(steps)) < 0)
		return -1;
	for (size_t i = 0; i < 2; i++) {
		double ms = timed(p, chase, 1, &sizes[i], &sizes[i]);

		if (ms < 0)
			return -1;
		row(p, ms * 1e6 / steps, "ns per step", ms,
		    "each work-item follows x = tile[x] through a random cycle of rows in __local memory, every lane in its own bank, each load waiting for the last",
		    "%zu work-items (one group), %u rows of 32 words", sizes[i], rows);
	}
	return read_back(p, out, 256 * sizeof(cl_uint), NULL);
}

/* 5. The first-level cache's capacity for a kernel without local memory. */
static int probe_l1_capacity(struct probe *p)
{
	const struct lab *L = p->lab;
	static const size_t sets[] = { 16, 32, 64, 96, 128, 160, 192, 224, 256, 320, 512 };
	size_t most = sets[sizeof(sets) / sizeof(sets[0]) - 1] * KiB, global = (size_t)L->units * GROUP, local = GROUP;
	size_t target = L->quick ? 2 * MiB : 128 * MiB;
	cl_kernel sweep;
	cl_mem in, out;

	if (build(p, L1_SRC, "") < 0 || !(sweep = kernel(p, "l1_sweep")) || !(in = buffer(p, L->units * most)) ||
	    !(out = buffer(p, global * sizeof(float))) || fill_zero(p, in, L->units * most) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		size_t w = sets[i] * KiB;
		cl_uint w4 = (cl_uint)(w / 16), passes = (cl_uint)(target / w > 0 ? target / w : 1);
		double ms;

		if (args(p, sweep, 4, ARG(in), ARG(out), ARG(w4), ARG(passes)) < 0 ||
		    (ms = timed(p, sweep, 1, &global, &local)) < 0)
			return -1;
		row(p, (double)w * passes / (ms * 1e6), "GB/s per compute unit", ms,
		    "one group of 256 per compute unit re-reads its own W bytes (coalesced float4, four loads in flight per work-item); where it drops the L1 is full",
		    "W = %s, read %u time%s", size_text(w).s, passes, passes == 1 ? "" : "s");
	}
	return read_back(p, out, global * sizeof(float), NULL);
}

/* 6. The last-level cache's effective capacity. */
static int probe_l2_capacity(struct probe *p)
{
	const struct lab *L = p->lab;
	static const size_t sets[] = { 4, 8, 16, 24, 32, 40, 48, 56, 64, 96, 128 };
	size_t top = fit(L, 128 * MiB), global = L->grid, local = GROUP, total = L->quick ? 64 * MiB : 4 * GiB;
	cl_kernel cache;
	cl_mem in, out;

	if (build(p, L2_SRC, "") < 0 || !(cache = kernel(p, "fact_cache")) || !(in = buffer(p, top)) ||
	    !(out = buffer(p, global * sizeof(float))) || fill_zero(p, in, top) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]) && sets[i] * MiB <= top; i++) {
		size_t f = sets[i] * MiB;
		cl_uint n4 = (cl_uint)(f / 16), reps = (cl_uint)(total / f > 0 ? total / f : 1);
		double ms;

		if (args(p, cache, 4, ARG(in), ARG(out), ARG(n4), ARG(reps)) < 0 ||
		    (ms = timed(p, cache, 1, &global, &local)) < 0)
			return -1;
		row(p, (double)f * reps / (ms * 1e6), "GB/s", ms,
		    "the full grid re-reads F bytes (coalesced float4), each pass shifted n4/7+1 as device_facts.c's fact_cache; where it drops the L2 is full",
		    "F = %s, read %u time%s", size_text(f).s, reps, reps == 1 ? "" : "s");
	}
	return read_back(p, out, global * sizeof(float), NULL);
}

/* 7. DRAM streaming: read only, write only, copy. */
static int probe_dram_stream(struct probe *p)
{
	const struct lab *L = p->lab;
	size_t bytes = fit(L, L->quick ? 64 * MiB : GiB), global = L->grid, local = GROUP;
	cl_uint n4 = (cl_uint)(bytes / 16);
	cl_kernel rd, wr, cp;
	cl_mem a, b, out;
	double ms;

	if (build(p, STREAM_SRC, "") < 0 || !(rd = kernel(p, "stream_read")) || !(wr = kernel(p, "stream_write")) ||
	    !(cp = kernel(p, "stream_copy")) || !(a = buffer(p, bytes)) || !(b = buffer(p, bytes)) ||
	    !(out = buffer(p, global * sizeof(float))) || fill_zero(p, a, bytes) < 0 || fill_zero(p, b, bytes) < 0)
		return -1;
	if (args(p, rd, 3, ARG(a), ARG(out), ARG(n4)) < 0 || (ms = timed(p, rd, 1, &global, &local)) < 0)
		return -1;
	row(p, (double)bytes / (ms * 1e6), "GB/s", ms,
	    "the full grid reads the buffer as float4 (grid-stride loop), sums, one store per work-item",
	    "read %s", size_text(bytes).s);
	if (args(p, wr, 2, ARG(b), ARG(n4)) < 0 || (ms = timed(p, wr, 1, &global, &local)) < 0)
		return -1;
	row(p, (double)bytes / (ms * 1e6), "GB/s", ms, "the full grid writes the buffer as float4 (grid-stride loop)",
	    "write %s", size_text(bytes).s);
	if (args(p, cp, 3, ARG(a), ARG(b), ARG(n4)) < 0 || (ms = timed(p, cp, 1, &global, &local)) < 0)
		return -1;
	row(p, 2.0 * bytes / (ms * 1e6), "GB/s", ms,
	    "the full grid copies float4s from one buffer to another; bytes read plus written",
	    "copy %s", size_text(bytes).s);
	if (read_back(p, out, global * sizeof(float), NULL) < 0)
		return -1;
	return read_back(p, b, 4 * KiB, NULL);
}

/* 8. Instruction issue: the FMA ceiling, the integer chain at full grid and
 * one warp's chain alone (an ALU op's dependent latency). */
static int probe_issue(struct probe *p)
{
	const struct lab *L = p->lab;
	size_t global = L->grid, local = GROUP, warp = 32;
	cl_uint fma_iters = L->quick ? 64 : 8192, chain_iters = L->quick ? 64 : 16384, alone = L->quick ? 4096 : 65536;
	cl_uint b = 0x9e3779b9u;
	cl_float m = 0.999999f, c = 1e-6f;
	cl_kernel fma, imad;
	cl_mem out;
	double ms, lanes;

	if (build(p, ISSUE_SRC, "") < 0 || !(fma = kernel(p, "fma_grid")) || !(imad = kernel(p, "imad_chain")) ||
	    !(out = buffer(p, global * sizeof(float))))
		return -1;
	if (args(p, fma, 4, ARG(out), ARG(fma_iters), ARG(m), ARG(c)) < 0 || (ms = timed(p, fma, 1, &global, &local)) < 0)
		return -1;
	lanes = (double)global * fma_iters * 32;
	row(p, lanes / 32 / (ms * 1e6) / L->units, "warp-instructions per ns per CU", ms,
	    "the full grid: 8 independent mad() accumulators per work-item, 32 per iteration, no memory; one lane-FMA each, 32 lanes a warp-instruction",
	    "float FMA, %u iterations", fma_iters);
	if (args(p, imad, 3, ARG(out), ARG(chain_iters), ARG(b)) < 0 || (ms = timed(p, imad, 1, &global, &local)) < 0)
		return -1;
	lanes = (double)global * chain_iters * 4;
	row(p, lanes / 32 / (ms * 1e6) / L->units, "warp-instructions per ns per CU", ms,
	    "the full grid: one dependent chain x = x*x + b per work-item (uint), no memory; one lane-op per step",
	    "integer multiply-add chain, %u steps", chain_iters * 4);
	if (read_back(p, out, global * sizeof(float), NULL) < 0)
		return -1;
	if (args(p, imad, 3, ARG(out), ARG(alone), ARG(b)) < 0 || (ms = timed(p, imad, 1, &warp, &warp)) < 0)
		return -1;
	row(p, ms * 1e6 / (alone * 4.0), "ns per step", ms,
	    "one warp alone runs the dependent chain x = x*x + b: the time per step is the multiply-add's latency",
	    "integer multiply-add chain, one warp, %u steps", alone * 4);
	row(p, ms * 1e3 * L->clock_mhz / (alone * 4.0), "cycles per step", ms,
	    "the ns per step above at the device's reported clock (CL_DEVICE_MAX_CLOCK_FREQUENCY)",
	    "integer multiply-add chain, one warp, at %u MHz", L->clock_mhz);
	return read_back(p, out, warp * sizeof(cl_uint), NULL);
}

/* Checks that buf's words sum to what the launches added: an atomic that
 * was lost would make the rate a lie. */
static int check_count(struct probe *p, cl_mem buf, size_t words, uint64_t want, const char *what)
{
	uint64_t sum;

	if (read_back(p, buf, words * sizeof(cl_uint), &sum) < 0)
		return -1;
	if (sum != want)
		return failedf(p, "%s: the counters sum to %llu, not %llu", what, (unsigned long long)sum,
			       (unsigned long long)want);
	return 0;
}

/* 9. Atomics: global on random words, on 256 bins, on a word per group;
 * local on 256 bins. */
static int probe_atomics(struct probe *p)
{
	const struct lab *L = p->lab;
	size_t global = L->grid, local = GROUP, words = 16 * MiB / sizeof(cl_uint), groups = L->grid / GROUP;
	cl_uint iters = L->quick ? 4 : 32, local_iters = L->quick ? 16 : 256, seed = 0xa7017c, mask = (cl_uint)(words - 1);
	uint64_t launches = WARM + TIMED;
	cl_kernel random, bins, group, lbins;
	cl_mem wbuf, bbuf, gbuf, lbuf;
	double ms;

	if (build(p, ATOMIC_SRC, "") < 0 || !(random = kernel(p, "atomic_random")) || !(bins = kernel(p, "atomic_bins")) ||
	    !(group = kernel(p, "atomic_group")) || !(lbins = kernel(p, "atomic_local")) ||
	    !(wbuf = buffer(p, words * sizeof(cl_uint))) || !(bbuf = buffer(p, 256 * sizeof(cl_uint))) ||
	    !(gbuf = buffer(p, groups * sizeof(cl_uint))) || !(lbuf = buffer(p, 256 * sizeof(cl_uint))) ||
	    fill_zero(p, wbuf, words * sizeof(cl_uint)) < 0 || fill_zero(p, bbuf, 256 * sizeof(cl_uint)) < 0 ||
	    fill_zero(p, gbuf, groups * sizeof(cl_uint)) < 0 || fill_zero(p, lbuf, 256 * sizeof(cl_uint)) < 0)
		return -1;
	if (args(p, random, 4, ARG(wbuf), ARG(mask), ARG(iters), ARG(seed)) < 0 ||
	    (ms = timed(p, random, 1, &global, &local)) < 0 ||
	    check_count(p, wbuf, words, launches * global * iters, "random words") < 0)
		return -1;
	row(p, (double)global * iters / (ms * 1e3), "atomics per µs", ms,
	    "the full grid: atomic_add(+1) on a random word (xorshift) of the buffer, iters per work-item",
	    "global, random words of 16 MiB, %u per work-item", iters);
	if (args(p, bins, 3, ARG(bbuf), ARG(iters), ARG(seed)) < 0 || (ms = timed(p, bins, 1, &global, &local)) < 0 ||
	    check_count(p, bbuf, 256, launches * global * iters, "256 bins") < 0)
		return -1;
	row(p, (double)global * iters / (ms * 1e3), "atomics per µs", ms,
	    "the full grid: atomic_add(+1) on bin hash % 256 of 256 words, as a histogram does",
	    "global, 256 bins, %u per work-item", iters);
	if (args(p, group, 2, ARG(gbuf), ARG(iters)) < 0 || (ms = timed(p, group, 1, &global, &local)) < 0 ||
	    check_count(p, gbuf, groups, launches * global * iters, "a word per group") < 0)
		return -1;
	row(p, (double)global * iters / (ms * 1e3), "atomics per µs", ms,
	    "the full grid: every work-item atomic_add(+1) on its group's one word (256 work-items per address)",
	    "global, one word per group, %u per work-item", iters);
	if (args(p, lbins, 3, ARG(lbuf), ARG(local_iters), ARG(seed)) < 0 ||
	    (ms = timed(p, lbins, 1, &global, &local)) < 0 ||
	    check_count(p, lbuf, 256, launches * global * local_iters, "local bins") < 0)
		return -1;
	row(p, (double)global * local_iters / (ms * 1e3), "atomics per µs", ms,
	    "the full grid: atomic_add(+1) on bin hash % 256 of 256 __local words per group, then one global add per bin per group (counted out)",
	    "local, 256 bins, %u per work-item", local_iters);
	return 0;
}

/* 10. Dependent global loads the L2 serves (8 MiB: more than any L1) and
 * that the L1 serves (16 KiB). */
static int probe_cached_chase(struct probe *p)
{
	static const size_t spans[] = { 8 * MiB, 16 * KiB };
	static const char *const where[] = { "L2", "L1" };
	cl_uint steps = p->lab->quick ? 2048 : 20000;
	size_t one = 1;
	cl_kernel chase, link;
	cl_mem next, words, at;

	if (build(p, CHASE_SRC, "") < 0 || !(chase = kernel(p, "chase")) || !(link = kernel(p, "link_cycle")) ||
	    !(next = buffer(p, spans[0])) || !(words = buffer(p, spans[0] / 32 * sizeof(cl_uint))) ||
	    !(at = buffer(p, sizeof(cl_uint))))
		return -1;
	for (size_t i = 0; i < 2; i++) {
		size_t n = spans[i] / 32;
		cl_uint warm = (cl_uint)n;
		double ms;

		/* One whole lap first, so every sector is in the cache. */
		if (lay_cycle(p, link, next, words, at, n, 32, 0, 0xc4c4e + i) < 0 ||
		    args(p, chase, 3, ARG(next), ARG(at), ARG(warm)) < 0 || launch(p, chase, 1, &one, &one) < 0 ||
		    args(p, chase, 3, ARG(next), ARG(at), ARG(steps)) < 0 || (ms = timed(p, chase, 1, &one, &one)) < 0)
			return -1;
		row(p, ms * 1e6 / steps, "ns per step", ms,
		    "one work-item follows a random cycle through every 32-byte sector of the span, after a whole lap, each load waiting for the last",
		    "span %s (%s), %zu sectors", size_text(spans[i]).s, where[i], n);
	}
	return read_back(p, at, sizeof(cl_uint), NULL);
}

/* Not a probe: a GPU idle since its last launch runs slow clocks, so keep
 * it busy for 300 ms before the first. */
static int warm_clocks(struct probe *p)
{
	const struct lab *L = p->lab;
	size_t global = L->grid, local = GROUP;
	cl_uint iters = 65536;
	cl_kernel spin;
	cl_mem out;

	if (build(p, WARM_SRC, "") < 0 || !(spin = kernel(p, "spin")) || !(out = buffer(p, global * sizeof(float))) ||
	    args(p, spin, 2, ARG(out), ARG(iters)) < 0)
		return -1;
	for (double until = now_ms() + 300; now_ms() < until;)
		if (launch(p, spin, 1, &global, &local) < 0)
			return -1;
	return read_back(p, out, global * sizeof(float), NULL);
}

/* ---- Running ---- */

/* Runs one probe, then releases what it made: 0, or -1 where it was
 * skipped. */
static int run_probe(struct lab *L, const char *name, int (*fn)(struct probe *))
{
	struct probe p = { .lab = L, .name = name };
	double t0 = now_ms();
	int rc = fn(&p);

	clFinish(L->queue);
	for (int i = p.nkernels - 1; i >= 0; i--)
		clReleaseKernel(p.kernels[i]);
	for (int i = p.nmems - 1; i >= 0; i--)
		clReleaseMemObject(p.mems[i]);
	if (p.program)
		clReleaseProgram(p.program);
	fprintf(stderr, "fact-probes: probe %s: %s in %.1f s\n", name, rc < 0 ? "SKIPPED" : "done",
		(now_ms() - t0) / 1e3);
	return rc;
}

/* The first GPU of any platform, else the first device (want_cpu: the first
 * CPU device); its context and a profiling queue. */
static int open_device(struct lab *L, int want_cpu)
{
	cl_platform_id platforms[16];
	cl_uint np = 0;
	cl_device_id first = NULL;
	cl_device_type type = 0;
	cl_int rc = clGetPlatformIDs(16, platforms, &np);

	if (rc != CL_SUCCESS || np == 0) {
		fprintf(stderr, "fact-probes: clGetPlatformIDs failed: %s (%d)\n", cl_error(rc), (int)rc);
		return -1;
	}
	for (cl_uint i = 0; i < np && i < 16 && !L->device; i++) {
		cl_device_id devices[16];
		cl_uint nd = 0;

		if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS)
			continue;
		for (cl_uint j = 0; j < nd && j < 16 && !L->device; j++) {
			if (clGetDeviceInfo(devices[j], CL_DEVICE_TYPE, sizeof(type), &type, NULL) != CL_SUCCESS)
				continue;
			if (!first)
				first = devices[j];
			if (type & (want_cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU))
				L->device = devices[j];
		}
	}
	if (!L->device && !want_cpu)
		L->device = first;
	if (!L->device) {
		fprintf(stderr, "fact-probes: no %sOpenCL device\n", want_cpu ? "CPU " : "");
		return -1;
	}
	if ((rc = clGetDeviceInfo(L->device, CL_DEVICE_TYPE, sizeof(type), &type, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_NAME, sizeof(L->name) - 1, L->name, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(L->units), &L->units, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(L->clock_mhz), &L->clock_mhz, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(L->global_mem), &L->global_mem, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(L->max_alloc), &L->max_alloc, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(L->local_mem), &L->local_mem, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(L->cache_bytes), &L->cache_bytes, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof(L->cache_line), &L->cache_line, NULL)) != CL_SUCCESS ||
	    (rc = clGetDeviceInfo(L->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(L->max_group), &L->max_group, NULL)) != CL_SUCCESS) {
		fprintf(stderr, "fact-probes: clGetDeviceInfo failed: %s (%d)\n", cl_error(rc), (int)rc);
		return -1;
	}
	L->gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
	L->cap = (size_t)(L->max_alloc < L->global_mem / 4 ? L->max_alloc : L->global_mem / 4);
	L->grid = (size_t)(L->units ? L->units : 1) * 2048;
	if (!L->units)
		L->units = 1;
	L->context = clCreateContext(NULL, 1, &L->device, NULL, NULL, &rc);
	if (!L->context) {
		fprintf(stderr, "fact-probes: clCreateContext failed: %s (%d)\n", cl_error(rc), (int)rc);
		return -1;
	}
	L->queue = clCreateCommandQueue(L->context, L->device, CL_QUEUE_PROFILING_ENABLE, &rc);
	if (!L->queue) {
		fprintf(stderr, "fact-probes: clCreateCommandQueue failed: %s (%d)\n", cl_error(rc), (int)rc);
		return -1;
	}
	return 0;
}

static void describe(const struct lab *L)
{
	printf("# fact-probes on %s\n\n", L->name);
	printf("- %s, %u compute units at %u MHz; %.1f GiB global memory, %.1f GiB largest allocation "
	       "(buffers here at most %.2f GiB); %llu KiB local memory; global cache %llu KiB, line %u bytes "
	       "(as the driver reports them); largest work-group %zu\n",
	       L->gpu ? "GPU" : "not a GPU", L->units, L->clock_mhz, (double)L->global_mem / GiB,
	       (double)L->max_alloc / GiB, (double)L->cap / GiB, (unsigned long long)(L->local_mem / 1024),
	       (unsigned long long)(L->cache_bytes / 1024), L->cache_line, L->max_group);
	printf("- full grid: %zu work-items (%u x 2048) in groups of %d; each time is the median of %d launches "
	       "after %d untimed (profiling events)%s\n\n",
	       L->grid, L->units, GROUP, TIMED, WARM, L->quick ? "; --quick sizes" : "");
	printf("| probe | parameter | value | unit | method |\n|---|---|---|---|---|\n");
	fflush(stdout);
	if (L->json) {
		fputs("{\"device\": ", L->json);
		json_string(L->json, L->name);
		fprintf(L->json,
			", \"gpu\": %s, \"compute_units\": %u, \"clock_mhz\": %u, \"global_mem\": %llu, \"max_alloc\": %llu, "
			"\"local_mem\": %llu, \"global_cache\": %llu, \"cache_line\": %u, \"grid\": %zu, \"quick\": %s, "
			"\"timed\": %d, \"warm\": %d}\n",
			L->gpu ? "true" : "false", L->units, L->clock_mhz, (unsigned long long)L->global_mem,
			(unsigned long long)L->max_alloc, (unsigned long long)L->local_mem,
			(unsigned long long)L->cache_bytes, L->cache_line, L->grid, L->quick ? "true" : "false", TIMED,
			WARM);
		fflush(L->json);
	}
}

static void close_lab(struct lab *L)
{
	if (L->queue)
		clReleaseCommandQueue(L->queue);
	if (L->context)
		clReleaseContext(L->context);
	if (L->json)
		fclose(L->json);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(struct probe *);
	} probes[] = {
		{ "tlb", probe_tlb },
		{ "random_reads", probe_random_reads },
		{ "stores", probe_stores },
		{ "local_latency", probe_local_latency },
		{ "l1_capacity", probe_l1_capacity },
		{ "l2_capacity", probe_l2_capacity },
		{ "dram_stream", probe_dram_stream },
		{ "issue", probe_issue },
		{ "atomics", probe_atomics },
		{ "cached_chase", probe_cached_chase },
	};
	const int count = (int)(sizeof(probes) / sizeof(probes[0]));
	struct lab L = { 0 };
	const char *json_path = NULL, *skip = "";
	int want_cpu = 0, skipped = 0;
	double t0 = now_ms();

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--cpu") == 0) {
			want_cpu = 1;
		} else if (strcmp(argv[i], "--quick") == 0) {
			L.quick = 1;
		} else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
			json_path = argv[++i];
		} else if (strcmp(argv[i], "--skip") == 0 && i + 1 < argc) {
			skip = argv[++i];
		} else {
			fprintf(stderr, "usage: %s [--cpu] [--quick] [--json FILE] [--skip NAME,NAME...]\n", argv[0]);
			return 2;
		}
	}
	if (json_path && !(L.json = fopen(json_path, "w"))) {
		perror(json_path);
		return 2;
	}
	if (open_device(&L, want_cpu) < 0) {
		close_lab(&L);
		return 2;
	}
	if (!L.gpu && !L.quick)
		fprintf(stderr, "fact-probes: %s is not a GPU: the full sizes may take long (--quick shrinks them)\n", L.name);
	describe(&L);
	if (L.gpu)
		run_probe(&L, "warm-up", warm_clocks);
	for (int i = 0; i < count; i++) {
		char padded[64], list[512];

		snprintf(padded, sizeof(padded), ",%s,", probes[i].name);
		snprintf(list, sizeof(list), ",%s,", skip);
		if (strstr(list, padded))
			continue;
		if (run_probe(&L, probes[i].name, probes[i].fn) < 0)
			skipped++;
	}
	printf("\n%d probes, %d skipped, %.1f s; checksum %016llx\n", count, skipped, (now_ms() - t0) / 1e3,
	       (unsigned long long)L.checksum);
	close_lab(&L);
	return skipped ? 1 : 0;
}
