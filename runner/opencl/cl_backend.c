/* The OpenCL backend (backend.h): buffers are memory objects, kernels come
 * from the program cache (cl_program.h), launches are timed with profiling
 * events (cl_timing.h), and a reset closes the device's context and opens a
 * fresh one. Also the test backend's lost context (--test-lose-context),
 * which stands in for CUDA's sticky errors on PoCL. */
#include "backend.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_device.h"
#include "cl_program.h"
#include "cl_timing.h"
#include "launch.h"
#include "source.h"
#include "catalog.h"

static cl_mem mem_of(const struct wl_buf *b)
{
	return (cl_mem)(uintptr_t)b->handle;
}

static cl_kernel kernel_of(const struct wl_launch *l)
{
	return (cl_kernel)l->handle;
}

/* The test's lost context: the after-th timed launch of a custom kernel
 * loses it; everything then fails until a reset, which fails too where
 * the test says it stays lost. One worker runs one device, one thread. */
static struct {
	long after, launches;
	int reset_fails, lost;
} test_loss;

void wl_backend_test_lose_context(long after, int reset_fails)
{
	test_loss.after = after;
	test_loss.launches = 0;
	test_loss.reset_fails = reset_fails;
	test_loss.lost = 0;
}

static int test_lost(struct wl_error *err)
{
	if (!test_loss.lost)
		return 0;
	wl_error_set(err, WL_ERR_DEVICE_LOST,
		     "the device's context is lost (CUDA_ERROR_ILLEGAL_ADDRESS, as the test backend of --test-lose-context makes it)");
	return 1;
}

static const char *family_source(const struct wl_experiment *exp)
{
	return exp->source;
}

static int open_device(struct wl_device *dev, struct wl_error *err)
{
	return wl_cl_device_open(dev, err);
}

static int reset(struct wl_device *dev, struct wl_program_cache *programs, struct wl_error *err)
{
	if (test_loss.lost && test_loss.reset_fails) {
		wl_error_set(err, WL_ERR_DEVICE_LOST,
			     "the device's context stays lost for this process (the test backend of --test-lose-context)");
		return -1;
	}
	test_loss.lost = 0;
	wl_program_cache_drop_device(programs, dev);
	wl_cl_device_close(dev);
	return wl_cl_device_open(dev, err);
}

/* OpenCL's flags for role. */
static cl_mem_flags cl_flags(enum wl_buf_role role)
{
	return role == WL_BUF_IN ? CL_MEM_READ_ONLY : role == WL_BUF_OUT ? CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE;
}

static int buffer(struct wl_device *dev, enum wl_buf_role role, size_t bytes, const void *init,
		  struct wl_buf *out, struct wl_error *err)
{
	cl_mem mem;
	cl_int rc;

	memset(out, 0, sizeof(*out));
	if (test_lost(err))
		return -1;
	mem = clCreateBuffer(wl_cl_of(dev)->context, cl_flags(role), bytes, NULL, &rc);
	if (!mem) {
		wl_error_set(err, WL_ERR_INTERNAL, "clCreateBuffer of %zu bytes: %s", bytes, wl_cl_error_name(rc));
		return -1;
	}
	*out = (struct wl_buf){ .backend = &wl_backend_opencl, .handle = (uintptr_t)mem, .bytes = bytes };
	if (init) {
		rc = clEnqueueWriteBuffer(wl_cl_of(dev)->queue, mem, CL_TRUE, 0, bytes, init, 0, NULL, NULL);
		if (rc != CL_SUCCESS) {
			wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueWriteBuffer of %zu bytes: %s", bytes,
				     wl_cl_error_name(rc));
			wl_buf_release(out);
			return -1;
		}
	}
	return 0;
}

static int fill(struct wl_device *dev, const struct wl_buf *b, uint32_t pattern, size_t bytes,
		struct wl_error *err)
{
	cl_uint word = pattern;
	cl_int rc = clEnqueueFillBuffer(wl_cl_of(dev)->queue, mem_of(b), &word, sizeof(word), 0, bytes, 0, NULL, NULL);

	if (rc == CL_SUCCESS)
		rc = clFinish(wl_cl_of(dev)->queue);
	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueFillBuffer: %s", wl_cl_error_name(rc));
		return -1;
	}
	return 0;
}

static int read_back(struct wl_device *dev, const struct wl_buf *b, size_t bytes, void *out, struct wl_error *err)
{
	cl_int rc = clEnqueueReadBuffer(wl_cl_of(dev)->queue, mem_of(b), CL_TRUE, 0, bytes, out, 0, NULL, NULL);

	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueReadBuffer of %zu bytes: %s", bytes, wl_cl_error_name(rc));
		return -1;
	}
	return 0;
}

