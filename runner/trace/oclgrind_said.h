/* What Oclgrind says on stderr while the traced kernel is made and run (the
 * traced process of trace.c): kept aside, so that why the simulator stopped
 * can be read back (untraceable.h), and written on to stderr as before, so
 * that the tracer's log keeps it. And the source line of a call Oclgrind
 * could not make, found in the programs' bitcode by the trace plugin
 * (oclgrind_trace.cpp), which Oclgrind has loaded into this process. */
#ifndef WL_OCLGRIND_SAID_H
#define WL_OCLGRIND_SAID_H

#include <stddef.h>

#include "cl_device.h"
#include "error.h"

struct wl_said {
	int saved;		/* stderr as it was */
	int fd;			/* where it goes meanwhile (memory) */
};

/* Keep what this process writes on stderr from now on. -1 with err, stderr
 * then as it was. */
int wl_said_begin(struct wl_said *s, struct wl_error *err);

/* Stop keeping: stderr as before, what was written meanwhile written on to
 * it and returned (the caller frees; NULL where it cannot be read back). */
char *wl_said_end(struct wl_said *s);

/* The programs a failed kernel may have been made from. */
struct wl_said_programs {
	const cl_program *list;
	size_t n;
};

/* The source line of the first call of callee (as Oclgrind names a function
 * it does not have) in the program of programs (a struct wl_said_programs)
 * that defines kernel, by the plugin's warplab_trace_call_line; 0 where it
 * cannot be found. A wl_call_line_fn (untraceable.h). */
unsigned wl_said_call_line(void *programs, const char *kernel, const char *callee);

#endif
