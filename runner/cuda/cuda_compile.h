/* CUDA sources compiled with NVRTC to a cubin for a compute capability,
 * with ptxas's report and the PTX for the compiler's account. NVRTC needs no
 * context, so the worker compiles the catalog's CUDA twins ahead, on a
 * thread of their own, before the device's context exists, and a run's
 * modules on a thread of the run's while its first points are measured; a
 * point that asks for one takes it, waiting where it is still compiling,
 * rather than compiling it again (cuda_device.c's modules). */
#ifndef WL_CUDA_COMPILE_H
#define WL_CUDA_COMPILE_H

#include <stddef.h>

#include "cuda_nvrtc.h"
#include "error.h"
#include "source.h"

/* A module compiled before the device's context existed: the source's hash
 * and options it was built from, its cubin, ptxas's report and the PTX (or
 * NULL), on a list. */
struct wl_cuda_compiled {
	char hash[17];
	char *options, *bin, *log, *ptx;
	size_t len;
	int loaded;		/* from disk, not compiled */
	struct wl_cuda_compiled *next;
};

/* Modules of sources worth keeping (wl_source's keep_binary) are kept in
 * dir (NULL or "": nowhere), loaded from it rather than compiled: every
 * device of a compute capability shares them. Called before any compiles. */
void wl_cuda_compiled_keep_in(const char *dir);
/* The key src's module with options for arch is kept under on disk. */
void wl_cuda_disk_key(const struct wl_nvrtc *nv, int arch, const struct wl_source *src, const char *options,
		      char *out, size_t len);

/* src with options for compute capability arch (wl_cuda_arch of the
 * device's ordinal, -1 unknown) put on *list, from any thread: loaded from
 * disk where it is kept there, else compiled (and kept). -1 with err (a
 * source that does not compile, WL_ERR_BUILD with NVRTC's words) adds
 * nothing. */
int wl_cuda_compile(const struct wl_nvrtc *nv, int arch, const struct wl_source *src, const char *options,
		    struct wl_cuda_compiled **list, struct wl_error *err);

/* What NVRTC makes of text with OpenCL-style options ("-D X=1") for arch:
 * the device's code (*bin, *len) with ptxas's report (*log), and the PTX for
 * the compiler's account (*ptx, NULL when it gives none), all the caller's.
 * -1 with err (WL_ERR_BUILD with NVRTC's words) and nothing to free. */
int wl_cuda_compile_text(const struct wl_nvrtc *nv, int arch, const char *text, const char *options, char **bin,
			 size_t *len, char **log, char **ptx, struct wl_error *err);

/* A module made elsewhere (a builder process, cuda_builders.h) as the
 * worker keeps one: src's hash, options, and copies of bin (len bytes), log
 * and ptx (NULL or "": none). NULL when out of memory. */
struct wl_cuda_compiled *wl_cuda_compiled_made(const char *hash, const char *options, const void *bin, size_t len,
					       const char *log, const char *ptx);

/* The worker takes list (from the thread that compiled it, joined): a run
 * that asks for one of its modules loads it rather than compiling. */
void wl_cuda_compiled_adopt(struct wl_cuda_compiled *list);
/* Free what the worker took and no run asked for, and forget where modules
 * are kept (at its end). */
void wl_cuda_compiled_release(void);
void wl_cuda_compiled_free(struct wl_cuda_compiled *list);
/* Free the modules of the source of hash on the worker's list that no run
 * took (a run's builders ran ahead of it, or its points went elsewhere). */
void wl_cuda_compiled_drop(const char *hash);
/* The one after c on its list, or NULL. */
const struct wl_cuda_compiled *wl_cuda_compiled_next(const struct wl_cuda_compiled *c);

/* A module of src with options is coming: a thread of the worker compiles
 * it and says when with wl_cuda_compiled_arrive. -1 when out of memory
 * (then nothing waits for it). */
int wl_cuda_compiled_expect(const struct wl_source *src, const char *options);

/* The module of the source of hash with options is done, from any thread:
 * made (NULL: it did not compile, and the run that needs it compiles it
 * and says why) goes on the worker's list, and whoever waits for it
 * wakes. */
void wl_cuda_compiled_arrive(const char *hash, const char *options, struct wl_cuda_compiled *made);

/* Whether the worker's list holds src's module with options (not taken), or
 * one is coming. */
int wl_cuda_compiled_has(const struct wl_source *src, const char *options);

/* The compiled-ahead module of src with options, taken off the worker's
 * list, alone (its next is NULL: the caller frees it with
 * wl_cuda_compiled_free) — waited for where it is coming — or NULL. */
struct wl_cuda_compiled *wl_cuda_compiled_take(const struct wl_source *src, const char *options);

#endif
