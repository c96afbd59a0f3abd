/* Tracing a variant's memory accesses in the Oclgrind simulator (see
 * trace.c): warplab-runner --trace SPEC prints, as JSON, the traced figures
 * of one variant or custom kernel at one point beside its declared ones. */
#ifndef WL_TRACE_H
#define WL_TRACE_H

#include <stddef.h>

/* What --trace runs: the spec (a run request's JSON with one variant or
 * custom kernel, and optionally "lanes"), the kernels folder, and the
 * tracer's wall and CPU time (s) and address space (bytes). */
struct wl_trace_config {
	const char *spec, *kernels;
	long seconds, memory;
};

/* Run --trace for cfg->spec: sets Oclgrind up and runs this program again
 * under it (argv is this program's command line), which prints the figures
 * on stdout. Returns the process's exit status; a failure is said on
 * stderr. */
int wl_trace_main(const struct wl_trace_config *cfg, char **argv);

/* Why this host cannot trace (Oclgrind or the plugin missing), or NULL when
 * it can. */
const char *wl_trace_unavailable(void);


#endif
