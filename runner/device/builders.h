/* Builders: a run's programs built in processes of their own, beside its
 * points, whatever the language. NVIDIA's OpenCL compiler builds one program
 * at a time in a process however many threads ask, but processes build side
 * by side (120 programs 3.6x faster in 8 than in one on an H200's host;
 * bench/RESULTS.md); and a compiler that crashes on someone else's source
 * takes only its builder with it, where a compile at a point would take the
 * worker. A builder is this program again (warplab-runner --builder WHERE),
 * started by whoever the caller names (the worker's spawner) and confined as
 * a worker is; WHERE says what it builds for (cl_builders.h,
 * cuda_builders.h). On one socket it reads a source, then build options one
 * at a time, and answers each with the build's log, its binary and any text
 * beside it (CUDA's PTX); the worker makes each program or module from the
 * binary, which takes a fraction of a millisecond. Both sides are here:
 * they share the frames they speak (a 32-bit length, then that many
 * bytes). */
#ifndef WL_BUILDERS_H
#define WL_BUILDERS_H

#include <stddef.h>
#include <sys/types.h>

/* The file descriptor a builder speaks on (its standard input and output
 * go to /dev/null: nothing a compiler prints can break a frame). */
#define WL_BUILDER_FD 3

/* Start a builder of where: its socket in *fd, a pidfd of it in *pidfd (to
 * signal it with, whoever reaps it) and its pid in *pid, for the log; -1
 * where none can be started. The caller closes both descriptors. */
typedef int (*wl_builder_spawn)(const char *where, int *fd, int *pidfd, pid_t *pid);

/* What a builder made of program i: its binary (len bytes), the compiler's
 * log and the text beside it ("" where none), or binary NULL where it did
 * not build, its builder died or the work was stopped. Called on
 * wl_builders_run's thread, once for each i. */
typedef void (*wl_builder_done)(void *ctx, size_t i, const unsigned char *binary, size_t len, const char *log,
				const char *beside);

/* Build text (len bytes) for where with each of options[0..n) in up to
 * procs builders started by spawn, handed out in the order given, each
 * handed to done as it finishes; for names what they build for in the log
 * (a device's id). Returns when done has had every i: built, failed, or
 * abandoned once *stop is set or no builder is left. Every builder is told
 * to end (its socket closed; killed where it was still building) before the
 * call returns. */
void wl_builders_run(const char *where, const char *for_, const char *text, size_t len, char *const *options,
		     size_t n, int procs, wl_builder_spawn spawn, const volatile int *stop, wl_builder_done done,
		     void *ctx);

/* How many builders a run of n programs gets by default: one for each
 * cores_each of the worker's share of the host's cores (OpenMP's threads),
 * at most 8, at least 1, never more than n. More compile sooner but take
 * the cores the run's launches need. On an H200's 16-core host
 * (bench/RESULTS.md) a 600-program OpenCL space was measured fastest with 4
 * builders: with 8, NVIDIA's OpenCL launches slowed more than the builds
 * gained; a 600-module CUDA space was twice as fast with 8 as with 4, its
 * launches unchanged. */
#define WL_BUILDER_CORES_OPENCL 4
#define WL_BUILDER_CORES_CUDA 2
int wl_builders_for(size_t n, int cores_each);

/* The builder's side: read the source from WL_BUILDER_FD, then each set of
 * options until it closes, handing each to build (with ctx), which answers
 * with wl_builder_answer; stops where build returns -1. */
void wl_builder_serve(int (*build)(void *ctx, const char *text, size_t len, const char *options), void *ctx);

/* A build's answer on WL_BUILDER_FD: its log, its binary (len bytes; none
 * where it did not build) and the text beside it (NULL: none). -1 where the
 * worker is gone. */
int wl_builder_answer(const char *log, const void *binary, size_t len, const char *beside);

#endif