static int write_over(struct wl_device *dev, const struct wl_buf *b, size_t bytes, const void *host,
		      struct wl_error *err)
{
	cl_int rc = clEnqueueWriteBuffer(wl_cl_of(dev)->queue, mem_of(b), CL_TRUE, 0, bytes, host, 0, NULL, NULL);

	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueWriteBuffer of %zu bytes: %s", bytes, wl_cl_error_name(rc));
		return -1;
	}
	return 0;
}

static void buffer_release(struct wl_buf *b)
{
	if (b->handle)
		clReleaseMemObject(mem_of(b));
}

static void *staging_now(const struct wl_device *dev, unsigned slot, size_t *size)
{
	const struct wl_cl_device *cl = wl_cl_of(dev);

	*size = cl ? cl->staging[slot & 1].size : 0;
	return cl ? cl->staging[slot & 1].ptr : NULL;
}

/* The number of parameters of kernel name of src built with options. */
static int kernel_arity(const struct wl_kernel_site *site, const struct wl_source *src, const char *options,
			const char *name, cl_uint *out, struct wl_error *err)
{
	cl_program program;
	cl_kernel k;
	cl_int rc;

	if (wl_program_get(site->programs, site->dev, src, options, &program, err) < 0)
		return -1;
	k = clCreateKernel(program, name, &rc);
	if (!k) {
		wl_error_set(err, WL_ERR_INTERNAL, "clCreateKernel %s: %s", name, wl_cl_error_name(rc));
		return -1;
	}
	rc = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(*out), out, NULL);
	clReleaseKernel(k);
	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clGetKernelInfo %s: %s", name, wl_cl_error_name(rc));
		return -1;
	}
	return 0;
}

/* A custom kernel is called with its built-in's arguments: say so plainly
 * rather than let the launch fail with CL_INVALID_KERNEL_ARGS. */
static int check_arity(const struct wl_kernel_site *site, const char *options, const char *name, cl_kernel k,
		       struct wl_error *err)
{
	cl_uint have, want;

	if (kernel_arity(site, site->family, options, site->like_kernel, &want, err) < 0 ||
	    clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(have), &have, NULL) != CL_SUCCESS) {
		if (!err || !err->msg[0])
			wl_error_set(err, WL_ERR_INTERNAL, "clGetKernelInfo %s failed", name);
		return -1;
	}
	if (have != want) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "%s takes %u parameters, but the harness calls it like %s, with %u (see its signature)",
			     name, have, site->like_kernel, want);
		return -1;
	}
	return 0;
}

static int kernel(const struct wl_kernel_site *site, const char *options, const char *name, struct wl_launch *l,
		  struct wl_error *err)
{
	cl_program program;
	cl_kernel k;
	cl_int rc;

	if (wl_program_get(site->programs, site->dev, site->source, options, &program, err) < 0)
		return -1;
	k = clCreateKernel(program, name, &rc);
	if (!k) {
		wl_error_set(err, rc == CL_INVALID_KERNEL_NAME ? WL_ERR_CONFIG : WL_ERR_INTERNAL,
			     "clCreateKernel %s: %s", name, wl_cl_error_name(rc));
		return -1;
	}
	if (site->like_kernel && check_arity(site, options, name, k, err) < 0) {
		clReleaseKernel(k);
		return -1;
	}
	l->backend = &wl_backend_opencl;
	l->handle = k;
	return 0;
}

/* clSetKernelArg's verdict on argument i. */
static int arg_set(struct wl_launch *l, unsigned i, size_t size, const void *value, struct wl_error *err)
{
	cl_int rc = clSetKernelArg(kernel_of(l), i, size, value);
	char name[256] = "";

	if (rc == CL_SUCCESS)
		return 0;
	clGetKernelInfo(kernel_of(l), CL_KERNEL_FUNCTION_NAME, sizeof(name) - 1, name, NULL);
	wl_error_set(err, WL_ERR_BUILD, "kernel %s does not take argument %u as declared (clSetKernelArg: error %d)",
		     name, i, (int)rc);
	return -1;
}

static int arg_buffer(struct wl_launch *l, unsigned i, const struct wl_buf *b, struct wl_error *err)
{
	cl_mem mem = mem_of(b);

	return arg_set(l, i, sizeof(mem), &mem, err);
}

/* int and uint arguments alike: the same four bytes. */
static int arg_word(struct wl_launch *l, unsigned i, uint32_t word, struct wl_error *err)
{
	return arg_set(l, i, sizeof(word), &word, err);
}

static int arg_u64(struct wl_launch *l, unsigned i, uint64_t value, struct wl_error *err)
{
	cl_ulong v = value;

	return arg_set(l, i, sizeof(v), &v, err);
}

static int arg_local(struct wl_launch *l, unsigned i, size_t bytes, struct wl_error *err)
{
	return arg_set(l, i, bytes, NULL, err);
}

static int arg_value(struct wl_launch *l, unsigned i, const void *value, size_t bytes, struct wl_error *err)
{
	return arg_set(l, i, bytes, value, err);
}

