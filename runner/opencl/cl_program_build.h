/* One OpenCL program built for a device: from the binary kept on disk for
 * exactly its source where there is one (program_disk.h), else from
 * source, with the compiler's log; and a built program's binary kept on disk
 * for the next worker. Nothing here knows a cache: the program cache
 * (cl_program.h) and the thread that builds a run's programs beside its
 * points both call it, the latter from a thread of its own. */
#ifndef WL_CL_PROGRAM_BUILD_H
#define WL_CL_PROGRAM_BUILD_H

#include <stddef.h>

#include "cl_device.h"
#include "source.h"

/* What a binary on disk is kept under, into out: the device's model (its
 * name), its driver and OpenCL version, the build options and the
 * source's hash. Devices of one model and driver make the same binary, so
 * each worker of such a host loads what another built. */
void wl_program_disk_key(const struct wl_device *dev, const struct wl_source *src, const char *options, char *out,
			 size_t len);

/* The program built from src with options for dev, from disk (dir, or NULL;
 * under key) or source; *loaded says which, *log is the build's log (the
 * caller frees it). NULL with err where it does not build: WL_ERR_BUILD,
 * and where failed_log is given the whole log in it (the old one freed).
 * Of dev only its context, device and compiler are touched: any thread may
 * build. */
cl_program wl_program_build(const char *dir, const struct wl_device *dev, const struct wl_source *src,
			    const char *options, const char *key, int *loaded, char **log, char **failed_log,
			    struct wl_error *err);

/* The options a program is built with on dev: options, and on NVIDIA's
 * OpenCL the flags that make its compiler say what it made. Caller frees;
 * NULL when out of memory. */
char *wl_program_build_options(const struct wl_device *dev, const char *options);

/* The program of dev built from its binary (len bytes, as a build with
 * full_options made it); NULL where it does not load. Any thread may call
 * it. */
cl_program wl_program_from_binary(const struct wl_device *dev, const unsigned char *binary, size_t len,
				  const char *full_options);

/* The program's binary, which the caller frees (*len bytes); NULL when it
 * gives none. */
unsigned char *wl_program_binary(cl_program program, size_t *len);

/* Keep program (src built with the log under key) on disk in dir, where src
 * is worth it (the catalog's); best effort, from any thread: a failure is
 * logged. */
void wl_program_keep(const char *dir, const struct wl_device *dev, const struct wl_source *src, const char *key,
		     cl_program program, const char *log);

#endif
