/* Built OpenCL programs, cached per (device, source, build options) for the life
 * of the runner: a kernel source is compiled once per device and reused by every
 * run, and a build failure is reported with the compiler's log. */
#ifndef WL_CL_PROGRAM_H
#define WL_CL_PROGRAM_H

#include <stdint.h>

#include "cl_device.h"

struct wl_program_cache;

/* A kernel source read from disk, with its FNV-1a 64-bit hash as 16 hex digits
 * (recorded with every run so a result names the exact source it came from). */
struct wl_source {
	char *text;
	size_t len;
	char hash[17];
};

/* Read path into *out. Caller frees with wl_source_free(). */
int wl_source_load(const char *path, struct wl_source *out, struct wl_error *err);
void wl_source_free(struct wl_source *src);

/* FNV-1a, 64-bit: a cache key and provenance tag, not a security hash. */
uint64_t wl_fnv1a64(const void *data, size_t len);

/* Create an empty cache. Caller frees with wl_program_cache_free(). */
struct wl_program_cache *wl_program_cache_new(void);
void wl_program_cache_free(struct wl_program_cache *cache);

/* The program built from src with options for dev, building it on first use.
 * The cache owns *out. A build failure fails with the build log in err. */
int wl_program_get(struct wl_program_cache *cache, struct wl_cl_device *dev,
		   const struct wl_source *src, const char *options, cl_program *out,
		   struct wl_error *err);

/* Forget (and release) every program built for dev, before its context is
 * recreated. */
void wl_program_cache_drop_device(struct wl_program_cache *cache, const struct wl_cl_device *dev);

#endif
