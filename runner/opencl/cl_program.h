/* Built OpenCL programs, cached per (device, source, build options) for the life
 * of the worker: a kernel source is compiled once per device and reused by every
 * run, and a build failure is reported with the compiler's log. The binaries of
 * the catalog's own sources are also kept on disk (program_disk.h), so a
 * restarted runner loads them rather than compiling again. */
#ifndef WL_CL_PROGRAM_H
#define WL_CL_PROGRAM_H

#include <stdint.h>

#include "builders.h"
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
int wl_program_get(struct wl_program_cache *cache, struct wl_device *dev,
		   const struct wl_source *src, const char *options, cl_program *out,
		   struct wl_error *err);

/* Programs built ahead, on a thread of their own (which builds them in
 * parallel on the host's cores), while the worker does something else (it
 * describes its device, or waits to measure): srcs[i] with options[i] for dev,
 * each from disk or source as wl_program_get would, but kept aside until the
 * join adds them to the cache. The thread touches nothing of the cache, and
 * of dev only its context, device and compiler: dev->info may change
 * meanwhile; the sources must outlive the join. Programs the cache has are
 * skipped. Returns NULL with err set (out of memory, no thread, the device
 * does not open), building nothing: runs then build as they go. */
struct wl_program_ahead;
struct wl_program_ahead *wl_program_ahead_start(const struct wl_program_cache *cache, struct wl_device *dev,
						const struct wl_source *const *srcs, const char *const *options,
						size_t n, struct wl_error *err);

/* What starts builder processes for the cache's runs that ask for them
 * (wl_program_behind_start), and how many a run has (-1: as
 * wl_builders_for says). */
void wl_program_cache_spawn_with(struct wl_program_cache *cache, wl_builder_spawn spawn, int builders);

/* How many builder processes a run of n programs of someone else's code
 * gets from the cache's settings (by default one for each cores_each of
 * the worker's cores, wl_builders_for), with what starts them in *spawn: 0
 * where it gets none (no spawner, or --builders 0). */
int wl_program_cache_builders(const struct wl_program_cache *cache, size_t n, int cores_each, wl_builder_spawn *spawn);

/* Tell the builders of the run that ended to stop (NULL-safe): they end
 * within a tenth of a second, and what they had not built is built by no
 * one. The next batch, or the cache's end, joins them. */
void wl_program_behind_stop(struct wl_program_cache *cache);

/* A run's programs — src with each of options, for dev — built on a thread
 * of their own (or, builders nonzero, by builder processes, builders.h,
 * as many as the cache was given, and not at all where it was given none)
 * while its points are measured, in order: a point's
 * wl_program_get waits for its own and takes it, and the rest join the
 * cache when the next batch starts, the device is dropped or the cache is
 * freed. The thread builds from a copy of src, so the run may end first.
 * What builds beside an earlier run is joined first. Returns how many are
 * building (0 with err where none: each point builds its own). */
size_t wl_program_behind_start(struct wl_program_cache *cache, struct wl_device *dev, const struct wl_source *src,
			       const char *const *options, size_t n, int builders, struct wl_error *err);

/* Wait for ahead (NULL: nothing) and add what built to cache; a program that
 * did not build is left for the run that needs it, which says why. Returns
 * how many were added, the thread's time in *ms; frees ahead. */
size_t wl_program_ahead_join(struct wl_program_cache *cache, struct wl_program_ahead *ahead, double *ms);

/* What is kept of a build for the run page: the log up to this many bytes
 * (the rest is said, not kept), the PTX up to this many. */
#define WL_ACCOUNT_LOG_MAX (256 * 1024)

/* The compiler's account of a program: its build log as users see it ("" when
 * it said nothing), its PTX where the device's binary is PTX (NVIDIA), else
 * NULL, and ptx_dropped the length of a PTX too long to keep (else 0). */
struct wl_program_texts {
	const char *log, *ptx;
	size_t ptx_dropped;
};

/* The account of the program wl_program_get made from src with options for
 * dev into *out, whose texts belong to the cache, valid until the program
 * is dropped. -1 when no such program is in the cache. */
int wl_program_account(const struct wl_program_cache *cache, const struct wl_device *dev,
		       const struct wl_source *src, const char *options, struct wl_program_texts *out);

/* How many programs were compiled from source and how many loaded from disk. */
void wl_program_cache_counts(const struct wl_program_cache *cache, long *built, long *loaded);

/* The programs the cache holds for dev, the newest first, into out[0..cap);
 * how many. The cache owns them (valid until they are dropped). */
size_t wl_program_cache_programs(const struct wl_program_cache *cache, const struct wl_device *dev, cl_program *out,
				 size_t cap);

/* The compiler's whole log of the last build that failed, or "". The cache
 * owns it. */
const char *wl_program_cache_build_log(const struct wl_program_cache *cache);

/* Forget (and release) every program built for dev, before its context is
 * recreated. */
void wl_program_cache_drop_device(struct wl_program_cache *cache, const struct wl_device *dev);

#endif
