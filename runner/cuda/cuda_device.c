/* The CUDA side of a device (see cuda_device.h): its context and stream,
 * buffers, the modules NVRTC builds and the calls made of them. Launches and
 * their timing are cuda_launch.c's. */
#include "cuda_device.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_account.h"
#include "cuda_compile.h"
#include "cuda_api.h"
#include "cuda_counts.h"
#include "cupti_counters.h"
#include "log.h"

/* The open device of the worker (a worker serves one device), for releasing
 * buffers that do not say whose they are. */
static struct wl_cuda_device *current;

int wl_cuda_attach(struct wl_device *dev, int ordinal, const struct wl_nvrtc *nv, struct wl_error *err)
{
	struct wl_cuda_side *side = wl_cuda_of(dev);

	if (!side && !(side = calloc(1, sizeof(*side)))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	side->ordinal = ordinal;
	side->nv = nv;
	dev->api[WL_LANG_CUDA] = side;
	return 0;
}

void wl_cuda_detach(struct wl_device *dev)
{
	struct wl_cuda_side *side = wl_cuda_of(dev);

	if (!side)
		return;
	wl_cuda_device_close(side->cd);
	free(side);
	dev->api[WL_LANG_CUDA] = NULL;
}

struct wl_cuda_device *wl_cuda_device_open(int ordinal, const struct wl_nvrtc *nv, struct wl_error *err)
{
	struct wl_cuda_device *cd;

	if (current)
		return current;
	if (!nv || !nv->handle) {
		wl_error_set(err, WL_ERR_INTERNAL, "no NVRTC to build CUDA kernels with");
		return NULL;
	}
	if (wl_cu_load(err) < 0 || !(cd = calloc(1, sizeof(*cd)))) {
		if (err && !err->msg[0])
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	cd->nv = nv;
	cd->ordinal = ordinal;
	if (wl_cu_failed(cu.device_get(&cd->device, ordinal), "cuDeviceGet", err) < 0 ||
	    (cd->arch = wl_cuda_arch(ordinal)) < 0 ||
	    wl_cu_failed(cu.primary_retain(&cd->context, cd->device), "cuDevicePrimaryCtxRetain", err) < 0) {
		if (cd->arch < 0)
			wl_error_set(err, WL_ERR_INTERNAL, "cuDeviceGetAttribute: CUDA device %d's compute capability", ordinal);
		free(cd);
		return NULL;
	}
	if (wl_cu_failed(cu.ctx_set(cd->context), "cuCtxSetCurrent", err) < 0 ||
	    wl_cu_failed(cu.stream_create(&cd->stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate", err) < 0) {
		cu.primary_release(cd->device);
		free(cd);
		return NULL;
	}
	current = cd;
	return cd;
}

void wl_cuda_device_close(struct wl_cuda_device *cd)
{
	if (!cd)
		return;
	cu.ctx_set(cd->context);
	wl_cuda_counts_drop(cd, "not profiled: the device was closed", 0, 0);
	wl_cuda_counts_free(cd->counts);
	wl_counters_close(cd->counters);
	for (int s = 0; s < 2; s++)
		if (cd->staging[s].ptr)
			cu.host_free(cd->staging[s].ptr);
	for (struct module *m = cd->modules, *next; m; m = next) {
		next = m->next;
		cu.module_unload(m->module);
		free(m->options);
		free(m->log);
		free(m->ptx);
		free(m);
	}
	cu.stream_destroy(cd->stream);
	cu.primary_release(cd->device);
	if (current == cd)
		current = NULL;
	free(cd);
}

int wl_cuda_device_reset(struct wl_cuda_device *cd, struct wl_error *err)
{
	cu.ctx_set(cd->context);
	/* The waiting launches' calls and buffers go with the context. */
	wl_cuda_counts_drop(cd, "not profiled: the device's context was reset", 1, 0);
	memset(cd->staging, 0, sizeof(cd->staging));
	wl_counters_close(cd->counters);
	cd->counters = NULL;
	cd->counters_why[0] = '\0';
	for (struct module *m = cd->modules, *next; m; m = next) {
		next = m->next;
		free(m->options);
		free(m->log);
		free(m->ptx);
		free(m);
	}
	cd->modules = NULL;
	cu.stream_destroy(cd->stream);
	cu.primary_release(cd->device);
	/* Whatever the kernel broke goes with the context's state. */
	if (wl_cu_failed(cu.primary_reset(cd->device), "cuDevicePrimaryCtxReset", err) < 0 ||
	    wl_cu_failed(cu.primary_retain(&cd->context, cd->device), "cuDevicePrimaryCtxRetain", err) < 0 ||
	    wl_cu_failed(cu.ctx_set(cd->context), "cuCtxSetCurrent", err) < 0)
		return -1;
	return wl_cu_failed(cu.stream_create(&cd->stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate", err);
}

int wl_cuda_call_params(const struct wl_cuda_call *c)
{
	size_t offset, size, n = 0;

	if (!cu.param_info)
		return -1;
	while (n < 256 && cu.param_info(c->function, n, &offset, &size) == 0)
		n++;
	return (int)n;
}

int wl_cuda_call_given(const struct wl_cuda_call *c)
{
	return c->nparams;
}

int wl_cuda_device_arch(const struct wl_cuda_device *cd)
{
	return cd->arch;
}

int wl_cuda_buffer(struct wl_cuda_device *cd, size_t bytes, const void *init, struct wl_buf *out,
		   struct wl_error *err)
{
	CUdeviceptr p = 0;

	CUresult rc;

	memset(out, 0, sizeof(*out));
	cu.ctx_set(cd->context);
	rc = cu.mem_alloc(&p, bytes ? bytes : 4);
	if (rc == CUDA_ERROR_OUT_OF_MEMORY && wl_cuda_counts_held(cd)) {
		/* The launches waiting for their counters are profiled now,
		 * and the buffers kept for them given back: the point needs
		 * the memory (their counters are written at the run's next
		 * point). */
		wl_cuda_counts_profile(cd, (size_t)-1);
		rc = cu.mem_alloc(&p, bytes ? bytes : 4);
	}
	if (wl_cu_failed(rc, "cuMemAlloc", err) < 0)
		return -1;
	if (init && wl_cu_failed(cu.htod(p, init, bytes), "cuMemcpyHtoD", err) < 0) {
		cu.mem_free(p);
		return -1;
	}
	out->handle = p;
	out->bytes = bytes;
	return 0;
}

int wl_cuda_fill(struct wl_cuda_device *cd, const struct wl_buf *b, uint32_t pattern, size_t bytes,
		 struct wl_error *err)
{
	cu.ctx_set(cd->context);
	if (wl_cu_failed(cu.memset32(b->handle, pattern, bytes / 4, cd->stream), "cuMemsetD32Async", err) < 0)
		return -1;
	return wl_cu_failed(cu.stream_sync(cd->stream), "cuStreamSynchronize", err);
}

int wl_cuda_read(struct wl_cuda_device *cd, const struct wl_buf *b, size_t bytes, void *out,
		 struct wl_error *err)
{
	cu.ctx_set(cd->context);
	if (wl_cu_failed(cu.stream_sync(cd->stream), "cuStreamSynchronize", err) < 0)
		return -1;
	return wl_cu_failed(cu.dtoh(out, b->handle, bytes), "cuMemcpyDtoH", err);
}

int wl_cuda_write(struct wl_cuda_device *cd, const struct wl_buf *b, size_t bytes, const void *host,
		  struct wl_error *err)
{
	cu.ctx_set(cd->context);
	if (wl_cu_failed(cu.stream_sync(cd->stream), "cuStreamSynchronize", err) < 0)
		return -1;
	return wl_cu_failed(cu.htod(b->handle, host, bytes), "cuMemcpyHtoD", err);
}

int wl_cuda_staging(struct wl_cuda_device *cd, unsigned slot, size_t bytes, void **ptr, struct wl_error *err)
{
	size_t size;

	slot &= 1;
	if (bytes <= cd->staging[slot].size) {
		*ptr = cd->staging[slot].ptr;
		return 0;
	}
	cu.ctx_set(cd->context);
	size = wl_staging_size(bytes, cd->staging[slot].size);
	if (cd->staging[slot].ptr)
		cu.host_free(cd->staging[slot].ptr);
	cd->staging[slot].ptr = NULL;
	cd->staging[slot].size = 0;
	if (wl_cu_failed(cu.host_alloc(&cd->staging[slot].ptr, size), "cuMemAllocHost", err) < 0) {
		cd->staging[slot].ptr = NULL;
		return -1;
	}
	cd->staging[slot].size = size;
	*ptr = cd->staging[slot].ptr;
	return 0;
}

void *wl_cuda_staging_now(const struct wl_cuda_device *cd, unsigned slot, size_t *size)
{
	*size = cd->staging[slot & 1].size;
	return cd->staging[slot & 1].ptr;
}

void wl_cuda_buffer_release(struct wl_buf *b)
{
	if (b->handle && cu.lib && current && !wl_cuda_counts_keep(current, b->handle, b->bytes)) {
		cu.ctx_set(current->context);
		cu.mem_free(b->handle);
	}
	b->handle = 0;
	b->backend = NULL;
}

/* CUDA's CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN. */
#define ATTRIBUTE_MAX_SHARED_PER_BLOCK 97

/* A build that failed (err) where ptxas's figures show a kernel asking for
 * more shared memory than a block of cd may have, which NVRTC fails without
 * saying: the message says so first, then what NVRTC said. */
static void say_what_does_not_fit(const struct wl_cuda_device *cd, struct wl_error *err)
{
	json_t *figures = wl_ptxas_figures(err->msg), *k;
	const char *name;
	int limit = 0;

	if (figures && cu.attribute(&limit, ATTRIBUTE_MAX_SHARED_PER_BLOCK, cd->device) == 0 && limit > 0)
		json_object_foreach(figures, name, k) {
			long long shared = json_integer_value(json_object_get(k, "shared_bytes"));
			char said[sizeof(err->msg)];

			if (shared <= limit)
				continue;
			snprintf(said, sizeof(said), "%s", err->msg);
			wl_error_set(err, WL_ERR_BUILD,
				     "%s asks for %lld bytes of __shared__ memory, and a block on this device may have %d; %s",
				     name, shared, limit, said);
			break;
		}
	json_decref(figures);
}

int wl_cuda_arch(int ordinal)
{
	CUdevice device;
	int major = 0, minor = 0;

	if (wl_cu_load(NULL) < 0 || cu.device_get(&device, ordinal) != 0 ||
	    cu.attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) != 0 ||
	    cu.attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) != 0)
		return -1;
	return major * 10 + minor;
}

/* CUDA's options for the JIT's error log (cuda.h's CUjit_option). */
#define JIT_ERROR_LOG_BUFFER 5
#define JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6

/* Load the device code bin into *module; where the driver refuses it (a
 * kernel that does not fit the device, say), WL_ERR_BUILD with the driver's
 * own error log, as a build failure says the compiler's. */
static int load_module(CUmodule *module, const void *bin, struct wl_error *err)
{
	char log[2048] = "";
	int options[] = { JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *values[] = { log, (void *)(uintptr_t)sizeof(log) };
	CUresult rc = cu.module_load(module, bin, 2, options, values);

	if (rc == 0)
		return 0;
	/* A lost context ends the process here, as everywhere. */
	wl_cu_failed(rc, "cuModuleLoadDataEx", err);
	log[sizeof(log) - 1] = '\0';
	wl_error_set(err, WL_ERR_BUILD, "the CUDA driver did not load it (%s): %.900s", wl_cu_error_name(rc),
		     log[0] ? log : "its JIT log is empty");
	return -1;
}

int wl_cuda_device_has_module(const struct wl_cuda_device *cd, const struct wl_source *src, const char *options)
{
	for (const struct module *m = cd ? cd->modules : NULL; m; m = m->next)
		if (strcmp(m->hash, src->hash) == 0 && strcmp(m->options, options ? options : "") == 0)
			return 1;
	return 0;
}

/* The module of src with options: loaded already, compiled ahead, or built
 * now. */
static int module_for(struct wl_cuda_device *cd, const struct wl_source *src, const char *options,
		      struct module **out, struct wl_error *err)
{
	struct wl_cuda_compiled *made;
	struct module *m;
	int loaded;

	options = options ? options : "";
	for (m = cd->modules; m; m = m->next)
		if (strcmp(m->hash, src->hash) == 0 && strcmp(m->options, options) == 0) {
			*out = m;
			return 0;
		}
	made = wl_cuda_compiled_take(src, options);
	if (!made && wl_cuda_compile(cd->nv, cd->arch, src, options, &made, err) < 0) {
		if (err && err->kind == WL_ERR_BUILD)
			say_what_does_not_fit(cd, err);
		return -1;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		wl_cuda_compiled_free(made);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (made->loaded)
		wl_log_info("CUDA module %s (options '%s') loaded from disk", src->hash, options);
	cu.ctx_set(cd->context);
	loaded = load_module(&m->module, made->bin, err);
	/* The module's account is the compiler's words; the code is loaded. */
	m->options = made->options;
	m->log = made->log;
	m->ptx = made->ptx;
	made->options = made->log = made->ptx = NULL;
	wl_cuda_compiled_free(made);
	if (loaded < 0) {
		free(m->options);
		free(m->log);
		free(m->ptx);
		free(m);
		return -1;
	}
	memcpy(m->hash, src->hash, sizeof(m->hash));
	m->next = cd->modules;
	cd->modules = m;
	*out = m;
	return 0;
}

int wl_cuda_call_new(struct wl_cuda_device *cd, const struct wl_source *src, const char *options,
		     const char *name, struct wl_cuda_call **out, struct wl_error *err)
{
	struct wl_cuda_call *c;
	struct module *module;
	CUresult rc;

	*out = NULL;
	if (module_for(cd, src, options, &module, err) < 0)
		return -1;
	c = calloc(1, sizeof(*c));
	if (!c) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	c->cd = cd;
	c->module = module;
	snprintf(c->name, sizeof(c->name), "%s", name);
	if ((rc = cu.module_function(&c->function, module->module, name)) != 0) {
		wl_error_set(err, WL_ERR_CONFIG, "no CUDA kernel %s (extern \"C\" __global__) in the source: %s", name,
			     wl_cu_error_name(rc));
		free(c);
		return -1;
	}
	*out = c;
	return 0;
}

static int next_param(struct wl_cuda_call *c, const void *value, size_t bytes, struct wl_error *err)
{
	if (c->nparams == CALL_PARAMS_MAX) {
		wl_error_set(err, WL_ERR_CONFIG, "more than %d kernel parameters", CALL_PARAMS_MAX);
		return -1;
	}
	memcpy(&c->words[c->nparams], value, bytes);
	c->params[c->nparams] = &c->words[c->nparams];
	c->nparams++;
	return 0;
}

int wl_cuda_call_buffer(struct wl_cuda_call *c, const struct wl_buf *b, struct wl_error *err)
{
	CUdeviceptr p = b->handle;

	if (next_param(c, &p, sizeof(p), err) < 0)
		return -1;
	c->buffers[c->nbuffers++] = p;
	return 0;
}

int wl_cuda_call_word(struct wl_cuda_call *c, uint32_t word, struct wl_error *err)
{
	return next_param(c, &word, sizeof(word), err);
}

int wl_cuda_call_shared(struct wl_cuda_call *c, size_t bytes, struct wl_error *err)
{
	c->shared += bytes;
	if (c->shared > SHARED_DEFAULT_MAX &&
	    wl_cu_failed(cu.func_set(c->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)c->shared),
		   "cuFuncSetAttribute (dynamic shared memory)", err) < 0)
		return -1;
	return 0;
}

int wl_cuda_call_u64(struct wl_cuda_call *c, uint64_t value, struct wl_error *err)
{
	return next_param(c, &value, sizeof(value), err);
}

int wl_cuda_call_value(struct wl_cuda_call *c, const void *value, size_t bytes, struct wl_error *err)
{
	if (bytes == 0 || bytes > sizeof(c->words[0])) {
		wl_error_set(err, WL_ERR_CONFIG, "a kernel parameter of %zu bytes: 1 to %zu are passed by value", bytes,
			     sizeof(c->words[0]));
		return -1;
	}
	return next_param(c, value, bytes, err);
}

int wl_cuda_call_run(struct wl_cuda_call *c, size_t groups, size_t items, struct wl_error *err)
{
	cu.ctx_set(c->cd->context);
	if (wl_cu_failed(cu.launch(c->function, (unsigned)groups, 1, 1, (unsigned)items, 1, 1, (unsigned)c->shared, c->cd->stream,
			     (void **)c->params, NULL), "cuLaunchKernel", err) < 0)
		return -1;
	return wl_cu_failed(cu.stream_sync(c->cd->stream), "the runner's kernel", err);
}

void wl_cuda_call_free(struct wl_cuda_call *c)
{
	free(c);
}

/* CUfunction_attribute numbers, from cuda.h. */
#define CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK 0
#define CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES 1
#define CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES 3
#define CU_FUNC_ATTRIBUTE_NUM_REGS 4

json_t *wl_cuda_call_account(const struct wl_cuda_call *c, const char **log, const char **ptx)
{
	static const struct { const char *name; int attribute; } figures[] = {
		{ "local_bytes", CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES },
		{ "private_bytes", CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES },
		{ "max_work_group", CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK },
		{ "registers", CU_FUNC_ATTRIBUTE_NUM_REGS },
	};
	json_t *o = json_pack("{s:s, s:i}", "kernel", c->name, "preferred_multiple", 32);

	*log = c->module->log ? c->module->log : "";
	*ptx = c->module->ptx;
	for (size_t i = 0; o && i < sizeof(figures) / sizeof(figures[0]); i++) {
		int value = 0;

		if (cu.func_get(&value, figures[i].attribute, c->function) == 0)
			json_object_set_new(o, figures[i].name, json_integer(value));
	}
	return o;
}
