/* Why the Oclgrind simulator could not run a kernel, in its author's words.
 * Oclgrind stops at what it does not implement: a function it does not have
 * (an LLVM intrinsic clang made of plain code, as llvm.bitreverse of a
 * hand-written bit reversal, or an OpenCL built-in it lacks) when it makes
 * the kernel, an instruction it does not run while the kernel runs. Either
 * way it writes "OCLGRIND FATAL ERROR (file:line)" and the reason on stderr,
 * and the OpenCL call fails with a code that says nothing to the kernel's
 * author (CL_INVALID_KERNEL_NAME). The tracer reads those lines (trace.c) and
 * says instead what could not run, what it is and the source line it came
 * from, and that the kernel's measurements stand: only the trace is missing.
 * Plain C with no dependency, so warplab-cuda-ir (cuda_ir.cpp) words a CUDA
 * kernel's intrinsics alike. */
#ifndef WL_UNTRACEABLE_H
#define WL_UNTRACEABLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the LLVM intrinsic name (llvm.bitreverse.i32) computes, in words ("a
 * bit reversal"), or NULL where this table does not know it. */
const char *wl_intrinsic_words(const char *name);

/* The intrinsic name, what it is and where it came from, into out: "llvm.
 * bitreverse.i32 (a bit reversal, which the compiler made of line 9)"; "...
 * (a bit reversal the compiler made)" where line is 0; "the LLVM intrinsic
 * NAME (...)" where its words are unknown. Cut to len (a NUL always). */
void wl_intrinsic_phrase(const char *name, unsigned line, char *out, size_t len);

/* The source line of a call of callee (a function's name as Oclgrind says
 * it) in kernel's program, or 0 where it cannot be found; ctx is the
 * caller's. */
typedef unsigned (*wl_call_line_fn)(void *ctx, const char *kernel, const char *callee);

/* Whether log (what the traced process wrote on stderr) holds an Oclgrind
 * fatal error; where it does, returns 1 with the reason into out ("not
 * traced: the simulator cannot run llvm.bitreverse.i32 (a bit reversal,
 * which the compiler made of line 9); the kernel's measurements stand"),
 * the line asked of line_of (NULL: none) where Oclgrind names a function
 * and its kernel, else read from its message. Returns 0 and leaves out
 * alone where log holds none. The last error counts: the one that stopped
 * the run. */
int wl_untraceable_reason(const char *log, wl_call_line_fn line_of, void *ctx, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
