/* CUDA kernels compiled at run time with NVRTC: the library is
 * opened with dlopen, never linked, so that warplab builds and runs where no
 * CUDA toolkit is installed; a machine without it runs no CUDA and says so
 * once. A kernel is compiled to PTX for a compute capability (the device's,
 * so that the driver's JIT makes its code), with -D options as OpenCL
 * programs get them and no include path: a CUDA source may include nothing
 * (custom kernels are checked for it before, catalog/custom_kernels.h). */
#ifndef WL_NVRTC_H
#define WL_NVRTC_H

#include <stddef.h>

#include "error.h"

/* The library names tried, in order, where none is given. */
#define WL_NVRTC_LIBS "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so"

struct wl_nvrtc {
	void *handle;
	int major, minor;		/* NVRTC's version */
	int (*create)(void **, const char *, const char *, int, const char *const *, const char *const *);
	int (*compile)(void *, int, const char *const *);
	int (*log_size)(void *, size_t *);
	int (*log)(void *, char *);
	int (*ptx_size)(void *, size_t *);
	int (*ptx)(void *, char *);
	int (*cubin_size)(void *, size_t *);
	int (*cubin)(void *, char *);
	int (*destroy)(void **);
	const char *(*error_string)(int);
};

/* Open NVRTC from lib (NULL: the WL_NVRTC_LIBS in turn) into *out. 0 on
 * success; -1 with why ("no NVRTC (libnvrtc.so: ...)") and *out zeroed,
 * which is no error: the machine then has no CUDA. The library stays loaded
 * for the process. */
int wl_nvrtc_open(const char *lib, struct wl_nvrtc *out, char *why, size_t why_len);

/* Compile src (named name in messages) for compute capability arch (e.g.
 * 90 for 9.0) with options[0..noptions) (each one NVRTC option, "-DX=1"):
 * to PTX text (cubin 0, "compute_90") or to the device's own code (cubin
 * 1, "sm_90", with ptxas's report of registers in the log). Returns 0 with
 * *out (*out_len bytes; PTX also NUL-terminated) and *log the compiler's
 * output, both the caller's to free; -1 with err (WL_ERR_BUILD with the
 * log's first lines where the source does not compile) and nothing to
 * free. */
int wl_nvrtc_compile(const struct wl_nvrtc *nv, const char *src, const char *name, int arch, int cubin,
		     const char *const *options, int noptions, char **out, size_t *out_len, char **log,
		     struct wl_error *err);

/* wl_nvrtc_compile to the device's own code, and the PTX of that one
 * compile (identical to a compile for the compute capability's virtual
 * architecture) into *ptx, the caller's, or NULL where NVRTC gives none:
 * one compile rather than two. */
int wl_nvrtc_compile_cubin(const struct wl_nvrtc *nv, const char *src, const char *name, int arch,
			   const char *const *options, int noptions, char **cubin, size_t *len, char **ptx, char **log,
			   struct wl_error *err);

#endif
