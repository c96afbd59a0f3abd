/* Inside the CUDA side (cuda_point.h, cuda_launch.c): the driver API's
 * entry points by name through dlopen, with the few numbers of cuda.h they
 * need written here (stable across CUDA 12 and 13), and the structures the
 * two files share. Nothing outside them includes this. */
#ifndef WL_CUDA_API_H
#define WL_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "cuda_nvrtc.h"

struct wl_counters;

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;
typedef unsigned long long CUdeviceptr;

#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8
#define CU_STREAM_NON_BLOCKING 1
#define CU_EVENT_DEFAULT 0
#define SHARED_DEFAULT_MAX 49152	/* above this a kernel must opt in */
#define CALL_PARAMS_MAX 32

/* The driver's entry points warplab uses. */
struct wl_cu {
	void *lib;
	CUresult (*init)(unsigned);
	CUresult (*device_get)(CUdevice *, int);
	CUresult (*attribute)(int *, int, CUdevice);
	CUresult (*primary_retain)(CUcontext *, CUdevice);
	CUresult (*primary_release)(CUdevice);
	CUresult (*primary_reset)(CUdevice);
	CUresult (*param_info)(CUfunction, size_t, size_t *, size_t *);	/* CUDA 12.4+, or NULL */
	CUresult (*ctx_set)(CUcontext);
	CUresult (*stream_create)(CUstream *, unsigned);
	CUresult (*stream_destroy)(CUstream);
	CUresult (*stream_sync)(CUstream);
	CUresult (*mem_alloc)(CUdeviceptr *, size_t);
	CUresult (*mem_free)(CUdeviceptr);
	CUresult (*host_alloc)(void **, size_t);
	CUresult (*host_free)(void *);
	CUresult (*htod)(CUdeviceptr, const void *, size_t);
	CUresult (*dtoh)(void *, CUdeviceptr, size_t);
	CUresult (*memset32)(CUdeviceptr, unsigned, size_t, CUstream);
	CUresult (*module_load)(CUmodule *, const void *, unsigned int, int *, void **);	/* cuModuleLoadDataEx */
	CUresult (*module_unload)(CUmodule);
	CUresult (*module_function)(CUfunction *, CUmodule, const char *);
	CUresult (*func_set)(CUfunction, int, int);
	CUresult (*func_get)(int *, int, CUfunction);
	CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
			   CUstream, void **, void **);
	CUresult (*event_create)(CUevent *, unsigned);
	CUresult (*event_destroy)(CUevent);
	CUresult (*event_record)(CUevent, CUstream);
	CUresult (*event_sync)(CUevent);
	CUresult (*event_elapsed)(float *, CUevent, CUevent);
	CUresult (*error_name)(CUresult, const char **);
};

/* The table, filled by wl_cu_load. */
extern struct wl_cu cu;

/* A module built from one source with one set of options. */
struct module {
	char hash[17];
	char *options;
	char *log, *ptx;		/* ptxas's report, the PTX (or NULL): the compiler's account */
	CUmodule module;
	struct module *next;
};

struct wl_cuda_device {
	CUdevice device;
	int ordinal;
	struct wl_counters *counters;	/* opened at the first profile */
	struct wl_cuda_counts *counts;	/* launches waiting for it (cuda_counts.h), or NULL */
	/* Pinned host memory outputs are read into, the context's own (a
	 * read into memory the OpenCL driver pinned went at a third of the
	 * speed on an H100); two slots, as the OpenCL side's. */
	struct { void *ptr; size_t size; } staging[2];
	char counters_why[300];		/* why there are none, once tried */
	CUcontext context;
	CUstream stream;
	int arch;
	const struct wl_nvrtc *nv;
	struct module *modules;
};

struct wl_cuda_call {
	struct wl_cuda_device *cd;
	const struct module *module;
	char name[128];
	CUfunction function;
	int nparams;
	unsigned long long words[CALL_PARAMS_MAX];	/* each parameter's bytes */
	void *params[CALL_PARAMS_MAX];
	size_t shared;
	unsigned long long buffers[CALL_PARAMS_MAX];	/* the buffers among them */
	int nbuffers;
};

/* One launch of c with params (its own, or a copy's pointing into a copy
 * of its words) over dims dimensions of global work-items in blocks of
 * local, on stream; the driver's result. */
CUresult wl_cuda_launch_call(const struct wl_cuda_call *c, void **params, unsigned dims, const size_t *global,
			     const size_t *local, CUstream stream);

/* Whether cd's counters can be read: CUPTI opened on its context at the
 * first call (why not, said once in the log, is then cd->counters_why). */
int wl_cuda_counters_ready(struct wl_cuda_device *cd);

/* The driver's table opened (once); -1 with err where it cannot be. */
int wl_cu_load(struct wl_error *err);

/* A result's name ("CUDA_ERROR_ILLEGAL_ADDRESS"). */
const char *wl_cu_error_name(CUresult rc);

/* 0 where rc is 0; else -1 with err saying what failed: WL_ERR_DEVICE_LOST
 * where rc is an error CUDA keeps for the context (700 to 719: an illegal
 * address, a trap, a failed launch), named; WL_ERR_INTERNAL otherwise. */
int wl_cu_failed(CUresult rc, const char *what, struct wl_error *err);

#endif
