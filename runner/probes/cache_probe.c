/* The last-level cache probe (see cache_probe.h). Each working set is read
 * with float4 loads by a grid-stride kernel, launched twice to warm the cache
 * and then five times timed (a small set read over and over, so that a launch
 * lasts), after the clocks were warmed on the largest; the median gives its
 * bandwidth. The largest set
 * (far beyond any cache) gives the DRAM plateau, and the cache size is the
 * largest set still read at least 1.5 times faster than that. */
#include "cache_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_driver.h"
#include "cl_timing.h"
#include "stats.h"
#include "time_budget.h"

static const char PROBE_SOURCE[] =
	"__kernel void probe_read(__global const float4 *in, __global float *out, uint n4, uint reps)\n"
	"{\n"
	"	float4 acc = (float4)(0.0f);\n"
	"	for (uint r = 0; r < reps; r++)\n"
	"		for (uint i = get_global_id(0); i < n4; i += get_global_size(0))\n"
	"			acc += in[i];\n"
	"	out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;\n"
	"}\n";

#define PROBE_MIN ((size_t)1 << 20)
#define PROBE_FASTER 1.5
/* Each launch reads at least this much (a small set read again and again),
 * so that it lasts long enough to time and measures bandwidth, not latency. */
#define PROBE_LAUNCH_BYTES ((size_t)64 << 20)
/* Launches of the largest set before the sweep, to bring the clocks up. */
#define PROBE_WARM_S 0.2

/* Work-items enough for every compute unit to have many in flight. */
static size_t probe_items(const struct wl_device *dev)
{
	size_t items = (size_t)dev->compute_units * 2048;

	if (items < 65536)
		items = 65536;
	if (items > ((size_t)1 << 20))
		items = (size_t)1 << 20;
	return items / 256 * 256;
}

/* The largest size to read: 1 GiB, or less where the device is smaller. */
static size_t probe_max(const struct wl_device *dev)
{
	size_t max = (size_t)1 << 30;

	while (max > PROBE_MIN && (max > dev->max_alloc / 2 || max > dev->global_mem / 8))
		max /= 2;
	return max;
}

/* Two warm-up launches reading bytes of in reps times, then five timed ones
 * into samples (ms). */
static int probe_launches(struct wl_device *dev, cl_kernel kernel, cl_mem in, cl_mem partial,
			  size_t bytes, size_t items, cl_uint reps, double *samples, struct wl_error *err)
{
	cl_uint n4 = (cl_uint)(bytes / 16);
	struct wl_launch l = { .handle = kernel, .dims = 1, .global = { items }, .local = { 256 } };
	cl_int code;

	clSetKernelArg(kernel, 0, sizeof(cl_mem), &in);
	clSetKernelArg(kernel, 1, sizeof(cl_mem), &partial);
	clSetKernelArg(kernel, 2, sizeof(cl_uint), &n4);
	clSetKernelArg(kernel, 3, sizeof(cl_uint), &reps);
	return wl_time_launches(wl_cl_of(dev)->queue, &l, 2, 5, NULL, samples, &code, err);
}

long long wl_cpu_cache_bytes(const char *sysfs_cpu)
{
	long long best = 0;
	int best_level = 0;

	for (int i = 0; i < 16; i++) {
		char path[512], size[32] = "";
		int level = 0;
		long long bytes;
		char unit = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s/cache/index%d/level", sysfs_cpu, i);
		if (!(f = fopen(path, "r")))
			break;
		if (fscanf(f, "%d", &level) != 1)
			level = 0;
		fclose(f);
		snprintf(path, sizeof(path), "%s/cache/index%d/size", sysfs_cpu, i);
		if (!(f = fopen(path, "r")))
			continue;
		if (!fgets(size, sizeof(size), f))
			size[0] = '\0';
		fclose(f);
		if (sscanf(size, "%lld%c", &bytes, &unit) < 1)
			continue;
		bytes *= unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : unit == 'G' ? 1024LL * 1024 * 1024 : 1;
		if (level > best_level || (level == best_level && bytes > best)) {
			best_level = level;
			best = bytes;
		}
	}
	return best;
}

