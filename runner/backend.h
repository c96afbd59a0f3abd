/* A device backend: the one table of operations a point runs through —
 * buffers, fills, reads, staging, kernels and their arguments, timed
 * launches, counters, the compiler's account, and what to do when the
 * device's context is lost — with an OpenCL implementation
 * (backend_opencl.c) and a CUDA one (backend_cuda.c). Points, families and
 * the executor hold a backend and opaque handles (dev_buffer.h's wl_buf,
 * measure.h's wl_launch); the language is looked at only where a backend is
 * chosen (wl_backend_for). A third API would be one file and one entry. */
#ifndef WL_BACKEND_H
#define WL_BACKEND_H

#include <jansson.h>
#include <stdint.h>

#include "dev_buffer.h"
#include "error.h"
#include "request.h"

/* The most PTX (or other listing) a build's account keeps, bytes. */
#define WL_ACCOUNT_PTX_MAX (4 * 1024 * 1024)

struct wl_cl_device;
struct wl_point;
struct wl_launch;
struct wl_flush;
struct wl_program_cache;
struct wl_experiment;
struct wl_measurement;
struct wl_source;

struct wl_backend {
	enum wl_language language;
	const char *name;			/* "OpenCL", "CUDA": for messages */
	/* Its properties, where the executor and the explainer differ by
	 * backend: a run is traced in Oclgrind (an OpenCL program), or its
	 * launches are profiled for hardware counters; the driver chooses a
	 * work-group size the declaration leaves at 0; a lost context is
	 * always said as WL_ERR_DEVICE_LOST (else any failed launch may have
	 * lost it: OpenCL says CL_OUT_OF_RESOURCES after an illegal address). */
	int traced, counted, driver_block, names_loss;
	/* The API's name for a work-group shape the driver refuses. */
	const char *refused_name;

	/* The family's source file in the catalog (.cl or .cu twin), or NULL
	 * where the experiment has none in this language. */
	const char *(*family_source)(const struct wl_experiment *exp);
	/* The device's side for this backend opened (idempotent); -1 with err. */
	int (*open)(struct wl_cl_device *dev, struct wl_error *err);
	/* After a lost context (WL_ERR_DEVICE_LOST): the device usable again
	 * with nothing of before kept (buffers, kernels and programs dropped),
	 * or -1 with err where this process cannot use it again. */
	int (*reset)(struct wl_cl_device *dev, struct wl_program_cache *programs, struct wl_error *err);

	/* Buffers (the handles in *out), each -1 with err: made by role and
	 * filled from init when not NULL (*out cleared on failure); a 32-bit
	 * pattern written over bytes; bytes read into out (blocking); released. */
	int (*buffer)(struct wl_cl_device *dev, enum wl_buf_role role, size_t bytes, const void *init,
		      struct wl_buf *out, struct wl_error *err);
	int (*fill)(struct wl_cl_device *dev, const struct wl_buf *b, uint32_t pattern, size_t bytes,
		    struct wl_error *err);
	int (*read)(struct wl_cl_device *dev, const struct wl_buf *b, size_t bytes, void *out, struct wl_error *err);
	void (*buffer_release)(struct wl_buf *b);
	/* Pinned host memory from staging slot (0 or 1), kept and grown; and
	 * what the slot holds now (NULL before its first use). */
	int (*staging)(struct wl_cl_device *dev, unsigned slot, size_t bytes, void **ptr, struct wl_error *err);
	void *(*staging_now)(const struct wl_cl_device *dev, unsigned slot, size_t *size);

	/* Kernel name of pt->source built with options into l->handle (a
	 * custom kernel's parameters checked against its like kernel's where
	 * the API can say before the arguments are bound). -1 with err
	 * (WL_ERR_BUILD with the compiler's words) and nothing to release. */
	int (*kernel)(const struct wl_point *pt, const char *options, const char *name, struct wl_launch *l,
		      struct wl_error *err);
	/* Argument i of l: a buffer, a 32-bit word, a 64-bit word, or local
	 * memory of bytes (OpenCL's __local parameter; CUDA's dynamic shared
	 * memory, no parameter). -1 with err. */
	int (*arg_buffer)(struct wl_launch *l, unsigned i, const struct wl_buf *b, struct wl_error *err);
	int (*arg_word)(struct wl_launch *l, unsigned i, uint32_t word, struct wl_error *err);
	int (*arg_u64)(struct wl_launch *l, unsigned i, uint64_t value, struct wl_error *err);
	int (*arg_local)(struct wl_launch *l, unsigned i, size_t bytes, struct wl_error *err);
	/* After every argument is bound: a custom kernel whose parameters
	 * differ from its like kernel's said plainly (-1 with err), where
	 * kernel could not check them. NULL: nothing to check. */
	int (*bound)(const struct wl_point *pt, const struct wl_launch *l, struct wl_error *err);
	/* l launched once and waited for (the runner's own kernels). */
	int (*run_once)(struct wl_cl_device *dev, const struct wl_launch *l, struct wl_error *err);
	/* l launched warmup times, then repeat times timed into samples_ms, a
	 * fill of flush before each when not NULL. *refused is set where the
	 * driver refused the work-group's shape before anything ran (the
	 * point fails, not the run). -1 with err. */
	int (*time)(const struct wl_point *pt, const struct wl_launch *l, long long warmup, long long repeat,
		    const struct wl_flush *flush, double *samples_ms, int *refused, struct wl_error *err);
	void (*launch_release)(struct wl_launch *l);

	/* The hardware's counters for one more launch of l into res->extra,
	 * now or later (cuda_counts.h). NULL: the backend counts nothing. */
	void (*count)(const struct wl_point *pt, const struct wl_launch *l, struct wl_measurement *res);
	/* The compiler's account of l's kernel built from pt->source with
	 * options: its figures (a new reference, NULL where there is none),
	 * *log and *ptx (or NULL) borrowed from the backend's caches, and the
	 * size of a PTX too long to keep (or 0); and the
	 * compiler as a build record names it (caller frees; NULL when out of
	 * memory). */
	json_t *(*account)(const struct wl_point *pt, const char *options, const struct wl_launch *l,
			   const char **log, const char **ptx, size_t *ptx_dropped);
	char *(*compiler)(const struct wl_cl_device *dev);
	/* The whole log of a build that failed with why: the program cache's
	 * (OpenCL), or why's own words (CUDA's come with the error). */
	const char *(*build_log)(const struct wl_program_cache *programs, const struct wl_error *why);
	/* The source of the device's random fills (device_rng.c) in this
	 * language, made once; NULL with err when out of memory. */
	const struct wl_source *(*rng_source)(struct wl_error *err);
};

extern const struct wl_backend wl_backend_opencl;
extern const struct wl_backend wl_backend_cuda;

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
