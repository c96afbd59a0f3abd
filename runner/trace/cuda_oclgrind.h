/* A CUDA kernel's source made into a program the Oclgrind simulator runs:
 * Debian's clang compiles it to LLVM IR with kernels/cuda_oclgrind.h (the
 * CUDA built-ins as OpenCL's), and warplab-cuda-ir (cuda_ir.cpp) gives it
 * OpenCL's address spaces and kernels; the program is then made from that
 * binary in the traced process's OpenCL, Oclgrind's. */
#ifndef WL_CUDA_OCLGRIND_H
#define WL_CUDA_OCLGRIND_H

#include <stddef.h>

#include "cl_device.h"
#include "source.h"

/* Why this host cannot trace a CUDA kernel (clang 14, warplab-cuda-ir or
 * the header in kernels_dir missing), or NULL when it can. */
const char *wl_cuda_oclgrind_unavailable(const char *kernels_dir);

/* src compiled with options (its -D and -U; a CUDA compiler's other flags
 * are not clang's and are left out) for dev's Oclgrind context, extern
 * __shared__ arrays dynamic_shared bytes long, into *out (the caller's to
 * release). -1 with err: WL_ERR_BUILD with clang's words where the source
 * does not compile, WL_ERR_CONFIG with the construct and its line where
 * the simulator cannot run it, WL_ERR_INTERNAL otherwise. */
int wl_cuda_oclgrind_program(struct wl_device *dev, const char *kernels_dir, const struct wl_source *src,
			     const char *options, size_t dynamic_shared, cl_program *out, struct wl_error *err);

#endif