int wl_cache_probe(struct wl_device *dev, json_t **out, struct wl_error *err)
{
	const char *src = PROBE_SOURCE;
	size_t max = probe_max(dev), cache = 0, nsizes = 0, items = probe_items(dev);
	double gbps[40], samples[5];
	size_t sizes[40];
	cl_program program = NULL;
	cl_kernel kernel = NULL;
	cl_mem in = NULL, partial = NULL;
	cl_uint pattern = 0x3f800001u;	/* just above 1.0f: never zero */
	cl_int rc;
	int status = -1;

	if (wl_cl_device_open(dev, err) < 0)
		return -1;
	program = clCreateProgramWithSource(wl_cl_of(dev)->context, 1, &src, NULL, &rc);
	if (!program || clBuildProgram(program, 1, &wl_cl_of(dev)->device, "", NULL, NULL) != CL_SUCCESS ||
	    !(kernel = clCreateKernel(program, "probe_read", &rc))) {
		wl_error_set(err, WL_ERR_INTERNAL, "cache probe: the read kernel does not build on %s", dev->id);
		goto out;
	}
	in = clCreateBuffer(wl_cl_of(dev)->context, CL_MEM_READ_ONLY, max, NULL, &rc);
	partial = in ? clCreateBuffer(wl_cl_of(dev)->context, CL_MEM_WRITE_ONLY, items * sizeof(float), NULL, &rc) : NULL;
	if (!in || !partial ||
	    clEnqueueFillBuffer(wl_cl_of(dev)->queue, in, &pattern, sizeof(pattern), 0, max, 0, NULL, NULL) != CL_SUCCESS ||
	    clFinish(wl_cl_of(dev)->queue) != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "cache probe: cannot fill %zu bytes on %s", max, dev->id);
		goto out;
	}
	/* Warm the clocks on the largest set, then sweep 1, 1.5, 2, 3, 4, 6 ...
	 * MiB: steps of 1.5 and 4/3, so a 50 MB cache is found at 48 MiB rather
	 * than 32. */
	for (double until = wl_now_ms() + PROBE_WARM_S * 1000; wl_now_ms() < until;)
		if (probe_launches(dev, kernel, in, partial, max, items, 1, samples, err) < 0)
			goto out;
	for (size_t bytes = PROBE_MIN; bytes <= max && nsizes < 40;
	     bytes = (bytes & (bytes - 1)) ? bytes / 3 * 4 : bytes / 2 * 3) {
		struct wl_stats s;
		cl_uint reps = bytes >= PROBE_LAUNCH_BYTES ? 1 : (cl_uint)(PROBE_LAUNCH_BYTES / bytes);

		if (probe_launches(dev, kernel, in, partial, bytes, items, reps, samples, err) < 0 ||
		    wl_stats_summary(samples, 5, &s) < 0 || s.median <= 0)
			goto out;
		sizes[nsizes] = bytes;
		gbps[nsizes++] = (double)bytes * reps / (s.median * 1e6);
	}
	for (size_t i = 0; i + 1 < nsizes; i++)
		if (gbps[i] >= PROBE_FASTER * gbps[nsizes - 1])
			cache = sizes[i];
	{
		json_t *js = json_array(), *jg = json_array();

		for (size_t i = 0; i < nsizes; i++) {
			json_array_append_new(js, json_integer((json_int_t)sizes[i]));
			json_array_append_new(jg, json_real(gbps[i]));
		}
		*out = json_pack("{s:I, s:s, s:s, s:o, s:o}", "bytes", (json_int_t)cache,
				 "source", cache ? "probe" : "unknown", "method",
				 cache ? "read sweep: the largest working set read 1.5x faster than the largest one" :
					 "read sweep: no working set read 1.5x faster than the largest one, so the size is unknown",
				 "sizes", js, "gbps", jg);
	}
	status = *out ? 0 : -1;
	if (status < 0)
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
out:
	if (in)
		clReleaseMemObject(in);
	if (partial)
		clReleaseMemObject(partial);
	if (kernel)
		clReleaseKernel(kernel);
	if (program)
		clReleaseProgram(program);
	return status;
}

/* The L2 of an NVIDIA GPU as its CUDA driver gives it; NULL where it has no
 * such answer (why then says so, for the "probe" record). */
static json_t *from_driver(const struct wl_device *dev, const struct wl_cuda_devices *cuda,
			   const char *cuda_why, char *why, size_t why_len)
{
	const char *platform = json_string_value(json_object_get(dev->info, "platform"));
	long long bytes;

	why[0] = '\0';
	if (!platform || !strstr(platform, "NVIDIA") || !dev->has_pci)
		return NULL;	/* not NVIDIA's: nothing to ask */
	bytes = wl_cuda_l2_bytes(cuda, dev->pci.domain, dev->pci.bus, dev->pci.device);
	if (bytes <= 0) {
		snprintf(why, why_len, "%s", cuda_why && cuda_why[0] ? cuda_why :
			 "the CUDA driver has no device at its PCI address");
		return NULL;
	}
	return json_pack("{s:I, s:s, s:s}", "bytes", (json_int_t)bytes, "source", "driver", "method",
			 "the CUDA driver's L2 size (CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE), matched by PCI address");
}

json_t *wl_cache_describe(struct wl_device *dev, const struct wl_cuda_devices *cuda, const char *cuda_why,
			  const json_t *stored)
{
	char why[256];
	json_t *cache = from_driver(dev, cuda, cuda_why, why, sizeof(why));
	long long cpu = dev->is_gpu ? 0 : wl_cpu_cache_bytes("/sys/devices/system/cpu/cpu0");
	struct wl_error err;

	if (!cache && cpu > 0)
		cache = json_pack("{s:I, s:s, s:s}", "bytes", (json_int_t)cpu, "source", "system", "method",
				  "the CPU's last cache level as Linux reports it (/sys/devices/system/cpu/cpu0/cache)");
	/* A probe is kept per driver; records from before "source" are not. */
	if (!cache && json_is_object(stored) && json_is_string(json_object_get(stored, "source")))
		cache = json_deep_copy(stored);
	if (!cache && wl_cache_probe(dev, &cache, &err) < 0)
		cache = json_pack("{s:i, s:s, s:s}", "bytes", 0, "source", "unknown", "method", err.msg);
	if (cache && why[0])
		json_object_set_new(cache, "driver_said", json_string(why));
	return cache;
}
