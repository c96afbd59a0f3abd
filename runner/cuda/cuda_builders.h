/* CUDA's builders (builders.h): someone else's CUDA source compiled by NVRTC
 * in builder processes beside a run's points, where a compile at a point
 * would be one after another and a compiler's crash the worker's. Each
 * module arrives on the worker's list as its builder answers
 * (cuda_compile.h: wl_cuda_compiled_expect, wl_cuda_compiled_arrive), and a
 * point takes its own, waiting where it is still compiling. */
#ifndef WL_CUDA_BUILDERS_H
#define WL_CUDA_BUILDERS_H

#include <stddef.h>

#include "builders.h"
#include "cuda_nvrtc.h"
#include "source.h"

/* Compile src with each of options[0..n) (OpenCL-style, as
 * wl_cuda_compile takes them) for compute capability arch in procs builder
 * processes started by spawn, on a thread of their own, in the order
 * given: each said to be coming now, and arriving as its builder answers
 * (not compiled, where it did not or the work stopped: its point compiles
 * it and says why). for_ names the device in the log. Returns how many were
 * sent (0: none, and nothing is coming). */
size_t wl_cuda_builders_start(int arch, const struct wl_source *src, char (*options)[128], size_t n, int procs,
			      wl_builder_spawn spawn, const char *for_);

/* Tell the builders of the run that ended to stop: they end within a tenth
 * of a second, and what they had not compiled arrives as not compiled; the
 * modules its points did not take are freed. */
void wl_cuda_builders_stop(void);

/* Stop, and wait until every farm's thread has ended (at the worker's end,
 * before the modules it keeps are released). */
void wl_cuda_builders_end(void);

/* The builder's side: where is the compute capability ("90" for 9.0);
 * NVRTC (nv, opened before the builder confined itself) compiles each set
 * of options sent (wl_builder_serve), answering with ptxas's report, the
 * cubin and the PTX. Returns the process's exit status: 0, or 1 where where
 * is no compute capability or nv is not open. */
int wl_cuda_builder_main(const struct wl_nvrtc *nv, const char *where);

#endif
