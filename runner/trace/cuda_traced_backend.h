/* The backend a CUDA run's tracer measures through: CUDA's language and
 * call (arguments in order, local memory as the call's dynamic shared
 * memory, the family's .cu twin), OpenCL's everything else, for the traced
 * process runs in Oclgrind's OpenCL. A kernel is compiled when it is first
 * launched, once its dynamic shared memory is known (cuda_oclgrind.h). */
#ifndef WL_CUDA_TRACED_BACKEND_H
#define WL_CUDA_TRACED_BACKEND_H

#include "backend.h"
#include "cl_device.h"

/* The backend, its kernels' header read from kernels_dir (kept, not
 * copied). */
const struct wl_backend *wl_cuda_traced_backend(const char *kernels_dir);

/* The programs it has built in this process, the oldest first, into
 * out[0..cap); how many. It owns them. */
size_t wl_cuda_traced_programs(cl_program *out, size_t cap);

/* Release the programs it built (at the traced process's end). */
void wl_cuda_traced_release(void);

#endif