static int run_once(struct wl_device *dev, const struct wl_launch *l, struct wl_error *err)
{
	cl_int code = clEnqueueNDRangeKernel(wl_cl_of(dev)->queue, kernel_of(l), l->dims, NULL, l->global,
					     l->local[0] ? l->local : NULL, 0, NULL, NULL);

	if (code == CL_SUCCESS)
		code = clFinish(wl_cl_of(dev)->queue);
	if (code != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clEnqueueNDRangeKernel: %s", wl_cl_error_name(code));
		return -1;
	}
	return 0;
}

static int time_launches(const struct wl_kernel_site *site, const struct wl_launch *l, long long warmup, long long repeat,
			 const struct wl_flush *flush, double *samples_ms, int *refused, struct wl_error *err)
{
	cl_int code = CL_SUCCESS;
	int rc;

	if (test_lost(err))
		return -1;
	if (test_loss.after && site->like_kernel && ++test_loss.launches == test_loss.after) {
		test_loss.lost = 1;
		test_lost(err);
		return -1;
	}
	rc = wl_time_launches(wl_cl_of(site->dev)->queue, l, warmup, repeat, flush, samples_ms, &code, err);
	*refused = rc < 0 && code == CL_INVALID_WORK_GROUP_SIZE;
	return rc;
}

static void launch_release(struct wl_launch *l)
{
	if (l->handle)
		clReleaseKernel(kernel_of(l));
}

/* One of the kernel's clGetKernelWorkGroupInfo figures into json as name,
 * when the driver gives it. */
static void kernel_figure(json_t *json, const char *name, cl_kernel k, cl_device_id dev,
			  cl_kernel_work_group_info what, int is_size_t)
{
	size_t size = 0;
	cl_ulong ulong = 0;
	cl_int rc = is_size_t ? clGetKernelWorkGroupInfo(k, dev, what, sizeof(size), &size, NULL)
			      : clGetKernelWorkGroupInfo(k, dev, what, sizeof(ulong), &ulong, NULL);

	if (rc == CL_SUCCESS)
		json_object_set_new(json, name, json_integer(is_size_t ? (json_int_t)size : (json_int_t)ulong));
}

static json_t *account(const struct wl_kernel_site *site, const char *options, const struct wl_launch *l,
		       const char **log, const char **ptx, size_t *ptx_dropped)
{
	struct wl_program_texts texts;
	cl_kernel k = kernel_of(l);
	char name[256] = "";
	json_t *json;

	memset(&texts, 0, sizeof(texts));
	if (wl_program_account(site->programs, site->dev, site->source, options, &texts) < 0 || !(json = json_object()))
		return NULL;
	*log = texts.log;
	*ptx = texts.ptx;
	*ptx_dropped = texts.ptx_dropped;
	clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name) - 1, name, NULL);
	json_object_set_new(json, "kernel", json_string(name));
	kernel_figure(json, "local_bytes", k, wl_cl_of(site->dev)->device, CL_KERNEL_LOCAL_MEM_SIZE, 0);
	kernel_figure(json, "private_bytes", k, wl_cl_of(site->dev)->device, CL_KERNEL_PRIVATE_MEM_SIZE, 0);
	kernel_figure(json, "max_work_group", k, wl_cl_of(site->dev)->device, CL_KERNEL_WORK_GROUP_SIZE, 1);
	kernel_figure(json, "preferred_multiple", k, wl_cl_of(site->dev)->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, 1);
	return json;
}

static char *compiler(const struct wl_device *dev)
{
	const char *driver = json_string_value(json_object_get(dev->info, "driver"));

	return strdup(driver ? driver : "");
}

static const char *build_log(const struct wl_program_cache *programs, const struct wl_error *why)
{
	(void)why;
	return wl_program_cache_build_log(programs);
}

const struct wl_backend wl_backend_opencl = {
	.language = WL_LANG_OPENCL,
	.name = "OpenCL",
	.traced = 1,
	.driver_block = 1,
	.refused_name = "CL_INVALID_WORK_GROUP_SIZE",
	.find = wl_cl_find,
	.detach = wl_cl_detach,
	.family_source = family_source,
	.open = open_device,
	.reset = reset,
	.buffer = buffer,
	.fill = fill,
	.read = read_back,
	.write = write_over,
	.buffer_release = buffer_release,
	.staging = wl_cl_device_staging,
	.staging_now = staging_now,
	.kernel = kernel,
	.arg_buffer = arg_buffer,
	.arg_word = arg_word,
	.arg_u64 = arg_u64,
	.arg_local = arg_local,
	.arg_value = arg_value,
	.run_once = run_once,
	.time = time_launches,
	.launch_release = launch_release,
	.account = account,
	.compiler = compiler,
	.build_log = build_log,
};
