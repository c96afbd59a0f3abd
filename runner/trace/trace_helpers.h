/* Where the tracer's helpers are: its Oclgrind plugin and warplab-cuda-ir,
 * beside warplab-runner in a build, in the installed library folder
 * (WL_LIBDIR) otherwise. */
#ifndef WL_TRACE_HELPERS_H
#define WL_TRACE_HELPERS_H

#include <stddef.h>

#define WL_TRACE_PLUGIN "libwarplab-trace.so"
#define WL_CUDA_IR "warplab-cuda-ir"

/* The helper called name beside this program, else in the installed
 * library folder, into out; -1 when there is none. */
int wl_trace_helper_path(const char *name, char *out, size_t len);

/* The Oclgrind plugin's path into out; -1 when there is none. */
int wl_trace_plugin_path(char *out, size_t len);

#endif
