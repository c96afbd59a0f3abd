/* A CUDA kernel measured in Oclgrind (see cuda_traced_backend.h): the
 * launch holds a call as the CUDA backend's does — the source, options and
 * name, the arguments in order and the dynamic shared memory — and becomes
 * an OpenCL kernel of Oclgrind's when it first runs. */
#include "cuda_traced_backend.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_oclgrind.h"

#define CALL_ARGS 32

/* An argument as the kernel will take it. */
struct call_arg {
	size_t size;
	unsigned char value[8];
};

struct traced_call {
	struct wl_device *dev;
	const struct wl_source *source;
	const char *like_kernel;	/* a custom kernel's, for its message */
	char *options, *name;
	struct call_arg args[CALL_ARGS];
	unsigned nargs;
	size_t shared;			/* dynamic shared memory, bytes */
	cl_kernel kernel;		/* made at the first launch */
};

/* Programs built in this process, by source, options and shared memory:
 * a family's variants share one. */
struct built {
	char hash[17];
	char *options;
	size_t shared;
	cl_program program;
};
static struct {
	const char *kernels_dir;
	struct built *list;
	size_t n;
	struct wl_backend backend;
} traced;

static struct traced_call *call_of(const struct wl_launch *l)
{
	return (struct traced_call *)l->handle;
}

