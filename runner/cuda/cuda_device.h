/* The CUDA side of a device: what the backend's operations (backend.h) do
 * with the CUDA driver API — buffers, kernels with their arguments, timed
 * launches — opened at run time (nothing of CUDA is needed to build). The
 * side is attached to a device (device.h) when the worker finds the same GPU
 * in the CUDA driver by its PCI address, and opened when the device's first
 * CUDA point runs: the driver device's primary context, a stream, and the
 * modules built so far (NVRTC to a cubin for the device's compute
 * capability, so no JIT runs). */
#ifndef WL_CUDA_DEVICE_H
#define WL_CUDA_DEVICE_H

#include <jansson.h>
#include <stdint.h>

#include "dev_buffer.h"
#include "device.h"
#include "error.h"
#include "launch.h"
#include "cuda_nvrtc.h"
#include "request.h"
#include "source.h"

struct wl_cuda_device;
struct wl_cuda_call;

/* A device's CUDA side (dev->api[WL_LANG_CUDA]): the driver's device at its
 * PCI address (ordinal, or -1 where the driver has none there) and the
 * NVRTC to build with (the worker's), and its context once opened. */
struct wl_cuda_side {
	int ordinal;
	const struct wl_nvrtc *nv;
	struct wl_cuda_device *cd;	/* NULL until the backend opens it */
};

/* dev's CUDA side, or NULL where none is attached. */
static inline struct wl_cuda_side *wl_cuda_of(const struct wl_device *dev)
{
	return (struct wl_cuda_side *)dev->api[WL_LANG_CUDA];
}

/* Attach a CUDA side of ordinal, built with nv (which outlives dev), to dev
 * (idempotent: a second attach updates it). -1 with err when out of memory,
 * dev left as it was. */
int wl_cuda_attach(struct wl_device *dev, int ordinal, const struct wl_nvrtc *nv, struct wl_error *err);

/* Close dev's CUDA side (its context, if opened) and release it; NULL-safe. */
void wl_cuda_detach(struct wl_device *dev);

/* What makes the runner's own kernels, written in OpenCL C (its random
 * fills), compile as CUDA: the backend's opencl_prelude. */
#define WL_CUDA_OPENCL_PRELUDE \
	"#define WL_DEVICE __device__\n" \
	"#define ulong unsigned long long\n" \
	"#define uint unsigned int\n" \
	"#define __kernel extern \"C\" __global__\n" \
	"#define __global\n" \
	"#define get_global_id(d) (blockIdx.x * (ulong)blockDim.x + threadIdx.x)\n" \
	"#define get_global_size(d) ((ulong)gridDim.x * blockDim.x)\n"

/* The CUDA call a launch made by the CUDA backend holds. */
#define wl_cuda_call_of(l) ((struct wl_cuda_call *)(l)->handle)

/* Open the CUDA side of the driver's device ordinal (cuda_driver.h,
 * wl_cuda_ordinal: the one at the device's PCI address) with nv
 * (kept; the caller's) compiling. Returns it, or NULL with err saying why
 * (no driver, no such device, no context). */
struct wl_cuda_device *wl_cuda_device_open(int ordinal, const struct wl_nvrtc *nv, struct wl_error *err);
void wl_cuda_device_close(struct wl_cuda_device *cd);

/* The compute capability of the driver's device ordinal as major * 10 +
 * minor, or -1 where the driver cannot say. */
int wl_cuda_arch(int ordinal);

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

/* Whether cd (NULL: none open yet) has src's module with options loaded. */
int wl_cuda_device_has_module(const struct wl_cuda_device *cd, const struct wl_source *src, const char *options);

/* Buffers: bytes allocated (filled from init when not NULL) into *out (its
 * handle and size; the backend marks it as its own); a fill of a 32-bit
 * pattern; a blocking read into out. -1 with err set, a failed allocation
 * leaving *out cleared. */
int wl_cuda_buffer(struct wl_cuda_device *cd, size_t bytes, const void *init, struct wl_buf *out,
		   struct wl_error *err);
int wl_cuda_fill(struct wl_cuda_device *cd, const struct wl_buf *b, uint32_t pattern, size_t bytes,
		 struct wl_error *err);
int wl_cuda_read(struct wl_cuda_device *cd, const struct wl_buf *b, size_t bytes, void *out,
		 struct wl_error *err);
int wl_cuda_write(struct wl_cuda_device *cd, const struct wl_buf *b, size_t bytes, const void *host,
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
/* A value of bytes (1 to 8) as the next parameter. */
int wl_cuda_call_value(struct wl_cuda_call *c, const void *value, size_t bytes, struct wl_error *err);

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

/* The backend's timed launches (backend.h) on the CUDA side: l's call
 * launched warmup times, then repeat times between a pair of events each, a
 * fill of flush before each when not NULL. *refused is set where the driver
 * refuses the block's shape (the point fails, not the run). */
int wl_cuda_time_launches(struct wl_cuda_device *cd, const struct wl_launch *l, long long warmup,
			  long long repeat, const struct wl_flush *flush, double *samples_ms, int *refused,
			  struct wl_error *err);

/* One more launch of l under CUPTI's range profiler, its counters into
 * values[WL_COUNTERS] (cupti_counters.h). -1 with why ("counters
 * unavailable" reasons: no CUPTI, not permitted, ...), said once in the
 * log, after which the device profiles no more. */
int wl_cuda_profile(struct wl_cuda_device *cd, const struct wl_launch *l, double *values, char *why, size_t len);

#endif
