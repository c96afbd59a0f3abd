/* A kernel's memory accesses as traced (runner/trace/oclgrind_trace.cpp records
 * them in a simulator: the first and the last work-group of the launch),
 * grouped into warp requests and counted by the one analysis a declared
 * kernel's simulated requests go through (requests.h), so a traced figure
 * and a declared one mean the same thing and end in the same ceilings:
 * - a site is one memory instruction (its source line, load, store or
 *   atomic, global or local memory), its global buffer the one its first
 *   address falls in;
 * - a warp is lanes consecutive work-items of the group (linear local id,
 *   dimension 0 fastest);
 * - one request is one execution of a site by a warp: the k-th execution of
 *   the site by each of the warp's work-items; where a work-item executed a
 *   site more often than the plugin recorded, each recorded request of its
 *   warp stands for its share of them all.
 * The trace's text is the plugin's (oclgrind_trace.cpp's header says each
 * line). */
#ifndef WL_TRACE_MODEL_H
#define WL_TRACE_MODEL_H

#include <stddef.h>

#include "error.h"
#include "requests.h"
#include "warp_model.h"

#define WL_TRACE_SITES_MAX WL_REQUEST_SITES	/* memory instructions of one kernel */

struct wl_trace_site {
	int line;			/* 1-based source line, 0 where unknown */
	enum wl_op op;
	int local;			/* local memory, else global */
	int buffer;			/* a global site's buffer, in address order, or -1 */
	struct wl_site_figures figures;
};

struct wl_trace_figures {
	int lanes;
	int dims;			/* the launch's dimensions */
	long long groups[3], local[3];	/* its work-groups and work-group per dimension */
	int nsites;
	struct wl_trace_site sites[WL_TRACE_SITES_MAX];
	/* The kernel's figures over all sites, as a declared prediction's:
	 * has_global, has_local, efficiency, the worst sectors_per_request and
	 * conflict_degree, the traced group's useful and moved bytes, and in
	 * work what one work-group asks with the launch's groups, items,
	 * barriers, instructions and buffers; its per-access array is not used. */
	struct wl_prediction total;
	long long records, dropped;	/* accesses recorded, and past the plugin's limit */
	int groups_sampled;		/* the work-groups the plugin chose (0: an older trace) */
	int groups_traced;		/* those whose lines the trace holds: fewer where its budget ran out */
};

/* Read the trace text[0..len) and count it for warps of lanes (1..64)
 * work-items into *out. -1 with err saying what is malformed (the line),
 * or that the trace has more sites than WL_TRACE_SITES_MAX; *out is then
 * not to be used. */
int wl_trace_count(const char *text, size_t len, int lanes, struct wl_trace_figures *out,
		   struct wl_error *err);

#endif
