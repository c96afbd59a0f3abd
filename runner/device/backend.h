/* A device backend: the one table of operations a point runs through —
 * buffers, fills, reads, staging, kernels and their arguments, timed
 * launches, counters, the compiler's account, and what to do when the
 * device's context is lost — with an OpenCL implementation
 * (opencl/cl_backend.c) and a CUDA one (cuda/cuda_backend.c). Points, families and
 * the executor hold a backend and opaque handles (dev_buffer.h's wl_buf,
 * launch.h's wl_launch) on a device of no API (device.h); the language is
 * looked at only where a backend is chosen (wl_backend_for). A third API
 * is one folder beside opencl/ and cuda/ and one entry in wl_backends
 * (docs/architecture.md lists its files). */
#ifndef WL_BACKEND_H
#define WL_BACKEND_H

#include <jansson.h>
#include <stdint.h>

#include "counted.h"
#include "dev_buffer.h"
#include "device.h"
#include "error.h"
#include "launch.h"
#include "request.h"

/* The most PTX (or other listing) a build's account keeps, bytes. */
#define WL_ACCOUNT_PTX_MAX (4 * 1024 * 1024)

struct wl_device;
struct wl_devices;
struct wl_launch;
struct wl_flush;
struct wl_program_cache;
struct wl_experiment;
struct wl_source;

/* The code a backend builds a kernel from, on which device, and for whom:
 * a point's source with the program cache it is kept in (OpenCL's; NULL
 * where the backend keeps its own), and for a custom kernel the family's
 * source and the built-in kernel whose arguments it must take. */
struct wl_kernel_site {
	struct wl_device *dev;
	struct wl_program_cache *programs;
	const struct wl_source *source;
	const struct wl_source *family;	/* custom kernels only */
	const char *like_kernel;	/* custom kernels only, else NULL */
	const char *variant;		/* the run's name of it, for messages; or NULL */
};

/* What one more launch for the hardware's counters is for: the result it
 * belongs to (the store's run and row), the launch's timed median and the
 * cold timings' flush (NULL: hot), and whether it may wait to be profiled
 * later with others (the backend's deferred counts). */
struct wl_count_ask {
	long long run_id, seq;
	double median_ms;
	const struct wl_flush *flush;
	int later;
};

/* A backend whose counters are profiled later, many launches in one
 * session, keeps the launches waiting on its side of the device, across
 * runs; the runner profiles them when it is idle (or when they pile up)
 * and writes each settled one into its result. */
struct wl_deferred_counts {
	size_t session_max;		/* launches one session profiles at most */
	/* How many wait (of run_id; 0: of every run). */
	size_t (*waiting)(const struct wl_device *dev, long long run_id);
	/* Whether they should be profiled now, during a run (too many, too
	 * old, or more than held_max bytes of buffers kept for them). */
	int (*due)(const struct wl_device *dev, size_t held_max);
	/* A deadline in seconds for profiling the first max of them. */
	long long (*seconds)(const struct wl_device *dev, size_t max);
	/* Profile the first max (oldest first): each is then settled. */
	void (*profile)(struct wl_device *dev, size_t max);
	/* Give up those of run_id (0: all): settled with why, or forgotten
	 * where why is NULL; context_lost: their buffers went with it. */
	void (*drop)(struct wl_device *dev, const char *why, int context_lost, long long run_id);
	/* The settled ones, oldest first (valid until forget), and forget
	 * the first n of them once written. */
	size_t (*settled)(const struct wl_device *dev, const struct wl_counted **out);
	void (*forget)(struct wl_device *dev, size_t n);
};

struct wl_backend {
	enum wl_language language;
	const char *name;			/* "OpenCL", "CUDA": for messages */
	/* Its properties, where the executor and the explainer differ by
	 * backend: a run is traced in Oclgrind (an OpenCL program, or a CUDA
	 * kernel compiled for it: trace/cuda_oclgrind.h), its launches are
	 * profiled for hardware counters, or both; the driver chooses a
	 * work-group size the declaration leaves at 0; a lost context is
	 * always said as WL_ERR_DEVICE_LOST (else any failed launch may have
	 * lost it: OpenCL says CL_OUT_OF_RESOURCES after an illegal address). */
	int traced, counted, driver_block, names_loss;
	/* The API's name for a work-group shape the driver refuses. */
	const char *refused_name;
	/* What makes the runner's own kernels, written in OpenCL C (its
	 * random fills), compile in this language: put before them; NULL
	 * where they are in it already. */
	const char *opencl_prelude;

