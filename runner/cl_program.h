/* Built OpenCL programs, cached per (device, source, build options) for the life
 * of the worker: a kernel source is compiled once per device and reused by every
 * run, and a build failure is reported with the compiler's log. The binaries of
 * the catalog's own sources are also kept on disk (program_disk.h), so a
 * restarted runner loads them rather than compiling again. */
#ifndef WL_CL_PROGRAM_H
#define WL_CL_PROGRAM_H

#include <stdint.h>

#include "cl_device.h"
#include "source.h"

struct wl_program_cache;

/* Create an empty cache that keeps binaries in dir (NULL or "": in memory
 * only). Caller frees with wl_program_cache_free(). */
struct wl_program_cache *wl_program_cache_new(const char *dir);
void wl_program_cache_free(struct wl_program_cache *cache);

/* The program built from src with options for dev, building it on first use.
 * The cache owns *out. A build failure fails with kind WL_ERR_BUILD and the
 * start of the build log in err; the whole log stays readable through
 * wl_program_cache_build_log() until the next build. */
int wl_program_get(struct wl_program_cache *cache, struct wl_cl_device *dev,
		   const struct wl_source *src, const char *options, cl_program *out,
		   struct wl_error *err);

/* The compiler's account of the program wl_program_get made from src with
 * options for dev: *log its build log as users see it ("" when it said
 * nothing), *ptx its PTX where the device's binary is PTX (NVIDIA), else
 * NULL. Both belong to the cache, valid until the program is dropped. -1
 * when no such program is in the cache. */
int wl_program_account(const struct wl_program_cache *cache, const struct wl_cl_device *dev,
		       const struct wl_source *src, const char *options, const char **log, const char **ptx);

/* How many programs were compiled from source and how many loaded from disk. */
void wl_program_cache_counts(const struct wl_program_cache *cache, long *built, long *loaded);

/* The compiler's whole log of the last build that failed, or "". The cache
 * owns it. */
const char *wl_program_cache_build_log(const struct wl_program_cache *cache);

/* Forget (and release) every program built for dev, before its context is
 * recreated. */
void wl_program_cache_drop_device(struct wl_program_cache *cache, const struct wl_cl_device *dev);

#endif
