/* The catalog's programs built ahead. A starting worker spends seconds
 * describing its device (the cache and the device facts are probed on a new
 * lab's GPU); on a thread of its own meanwhile, it builds what runs of every
 * experiment at the catalog's defaults will ask the program cache for, and
 * the device's random fills; on a GPU that runs CUDA, NVRTC compiles their
 * CUDA twins on another (cuda_point.h, wl_cuda_compile). A fresh lab's first
 * runs then find their programs built (or loaded from disk) rather than
 * waiting for the compiler.
 * By default only on GPUs: on a CPU device the compiler would take the cores
 * that the device's own probes measure. */
#ifndef WL_PROGRAM_AHEAD_H
#define WL_PROGRAM_AHEAD_H

#include "catalog.h"
#include "cl_device.h"
#include "cl_program.h"

/* When a worker builds ahead (--build-ahead): "gpu" (the default), "always"
 * or "never". -1 for any other word, which why names with the allowed ones. */
enum wl_build_ahead { WL_AHEAD_GPU, WL_AHEAD_ALWAYS, WL_AHEAD_NEVER };
int wl_build_ahead_parse(const char *word, enum wl_build_ahead *out, struct wl_error *why);

struct wl_catalog_ahead;

/* Start building the programs of cat's experiments at their defaults on dev
 * (devs->list[0] of a worker, opened here) into programs, where when says
 * so. NULL when nothing was started (not wanted here, nothing to build, or
 * err set: runs then build as they go). cat, devs and programs must outlive
 * the join. */
struct wl_catalog_ahead *wl_catalog_ahead_start(const struct wl_catalog *cat, struct wl_devices *devs,
						const char *kernels_dir, const struct wl_program_cache *programs,
						enum wl_build_ahead when, struct wl_error *err);

/* Wait for a (NULL: nothing), add what it built to programs, say so in the
 * log, and free a. */
void wl_catalog_ahead_join(struct wl_catalog_ahead *a, struct wl_program_cache *programs);

/* Before a run of several points (a sweep, a tuning run's configurations)
 * measures its first: the programs all its points build, built (OpenCL) or
 * compiled (CUDA) in parallel on the host's cores, where when says so, and
 * added to programs, so that the points measure one after another without
 * waiting for the compiler. A run with someone else's code builds it at its
 * point, under that point's deadline. What does not build is built again
 * by its point, which says why. */
struct wl_run_plan;
void wl_run_build_ahead(const struct wl_run_plan *plan, struct wl_program_cache *programs, enum wl_build_ahead when);

#endif