	/* Its devices appended to devs (device.h: wl_devices_add), or joined
	 * to those found before by PCI address; only and host as
	 * wl_devices_find says. NULL: it finds none of its own (its side is
	 * attached later). -1 with err. */
	int (*find)(const char *only, const char *host, struct wl_devices *devs, struct wl_error *err);
	/* Release its side of dev (dev->api[language]); NULL-safe. */
	void (*detach)(struct wl_device *dev);

	/* The family's source file in the catalog (.cl or .cu twin), or NULL
	 * where the experiment has none in this language. */
	const char *(*family_source)(const struct wl_experiment *exp);
	/* The device's side for this backend opened (idempotent); -1 with err. */
	int (*open)(struct wl_device *dev, struct wl_error *err);
	/* After a lost context (WL_ERR_DEVICE_LOST): the device usable again
	 * with nothing of before kept (buffers, kernels and programs dropped),
	 * or -1 with err where this process cannot use it again. */
	int (*reset)(struct wl_device *dev, struct wl_program_cache *programs, struct wl_error *err);

	/* Buffers (the handles in *out), each -1 with err: made by role and
	 * filled from init when not NULL (*out cleared on failure); a 32-bit
	 * pattern written over bytes; bytes read into out (blocking); released. */
	int (*buffer)(struct wl_device *dev, enum wl_buf_role role, size_t bytes, const void *init,
		      struct wl_buf *out, struct wl_error *err);
	int (*fill)(struct wl_device *dev, const struct wl_buf *b, uint32_t pattern, size_t bytes,
		    struct wl_error *err);
	int (*read)(struct wl_device *dev, const struct wl_buf *b, size_t bytes, void *out, struct wl_error *err);
	/* bytes of host written over b's start (blocking). -1 with err. */
	int (*write)(struct wl_device *dev, const struct wl_buf *b, size_t bytes, const void *host,
		     struct wl_error *err);
	void (*buffer_release)(struct wl_buf *b);
	/* Pinned host memory from staging slot (0 or 1), kept and grown; and
	 * what the slot holds now (NULL before its first use). */
	int (*staging)(struct wl_device *dev, unsigned slot, size_t bytes, void **ptr, struct wl_error *err);
	void *(*staging_now)(const struct wl_device *dev, unsigned slot, size_t *size);

	/* Kernel name of site->source built with options into l->handle (a
	 * custom kernel's parameters checked against its like kernel's where
	 * the API can say before the arguments are bound). -1 with err
	 * (WL_ERR_BUILD with the compiler's words) and nothing to release. */
	int (*kernel)(const struct wl_kernel_site *site, const char *options, const char *name, struct wl_launch *l,
		      struct wl_error *err);
	/* Argument i of l: a buffer, a 32-bit word, a 64-bit word, or local
	 * memory of bytes (OpenCL's __local parameter; CUDA's dynamic shared
	 * memory, no parameter). -1 with err. */
	int (*arg_buffer)(struct wl_launch *l, unsigned i, const struct wl_buf *b, struct wl_error *err);
	int (*arg_word)(struct wl_launch *l, unsigned i, uint32_t word, struct wl_error *err);
	int (*arg_u64)(struct wl_launch *l, unsigned i, uint64_t value, struct wl_error *err);
	int (*arg_local)(struct wl_launch *l, unsigned i, size_t bytes, struct wl_error *err);
	/* Argument i a value of bytes (1 to 8: a char, short, int, long,
	 * float or double scalar as the kernel declares it). -1 with err. */
	int (*arg_value)(struct wl_launch *l, unsigned i, const void *value, size_t bytes, struct wl_error *err);
	/* After every argument is bound: a custom kernel whose parameters
	 * differ from its like kernel's said plainly (-1 with err), where
	 * kernel could not check them. NULL: nothing to check. */
	int (*bound)(const struct wl_kernel_site *site, const struct wl_launch *l, struct wl_error *err);
	/* l launched once and waited for (the runner's own kernels). */
	int (*run_once)(struct wl_device *dev, const struct wl_launch *l, struct wl_error *err);
	/* l launched warmup times, then repeat times timed into samples_ms, a
	 * fill of flush before each when not NULL. *refused is set where the
	 * driver refused the work-group's shape before anything ran (the
	 * point fails, not the run). -1 with err. */
	int (*time)(const struct wl_kernel_site *site, const struct wl_launch *l, long long warmup, long long repeat,
		    const struct wl_flush *flush, double *samples_ms, int *refused, struct wl_error *err);
	void (*launch_release)(struct wl_launch *l);

