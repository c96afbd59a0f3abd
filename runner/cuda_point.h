/* The CUDA side of a device (issue 27): the same helpers the families use
 * through point.h — buffers, kernels with their arguments, timed launches —
 * made with the CUDA driver API, opened at run time (nothing of CUDA is
 * needed to build). A device's CUDA side is opened when its first CUDA
 * point runs: the primary context of the CUDA device at the OpenCL device's
 * PCI address, a stream, and the modules built so far (NVRTC to a cubin for
 * the device's compute capability, so no JIT runs). */
#ifndef WL_CUDA_POINT_H
#define WL_CUDA_POINT_H

#include <jansson.h>
#include <stdint.h>

#include "dev_buffer.h"
#include "error.h"
#include "measure.h"
#include "nvrtc.h"
#include "source.h"

struct wl_cuda_device;
struct wl_cuda_call;

/* The CUDA call a launch made by the CUDA backend holds. */
#define wl_cuda_call_of(l) ((struct wl_cuda_call *)(l)->handle)

/* Open the CUDA side of the driver's device ordinal (cuda_driver.h,
 * wl_cuda_ordinal: the one at the OpenCL device's PCI address) with nv
 * (kept; the caller's) compiling. Returns it, or NULL with err saying why
 * (no driver, no such device, no context). */
struct wl_cuda_device *wl_cuda_device_open(int ordinal, const struct wl_nvrtc *nv, struct wl_error *err);
void wl_cuda_device_close(struct wl_cuda_device *cd);

/* Modules compiled ahead, before the device's context exists (NVRTC needs
 * none): src with options for compute capability arch (wl_cuda_arch of the
 * device's ordinal, -1 unknown) put on *list, from any thread. -1 with err
 * (a source that does not compile) adds nothing. */
struct wl_cuda_compiled;
int wl_cuda_compile(const struct wl_nvrtc *nv, int arch, const struct wl_source *src, const char *options,
		    struct wl_cuda_compiled **list, struct wl_error *err);
int wl_cuda_arch(int ordinal);

/* The worker takes list (from the thread that compiled it, joined): a run
 * that asks for one of its modules loads it rather than compiling. */
void wl_cuda_compiled_adopt(struct wl_cuda_compiled *list);
/* Free what the worker took and no run asked for (at its end). */
void wl_cuda_compiled_release(void);
void wl_cuda_compiled_free(struct wl_cuda_compiled *list);
/* The one after c on its list, or NULL. */
const struct wl_cuda_compiled *wl_cuda_compiled_next(const struct wl_cuda_compiled *c);

/* After a kernel broke the context (an illegal address is sticky): its
 * state reset and a fresh context, stream and module list made, the same
 * cd kept. -1 with err where the device cannot be used again. */
int wl_cuda_device_reset(struct wl_cuda_device *cd, struct wl_error *err);

/* The parameters c's kernel takes (-1 where the driver cannot say: before
 * CUDA 12.4), and those it was given so far. */
int wl_cuda_call_params(const struct wl_cuda_call *c);
int wl_cuda_call_given(const struct wl_cuda_call *c);

/* The device's compute capability as major * 10 + minor. */
int wl_cuda_device_arch(const struct wl_cuda_device *cd);

/* Buffers: bytes allocated (filled from init when not NULL) into *out; a
 * fill of a 32-bit pattern; a blocking read into out. -1 with err set, a
 * failed allocation leaving *out cleared. */
int wl_cuda_buffer(struct wl_cuda_device *cd, size_t bytes, const void *init, struct wl_buf *out,
		   struct wl_error *err);
int wl_cuda_fill(struct wl_cuda_device *cd, const struct wl_buf *b, uint32_t pattern, size_t bytes,
		 struct wl_error *err);
int wl_cuda_read(struct wl_cuda_device *cd, const struct wl_buf *b, size_t bytes, void *out,
		 struct wl_error *err);
void wl_cuda_buffer_release(struct wl_buf *b);

/* Pinned host memory of at least bytes from staging slot (0 or 1), kept
 * for the next call and grown as needed, into *ptr; -1 with err. And what
 * the slot holds now (NULL, 0 before its first use). */
int wl_cuda_staging(struct wl_cuda_device *cd, unsigned slot, size_t bytes, void **ptr, struct wl_error *err);
void *wl_cuda_staging_now(const struct wl_cuda_device *cd, unsigned slot, size_t *size);

/* The call of kernel name in src built with options (OpenCL-style "-D X=1"
 * words; each becomes NVRTC's -DX=1), its module built once per source and
 * options. Its arguments are then given in the declared order: a buffer or
 * a 32-bit word is the next parameter; local memory is no parameter in CUDA
 * but the call's dynamic shared memory (the kernel's extern __shared__).
 * -1 with err (WL_ERR_BUILD with NVRTC's words) and nothing to free. */
int wl_cuda_call_new(struct wl_cuda_device *cd, const struct wl_source *src, const char *options,
		     const char *name, struct wl_cuda_call **out, struct wl_error *err);
int wl_cuda_call_buffer(struct wl_cuda_call *c, const struct wl_buf *b, struct wl_error *err);
int wl_cuda_call_word(struct wl_cuda_call *c, uint32_t word, struct wl_error *err);
int wl_cuda_call_shared(struct wl_cuda_call *c, size_t bytes, struct wl_error *err);
int wl_cuda_call_u64(struct wl_cuda_call *c, uint64_t value, struct wl_error *err);

/* Launch c once on groups blocks of items threads and wait for it (the
 * runner's own kernels: random inputs). -1 with err. */
int wl_cuda_call_run(struct wl_cuda_call *c, size_t groups, size_t items, struct wl_error *err);
void wl_cuda_call_free(struct wl_cuda_call *c);

/* The compiler's account of c's kernel, as the OpenCL side's builds are
 * recorded (build_records.h): its figures from the driver ({"kernel",
 * "local_bytes" (static shared), "private_bytes" (local memory),
 * "max_work_group", "registers", "preferred_multiple"}; a new reference,
 * NULL when out of memory), and *log (ptxas's report) and *ptx (or NULL),
 * which belong to the device's module list. */
json_t *wl_cuda_call_account(const struct wl_cuda_call *c, const char **log, const char **ptx);

/* wl_time_launches (measure.h) on the CUDA side: l->cuda launched warmup
 * times, then repeat times between a pair of events each, a fill of flush
 * before each when not NULL. *code is CL_INVALID_WORK_GROUP_SIZE where the
 * driver refuses the block's shape (the point fails, not the run). */
int wl_cuda_time_launches(struct wl_cuda_device *cd, const struct wl_launch *l, long long warmup,
			  long long repeat, const struct wl_flush *flush, double *samples_ms, cl_int *code,
			  struct wl_error *err);

/* One more launch of l under CUPTI's range profiler, its counters into
 * values[WL_COUNTERS] (cupti_counters.h). -1 with why ("counters
 * unavailable" reasons: no CUPTI, not permitted, ...), said once in the
 * log, after which the device profiles no more. */
int wl_cuda_profile(struct wl_cuda_device *cd, const struct wl_launch *l, double *values, char *why, size_t len);

#endif
