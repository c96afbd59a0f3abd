/* Confinement of the process that builds and runs other people's kernels.
 * A kernel's source reaches a compiler (PoCL's clang, NVIDIA's) inside the
 * runner's worker; whatever the source says, that compiler must not be able to
 * open a file of the host the worker does not need. The worker therefore
 * restricts itself with Linux Landlock before it opens OpenCL: from then on it
 * (and every thread and child it starts) may read the system's libraries and
 * the OpenCL drivers' files, its kernels and its device nodes, and read and
 * write only its store's folder, its program cache and the drivers' caches.
 * Nothing else of the file system can be opened, whatever is asked. */
#ifndef WL_CONFINE_H
#define WL_CONFINE_H

#include <stddef.h>

/* What the worker needs beyond the system's files. Any may be NULL or "". */
struct wl_confine_paths {
	const char *kernels;	/* read: catalog.json and the .cl sources */
	const char *store_dir;	/* read and write: a SQLite store's folder */
	const char *programs;	/* read and write: the program cache */
	const char *self;	/* read and execute: this program, so it can run the tracer */
	const char *tracer;	/* read: the tracer's Oclgrind plugin */
	const char *cuda_ir;	/* read and execute: the tracer's warplab-cuda-ir */
};

/* The Landlock ABI this kernel offers: 0 where it has none (too old, built
 * without it, or the system call is refused). */
int wl_landlock_abi(void);

/* Restrict this process, for the rest of its life, to what paths name and
 * what OpenCL drivers need (see the top of this file). Call it before any
 * thread is started: Landlock confines the calling thread and what it starts
 * afterwards. Returns 0 with the confinement in force described in what
 * ("landlock ABI 7"); -1 where none could be put in force, with the reason in
 * what ("none: this kernel has no Landlock"), and the process unchanged. */
int wl_confine(const struct wl_confine_paths *paths, char *what, size_t len);

#endif