	/* The hardware's counters for one more launch of l into extra (len
	 * bytes): {"counters": {...}} or {"counters_error": why} now, or, where
	 * ask->later and the backend defers, a note that they are coming
	 * (deferred). NULL: the backend counts nothing. */
	void (*count)(const struct wl_kernel_site *site, const struct wl_launch *l, const struct wl_count_ask *ask,
		      char *extra, size_t len);
	/* NULL, or where the counts of later launches wait (see above). */
	const struct wl_deferred_counts *deferred;
	/* The compiler's account of l's kernel built from site->source with
	 * options: its figures (a new reference, NULL where there is none),
	 * *log and *ptx (or NULL) borrowed from the backend's caches, and the
	 * size of a PTX too long to keep (or 0); and the
	 * compiler as a build record names it (caller frees; NULL when out of
	 * memory). */
	json_t *(*account)(const struct wl_kernel_site *site, const char *options, const struct wl_launch *l,
			   const char **log, const char **ptx, size_t *ptx_dropped);
	char *(*compiler)(const struct wl_device *dev);
	/* The whole log of a build that failed with why: the program cache's
	 * (OpenCL), or why's own words (CUDA's come with the error). */
	const char *(*build_log)(const struct wl_program_cache *programs, const struct wl_error *why);
};

/* Release whichever *b holds through the backend that made it and clear it;
 * for teardown functions (a cleared buffer is left alone). */
static inline void wl_buf_release(struct wl_buf *b)
{
	if (b->backend)
		b->backend->buffer_release(b);
	*b = (struct wl_buf){ 0 };
}

/* Release what l holds (its kernel, or its CUDA call) through the backend
 * that made it and clear it; a cleared l is left alone. */
static inline void wl_launch_release(struct wl_launch *l)
{
	if (l->backend)
		l->backend->launch_release(l);
	l->backend = NULL;
	l->handle = NULL;
}

extern const struct wl_backend wl_backend_opencl;
extern const struct wl_backend wl_backend_cuda;

/* Every backend, in the order they find devices: NULL-terminated. */
extern const struct wl_backend *const wl_backends[];

/* Every device the backends find, in their table's order.
 * only, when not NULL or empty, is a comma-separated list of device ids or
 * the words "gpu"/"cpu" to keep. host, when not NULL, is this host's name
 * in a lab of several: each id begins with its slug ("gpu3-nvidia-h100-0"),
 * so ids stay unique across the lab. Finding no device is not an error
 * (count is 0). On failure (-1, err set) out holds nothing. Caller frees
 * with wl_devices_free(). */
int wl_devices_find(const char *only, const char *host, struct wl_devices *out, struct wl_error *err);
void wl_devices_free(struct wl_devices *devs);

/* Keep only the device at index (< count), releasing the others: a worker
 * serves one device. */
void wl_devices_keep(struct wl_devices *devs, size_t index);

/* The backend whose deferred counts live on dev, its side being attached
 * there, or NULL where none can wait on this device. */
const struct wl_backend *wl_device_deferring(const struct wl_device *dev);

/* The backend of a request's language: the one place the language picks
 * the API. */
const struct wl_backend *wl_backend_for(enum wl_language language);

/* For tests on PoCL (--test-lose-context N): the N-th timed launch of a
 * custom kernel on the OpenCL backend from now on reports a lost context
 * (WL_ERR_DEVICE_LOST, named as CUDA would name one); with reset_fails the
 * reset after it fails too, as CUDA's does where the context stays lost
 * for the process. 0 turns it off. */
void wl_backend_test_lose_context(long after, int reset_fails);


#endif
