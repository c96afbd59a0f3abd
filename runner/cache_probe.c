/* The last-level cache probe (see cache_probe.h). Each working set is read
 * with float4 loads by a grid-stride kernel, launched twice to warm the cache
 * and then five times timed; the median gives its bandwidth. The largest set
 * (far beyond any cache) gives the DRAM plateau, and the cache size is the
 * largest set still read at least 1.5 times faster than that. */
#include "cache_probe.h"

#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "stats.h"

static const char PROBE_SOURCE[] =
	"__kernel void probe_read(__global const float4 *in, __global float *out, uint n4)\n"
	"{\n"
	"	float4 acc = (float4)(0.0f);\n"
	"	for (uint i = get_global_id(0); i < n4; i += get_global_size(0))\n"
	"		acc += in[i];\n"
	"	out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;\n"
	"}\n";

#define PROBE_MIN ((size_t)1 << 20)
#define PROBE_ITEMS 65536
#define PROBE_FASTER 1.5

size_t wl_cache_flush_bytes(const struct wl_cl_device *dev, long long cache_bytes, size_t max)
{
	size_t bytes = (size_t)(cache_bytes > 0 ? cache_bytes : 0) * 4, cap = dev->max_alloc;

	if (bytes < 8u << 20)
		bytes = 8u << 20;
	if (max && bytes > max)
		bytes = max;
	if (cap > dev->global_mem / 4)
		cap = dev->global_mem / 4;
	return bytes < cap ? bytes : cap;
}

/* The largest size to read: 1 GiB, or less where the device is smaller. */
static size_t probe_max(const struct wl_cl_device *dev)
{
	size_t max = (size_t)1 << 30;

	while (max > PROBE_MIN && (max > dev->max_alloc / 2 || max > dev->global_mem / 8))
		max /= 2;
	return max;
}

int wl_cache_probe(struct wl_cl_device *dev, json_t **out, struct wl_error *err)
{
	const char *src = PROBE_SOURCE;
	size_t max = probe_max(dev), cache = 0, nsizes = 0;
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
	program = clCreateProgramWithSource(dev->context, 1, &src, NULL, &rc);
	if (!program || clBuildProgram(program, 1, &dev->device, "", NULL, NULL) != CL_SUCCESS ||
	    !(kernel = clCreateKernel(program, "probe_read", &rc))) {
		wl_error_set(err, WL_ERR_INTERNAL, "cache probe: the read kernel does not build on %s", dev->id);
		goto out;
	}
	in = clCreateBuffer(dev->context, CL_MEM_READ_ONLY, max, NULL, &rc);
	partial = in ? clCreateBuffer(dev->context, CL_MEM_WRITE_ONLY, PROBE_ITEMS * sizeof(float), NULL, &rc) : NULL;
	if (!in || !partial ||
	    clEnqueueFillBuffer(dev->queue, in, &pattern, sizeof(pattern), 0, max, 0, NULL, NULL) != CL_SUCCESS ||
	    clFinish(dev->queue) != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "cache probe: cannot fill %zu bytes on %s", max, dev->id);
		goto out;
	}
	/* 1, 1.5, 2, 3, 4, 6 ... MiB: steps of 1.5 and 4/3, so a 50 MB cache is
	 * found at 48 MiB rather than 32. */
	for (size_t bytes = PROBE_MIN; bytes <= max && nsizes < 40;
	     bytes = (bytes & (bytes - 1)) ? bytes / 3 * 4 : bytes / 2 * 3) {
		cl_uint n4 = (cl_uint)(bytes / 16);
		struct wl_launch l = { .kernel = kernel, .dims = 1, .global = { PROBE_ITEMS }, .local = { 256 } };
		struct wl_stats s;
		cl_int code;

		clSetKernelArg(kernel, 0, sizeof(cl_mem), &in);
		clSetKernelArg(kernel, 1, sizeof(cl_mem), &partial);
		clSetKernelArg(kernel, 2, sizeof(cl_uint), &n4);
		if (wl_time_launches(dev->queue, &l, 2, 5, NULL, samples, &code, err) < 0 ||
		    wl_stats_summary(samples, 5, &s) < 0 || s.median <= 0)
			goto out;
		sizes[nsizes] = bytes;
		gbps[nsizes++] = (double)bytes / (s.median * 1e6);
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
		*out = json_pack("{s:I, s:s, s:o, s:o}", "bytes", (json_int_t)cache, "method",
				 "read sweep: the largest working set read 1.5x faster than the largest one",
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
