/* The CUDA driver's table (see cuda_api.h). */
#include "cuda_api.h"

#include <dlfcn.h>
#include <stdio.h>

#include "cuda_driver.h"
#include "log.h"

struct wl_cu cu;

const char *wl_cu_error_name(CUresult rc)
{
	const char *name = NULL;

	if (cu.error_name && cu.error_name(rc, &name) == 0 && name)
		return name;
	return "CUDA_ERROR_UNKNOWN";
}

/* Errors CUDA keeps for the context (700 to 719: an illegal address, a
 * trap, a failed launch) are a lost context, said as such: the executor's
 * one policy for it (executor.c) resets the device or restarts the worker. */
int wl_cu_failed(CUresult rc, const char *what, struct wl_error *err)
{
	if (rc == 0)
		return 0;
	if (rc >= 700 && rc <= 719) {
		wl_log_error("%s: %s: the CUDA context is lost", what, wl_cu_error_name(rc));
		wl_error_set(err, WL_ERR_DEVICE_LOST, "%s: %s (the CUDA context is lost)", what, wl_cu_error_name(rc));
		return -1;
	}
	wl_error_set(err, WL_ERR_INTERNAL, "%s: %s", what, wl_cu_error_name(rc));
	return -1;
}

int wl_cu_load(struct wl_error *err)
{
	static const struct { const char *name; void **slot; } entries[] = {
		{ "cuInit", (void **)&cu.init }, { "cuDeviceGet", (void **)&cu.device_get }, { "cuDeviceGetAttribute", (void **)&cu.attribute },
		{ "cuDevicePrimaryCtxRetain", (void **)&cu.primary_retain },
		{ "cuDevicePrimaryCtxRelease_v2", (void **)&cu.primary_release },
		{ "cuDevicePrimaryCtxReset_v2", (void **)&cu.primary_reset },
		{ "cuCtxSetCurrent", (void **)&cu.ctx_set }, { "cuStreamCreate", (void **)&cu.stream_create },
		{ "cuStreamDestroy_v2", (void **)&cu.stream_destroy }, { "cuStreamSynchronize", (void **)&cu.stream_sync },
		{ "cuMemAlloc_v2", (void **)&cu.mem_alloc }, { "cuMemFree_v2", (void **)&cu.mem_free },
		{ "cuMemAllocHost_v2", (void **)&cu.host_alloc }, { "cuMemFreeHost", (void **)&cu.host_free },
		{ "cuMemcpyHtoD_v2", (void **)&cu.htod }, { "cuMemcpyDtoH_v2", (void **)&cu.dtoh },
		{ "cuMemsetD32Async", (void **)&cu.memset32 }, { "cuModuleLoadDataEx", (void **)&cu.module_load },
		{ "cuModuleUnload", (void **)&cu.module_unload }, { "cuModuleGetFunction", (void **)&cu.module_function },
		{ "cuFuncSetAttribute", (void **)&cu.func_set }, { "cuFuncGetAttribute", (void **)&cu.func_get }, { "cuLaunchKernel", (void **)&cu.launch },
		{ "cuEventCreate", (void **)&cu.event_create }, { "cuEventDestroy_v2", (void **)&cu.event_destroy },
		{ "cuEventRecord", (void **)&cu.event_record }, { "cuEventSynchronize", (void **)&cu.event_sync },
		{ "cuEventElapsedTime", (void **)&cu.event_elapsed }, { "cuGetErrorName", (void **)&cu.error_name },
	};

	if (cu.lib)
		return 0;
	cu.lib = dlopen(WL_CUDA_DRIVER_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!cu.lib) {
		wl_error_set(err, WL_ERR_INTERNAL, "no CUDA driver (%s)", dlerror());
		return -1;
	}
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (!(*entries[i].slot = dlsym(cu.lib, entries[i].name))) {
			wl_error_set(err, WL_ERR_INTERNAL, "the CUDA driver lacks %s", entries[i].name);
			cu.lib = NULL;
			return -1;
		}
	*(void **)&cu.param_info = dlsym(cu.lib, "cuFuncGetParamInfo");
	return wl_cu_failed(cu.init(0), "cuInit", err);
}
