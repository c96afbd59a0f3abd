/* A run's programs built in processes of their own, builders, beside its
 * points. NVIDIA's OpenCL compiler builds one program at a time in a process
 * however many threads ask, but processes build side by side (120 programs
 * 3.6x faster in 8 than in one on an H200's host; bench/RESULTS.md); and a
 * compiler that crashes on someone else's source takes only its builder with
 * it. A builder is this program again (warplab-runner --cl-builder WHERE),
 * started by whoever the caller names (the worker's spawner), confined as a
 * worker is. It reads a source, then build options one at a time, on its
 * standard input, and answers each with the build's log and binary on its
 * standard output; the worker builds each program from its binary, which
 * takes a fraction of a millisecond. */
#ifndef WL_CL_BUILDERS_H
#define WL_CL_BUILDERS_H

#include <stddef.h>
#include <sys/types.h>

#include "cl_device.h"

/* The file descriptor a builder speaks on (its standard input and output
 * go to /dev/null: nothing a driver prints can break a frame). */
#define WL_BUILDER_FD 3

/* Start a builder of where: its socket in *fd, a pidfd of it in *pidfd (to
 * signal it with, whoever reaps it) and its pid in *pid, for the log; -1
 * where none can be started. The caller closes both descriptors. */
typedef int (*wl_builder_spawn)(const char *where, int *fd, int *pidfd, pid_t *pid);

/* What a builder made of program i: its binary (len bytes) and the
 * compiler's log, or binary NULL where it did not build, its builder died
 * or the work was stopped. Called on wl_cl_builders_run's thread, once for
 * each i. */
typedef void (*wl_builder_done)(void *ctx, size_t i, const unsigned char *binary, size_t len, const char *log);

/* Build text (len bytes) for dev with each of full_options[0..n) in up to
 * procs builders started by spawn, handed out in the order given, each
 * handed to done as it finishes. Returns when done has had every i: built,
 * failed, or abandoned once *stop is set or no builder is left. Every
 * builder is told to end (its socket closed; killed where it was still
 * building) before the call returns. */
void wl_cl_builders_run(const struct wl_device *dev, const char *text, size_t len, char *const *full_options,
			size_t n, int procs, wl_builder_spawn spawn, const volatile int *stop, wl_builder_done done,
			void *ctx);

/* How many builders a run of n programs gets by default: a quarter of the
 * worker's share of the host's cores (OpenMP's threads), at most 8, at
 * least 1, never more than n. More
 * compile sooner but take the cores the run's launches need: on an H200's
 * 16-core host, 4 measured a 600-program space fastest, 8 slower
 * (bench/RESULTS.md). */
int wl_cl_builders_for(size_t n);

/* The builder's side: open device where (the platform's name, the
 * device's name and its place among devices of that name, a line each, as
 * wl_cl_builders_run gives it), read the source, then build each set of
 * options WL_BUILDER_FD sends until it closes, answering on it. Returns
 * the process's exit status: 0, or 1 where the device cannot be opened. */
int wl_cl_builder_main(const char *where);

#endif