static int program_for(struct traced_call *c, cl_program *out, struct wl_error *err)
{
	struct built *grown;

	for (size_t i = 0; i < traced.n; i++)
		if (strcmp(traced.list[i].hash, c->source->hash) == 0 && traced.list[i].shared == c->shared &&
		    strcmp(traced.list[i].options, c->options) == 0) {
			*out = traced.list[i].program;
			return 0;
		}
	grown = realloc(traced.list, (traced.n + 1) * sizeof(*grown));
	if (!grown) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	traced.list = grown;
	if (wl_cuda_oclgrind_program(c->dev, traced.kernels_dir, c->source, c->options, c->shared, out, err) < 0)
		return -1;
	grown[traced.n] = (struct built){ .options = strdup(c->options), .shared = c->shared, .program = *out };
	memcpy(grown[traced.n].hash, c->source->hash, sizeof(grown[traced.n].hash));
	if (!grown[traced.n].options) {
		clReleaseProgram(*out);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	traced.n++;
	return 0;
}

size_t wl_cuda_traced_programs(cl_program *out, size_t cap)
{
	size_t n = 0;

	for (; n < traced.n && n < cap; n++)
		out[n] = traced.list[n].program;
	return n;
}

void wl_cuda_traced_release(void)
{
	for (size_t i = 0; i < traced.n; i++) {
		clReleaseProgram(traced.list[i].program);
		free(traced.list[i].options);
	}
	free(traced.list);
	traced.list = NULL;
	traced.n = 0;
}

/* The call's kernel made and its arguments set, at its first launch. */
static int materialize(struct traced_call *c, struct wl_error *err)
{
	cl_program program;
	cl_uint params = 0;
	cl_int rc;

	if (c->kernel)
		return 0;
	if (program_for(c, &program, err) < 0)
		return -1;
	c->kernel = clCreateKernel(program, c->name, &rc);
	if (!c->kernel) {
		wl_error_set(err, rc == CL_INVALID_KERNEL_NAME ? WL_ERR_CONFIG : WL_ERR_INTERNAL,
			     "the CUDA source has no kernel %s (declared extern \"C\" __global__?)", c->name);
		return -1;
	}
	clGetKernelInfo(c->kernel, CL_KERNEL_NUM_ARGS, sizeof(params), &params, NULL);
	if (params != c->nargs) {
		wl_error_set(err, WL_ERR_CONFIG, "%s takes %u parameters, but the harness calls it%s%s with %u",
			     c->name, params, c->like_kernel ? " like " : "", c->like_kernel ? c->like_kernel : "",
			     c->nargs);
		return -1;
	}
	for (unsigned i = 0; i < c->nargs; i++) {
		rc = clSetKernelArg(c->kernel, i, c->args[i].size, c->args[i].value);
		if (rc != CL_SUCCESS) {
			wl_error_set(err, WL_ERR_BUILD, "kernel %s does not take argument %u as declared (%s)", c->name,
				     i, wl_cl_error_name(rc));
			return -1;
		}
	}
	return 0;
}

static int kernel(const struct wl_kernel_site *site, const char *options, const char *name, struct wl_launch *l,
		  struct wl_error *err)
{
	struct traced_call *c = calloc(1, sizeof(*c));

	if (c) {
		c->options = strdup(options ? options : "");
		c->name = strdup(name);
	}
	if (!c || !c->options || !c->name) {
		if (c) {
			free(c->options);
			free(c->name);
		}
		free(c);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	c->dev = site->dev;
	c->source = site->source;
	c->like_kernel = site->like_kernel;
	l->backend = &traced.backend;
	l->handle = c;
	return 0;
}

static int arg_add(struct wl_launch *l, const void *value, size_t size, struct wl_error *err)
{
	struct traced_call *c = call_of(l);

	if (c->kernel || c->nargs == CALL_ARGS || size > sizeof(c->args[0].value)) {
		wl_error_set(err, WL_ERR_INTERNAL, "kernel %s: arguments past what a traced call holds", c->name);
		return -1;
	}
	c->args[c->nargs].size = size;
	memcpy(c->args[c->nargs].value, value, size);
	c->nargs++;
	return 0;
}

static int arg_buffer(struct wl_launch *l, unsigned i, const struct wl_buf *b, struct wl_error *err)
{
	cl_mem mem = (cl_mem)(uintptr_t)b->handle;

	(void)i;	/* the next parameter: they come in order */
	return arg_add(l, &mem, sizeof(mem), err);
}

static int arg_word(struct wl_launch *l, unsigned i, uint32_t word, struct wl_error *err)
{
	(void)i;
	return arg_add(l, &word, sizeof(word), err);
}

static int arg_u64(struct wl_launch *l, unsigned i, uint64_t value, struct wl_error *err)
{
	(void)i;
	return arg_add(l, &value, sizeof(value), err);
}

/* No parameter in CUDA: the kernel's extern __shared__ arrays. */
static int arg_local(struct wl_launch *l, unsigned i, size_t bytes, struct wl_error *err)
{
	(void)i;
	(void)err;
	call_of(l)->shared = bytes;
	return 0;
}

static int arg_value(struct wl_launch *l, unsigned i, const void *value, size_t bytes, struct wl_error *err)
{
	(void)i;
	return arg_add(l, value, bytes, err);
}

/* l as OpenCL's backend launches it. */
static struct wl_launch as_opencl(const struct wl_launch *l)
{
	struct wl_launch o = *l;

	o.backend = &wl_backend_opencl;
	o.handle = call_of(l)->kernel;
	return o;
}

static int run_once(struct wl_device *dev, const struct wl_launch *l, struct wl_error *err)
{
	struct wl_launch o;

	if (materialize(call_of(l), err) < 0)
		return -1;
	o = as_opencl(l);
	return wl_backend_opencl.run_once(dev, &o, err);
}

static int time_launches(const struct wl_kernel_site *site, const struct wl_launch *l, long long warmup,
			 long long repeat, const struct wl_flush *flush, double *samples_ms, int *refused,
			 struct wl_error *err)
{
	struct wl_launch o;

	*refused = 0;
	if (materialize(call_of(l), err) < 0)
		return -1;
	o = as_opencl(l);
	return wl_backend_opencl.time(site, &o, warmup, repeat, flush, samples_ms, refused, err);
}

static void launch_release(struct wl_launch *l)
{
	struct traced_call *c = call_of(l);

	if (!c)
		return;
	if (c->kernel)
		clReleaseKernel(c->kernel);
	free(c->options);
	free(c->name);
	free(c);
}

const struct wl_backend *wl_cuda_traced_backend(const char *kernels_dir)
{
	const struct wl_backend *cuda = wl_backend_for(WL_LANG_CUDA);

	traced.kernels_dir = kernels_dir;
	traced.backend = wl_backend_opencl;
	traced.backend.name = "CUDA in Oclgrind";
	/* CUDA's language: its .cu twins, the runner's own kernels (random
	 * fills) in OpenCL C made CUDA, its errors with their words. */
	traced.backend.language = cuda->language;
	traced.backend.family_source = cuda->family_source;
	traced.backend.opencl_prelude = cuda->opencl_prelude;
	traced.backend.build_log = cuda->build_log;
	/* CUDA's call over Oclgrind's OpenCL. */
	traced.backend.kernel = kernel;
	traced.backend.arg_buffer = arg_buffer;
	traced.backend.arg_word = arg_word;
	traced.backend.arg_u64 = arg_u64;
	traced.backend.arg_local = arg_local;
	traced.backend.arg_value = arg_value;
	traced.backend.bound = NULL;
	traced.backend.run_once = run_once;
	traced.backend.time = time_launches;
	traced.backend.launch_release = launch_release;
	traced.backend.count = NULL;
	traced.backend.deferred = NULL;
	traced.backend.account = NULL;
	return &traced.backend;
}
