/* One OpenCL program built for a device (see cl_program_build.h). */
#include "cl_program_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_disk.h"
#include "log.h"

/* The log of program's last build on dev: owned by the caller, "" when
 * there is none, NULL only when out of memory. */
static char *build_log_of(cl_program program, const struct wl_device *dev)
{
	size_t size = 0;
	char *log;

	if (clGetProgramBuildInfo(program, wl_cl_of(dev)->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS ||
	    size == 0)
		return strdup("");
	log = calloc(1, size + 1);
	if (log && clGetProgramBuildInfo(program, wl_cl_of(dev)->device, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS)
		log[0] = '\0';
	return log;
}

/* Where failed_log is given, the build log of program on dev into it; its
 * start in err either way. */
static void build_failure(char **failed_log, cl_program program, const struct wl_device *dev, cl_int rc,
			  const char *options, struct wl_error *err)
{
	if (!failed_log) {
		wl_error_set(err, WL_ERR_BUILD, "kernel build failed on %s (%s, options '%s')", dev->id,
			     wl_cl_error_name(rc), options);
		return;
	}
	free(*failed_log);
	*failed_log = build_log_of(program, dev);
	wl_error_set(err, WL_ERR_BUILD, "kernel build failed on %s (%s, options '%s'): %.900s", dev->id,
		     wl_cl_error_name(rc), options, *failed_log ? *failed_log : "");
}

void wl_program_disk_key(const struct wl_device *dev, const struct wl_source *src, const char *options, char *out,
			 size_t len)
{
	json_t *info = dev->info;

	snprintf(out, len, "%s\n%s\n%s\n%s\n%s",
		 json_string_value(json_object_get(info, "name")),
		 json_string_value(json_object_get(info, "driver")),
		 json_string_value(json_object_get(info, "opencl")), options, src->hash);
}

/* On NVIDIA's OpenCL -cl-nv-verbose (ptxas reports each kernel's
 * registers, local memory and spills in the log) and -nv-line-info (the PTX
 * names each instruction's source line) are added; neither changes the code
 * (the same PTX, less its .loc lines, and the same registers, seen on the
 * H100). */
char *wl_program_build_options(const struct wl_device *dev, const char *options)
{
	char *out = NULL;

	if (asprintf(&out, "%s%s", options, wl_cl_of(dev)->nv_compiler ? " -cl-nv-verbose -nv-line-info" : "") < 0)
		return NULL;
	return out;
}

/* The program from the binary kept on disk, built (linked) for dev, with
 * the log of the build that made it in *log; NULL when there is none or it
 * does not load. */
static cl_program from_disk(const char *dir, const struct wl_device *dev, const struct wl_source *src,
			    const char *key, const char *options, char **log)
{
	struct wl_program_file file;
	cl_program program;

	if (!src->keep_binary || wl_program_disk_load(dir, key, src->text, src->len, &file) < 0)
		return NULL;
	program = wl_program_from_binary(dev, file.binary, file.binary_len, options);
	free(file.binary);
	free(file.ptx);	/* OpenCL's PTX, where there is one, is its binary */
	if (program)
		*log = file.log;
	else
		free(file.log);
	return program;
}

cl_program wl_program_from_binary(const struct wl_device *dev, const unsigned char *binary, size_t len,
				  const char *full_options)
{
	cl_int rc, status;
	cl_program program = clCreateProgramWithBinary(wl_cl_of(dev)->context, 1, &wl_cl_of(dev)->device, &len,
						       &binary, &status, &rc);

	if (program && (status != CL_SUCCESS ||
			clBuildProgram(program, 1, &wl_cl_of(dev)->device, full_options, NULL, NULL) != CL_SUCCESS)) {
		clReleaseProgram(program);
		program = NULL;
	}
	return program;
}

unsigned char *wl_program_binary(cl_program program, size_t *len)
{
	unsigned char *binary;

	*len = 0;
	if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(*len), len, NULL) != CL_SUCCESS ||
	    *len == 0 || !(binary = malloc(*len)))
		return NULL;
	if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binary), &binary, NULL) != CL_SUCCESS) {
		free(binary);
		return NULL;
	}
	return binary;
}

cl_program wl_program_build(const char *dir, const struct wl_device *dev, const struct wl_source *src,
			    const char *options, const char *key, int *loaded, char **log, char **failed_log,
			    struct wl_error *err)
{
	char *full = wl_program_build_options(dev, options);
	const char *text = src->text;
	cl_program program = NULL;
	cl_int rc;

	*log = NULL;
	if (!full) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	program = dir ? from_disk(dir, dev, src, key, full, log) : NULL;
	*loaded = program != NULL;
	if (!program) {
		program = clCreateProgramWithSource(wl_cl_of(dev)->context, 1, &text, &src->len, &rc);
		if (!program) {
			wl_error_set(err, WL_ERR_INTERNAL, "clCreateProgramWithSource: %s", wl_cl_error_name(rc));
		} else if ((rc = clBuildProgram(program, 1, &wl_cl_of(dev)->device, full, NULL, NULL)) != CL_SUCCESS) {
			build_failure(failed_log, program, dev, rc, options, err);
			clReleaseProgram(program);
			program = NULL;
		} else if (!(*log = build_log_of(program, dev))) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			clReleaseProgram(program);
			program = NULL;
		}
	}
	free(full);
	return program;
}

void wl_program_keep(const char *dir, const struct wl_device *dev, const struct wl_source *src, const char *key,
		     cl_program program, const char *log)
{
	struct wl_program_file file = { NULL, 0, (char *)log, NULL };
	struct wl_error err;

	if (!dir || !*dir || !src->keep_binary || !(file.binary = wl_program_binary(program, &file.binary_len)))
		return;
	if (wl_program_disk_save(dir, key, src->text, src->len, &file, &err) < 0)
		wl_log_warn("program %s for %s not kept: %s", src->hash, dev->id, err.msg);
	free(file.binary);
}
