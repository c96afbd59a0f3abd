/* OpenCL's builders (see cl_builders.h): where a worker's device is, as
 * another process finds it, and the builder's builds. */
#include "cl_builders.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builders.h"
#include "log.h"

/* The k-th device named name of the platform named platform, or NULL. */
static cl_device_id device_named(const char *platform, const char *name, unsigned k)
{
	cl_platform_id plats[16];
	cl_device_id devs[64];
	cl_uint np = 0, nd = 0;
	char text[256];

	if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
		return NULL;
	for (cl_uint p = 0; p < np && p < 16; p++) {
		if (clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof(text), text, NULL) != CL_SUCCESS ||
		    strcmp(text, platform) != 0 || clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
			continue;
		for (cl_uint d = 0; d < nd && d < 64; d++)
			if (clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof(text), text, NULL) == CL_SUCCESS &&
			    strcmp(text, name) == 0 && k-- == 0)
				return devs[d];
	}
	return NULL;
}

int wl_cl_builder_place(const struct wl_device *dev, char *out, size_t len)
{
	const struct wl_cl_device *cl = wl_cl_of(dev);
	char platform[256], name[256];

	if (!cl || clGetPlatformInfo(cl->platform, CL_PLATFORM_NAME, sizeof(platform), platform, NULL) != CL_SUCCESS ||
	    clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof(name), name, NULL) != CL_SUCCESS)
		return -1;
	for (unsigned k = 0; k < 64; k++) {
		cl_device_id d = device_named(platform, name, k);

		if (!d)
			return -1;
		if (d == cl->device) {
			snprintf(out, len, "opencl\n%s\n%s\n%u", platform, name, k);
			return 0;
		}
	}
	return -1;
}

/* The builder's device, by where (wl_cl_builder_place's, less its first
 * line), with a context. */
static int builder_device(const char *where, cl_device_id *dev, cl_context *ctx)
{
	char platform[256], name[256];
	unsigned k;

	if (sscanf(where, "%255[^\n]\n%255[^\n]\n%u", platform, name, &k) != 3 ||
	    !(*dev = device_named(platform, name, k)))
		return -1;
	*ctx = clCreateContext(NULL, 1, dev, NULL, NULL, NULL);
	return *ctx ? 0 : -1;
}

/* The builder's device and its context. */
struct cl_builder {
	cl_device_id dev;
	cl_context ctx;
};

/* One program built from text with options: its log and binary sent back
 * (no binary where it did not build). -1 where the worker is gone. */
static int builder_build(void *arg, const char *text, size_t len, const char *options)
{
	const struct cl_builder *b = arg;
	cl_program program = clCreateProgramWithSource(b->ctx, 1, &text, &len, NULL);
	unsigned char *binary = NULL;
	size_t log_len = 0, bin_len = 0;
	char *log = NULL;
	int rc;

	if (program && clBuildProgram(program, 1, &b->dev, options, NULL, NULL) == CL_SUCCESS &&
	    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(bin_len), &bin_len, NULL) == CL_SUCCESS &&
	    bin_len > 0 && (binary = malloc(bin_len)) &&
	    clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binary), &binary, NULL) != CL_SUCCESS)
		bin_len = 0;
	if (!bin_len) {
		free(binary);
		binary = NULL;
	}
	if (program && clGetProgramBuildInfo(program, b->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len) == CL_SUCCESS &&
	    log_len > 0 && (log = calloc(1, log_len + 1)) &&
	    clGetProgramBuildInfo(program, b->dev, CL_PROGRAM_BUILD_LOG, log_len, log, NULL) != CL_SUCCESS)
		log[0] = '\0';
	rc = wl_builder_answer(log, binary, bin_len, NULL);
	free(log);
	free(binary);
	if (program)
		clReleaseProgram(program);
	return rc;
}

int wl_cl_builder_main(const char *where)
{
	struct cl_builder b;

	if (builder_device(where, &b.dev, &b.ctx) < 0) {
		wl_log_error("--builder %s: no such OpenCL device", where);
		return 1;
	}
	wl_builder_serve(builder_build, &b);
	clReleaseContext(b.ctx);
	return 0;
}
