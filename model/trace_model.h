/* A kernel's memory accesses as traced (runner/oclgrind_trace.cpp records
 * them in a simulator), grouped into warp requests and counted by the rules
 * of the warp model (warp_model.h), so a traced figure and a declared one
 * mean the same thing:
 * - a site is one memory instruction (its source line, load or store, global
 *   or local memory);
 * - a warp is lanes consecutive work-items of the traced work-group (linear
 *   local id, dimension 0 fastest);
 * - one request is one execution of a site by a warp: the k-th execution of
 *   the site by each of the warp's work-items;
 * - global: the distinct 32-byte sectors and 128-byte lines a request
 *   touches, and its useful bytes (distinct addresses times their size);
 * - local: the conflict degree over 32 banks of 4 bytes.
 * The trace's text is the plugin's: "S site line load|store global|local",
 * "A site lid k address bytes", "T kept dropped". */
#ifndef WL_TRACE_MODEL_H
#define WL_TRACE_MODEL_H

#include <stddef.h>

#include "error.h"
#include "warp_model.h"

#define WL_TRACE_SITES_MAX 256	/* memory instructions of one kernel */

struct wl_trace_site {
	int line;			/* 1-based source line, 0 where unknown */
	int store;			/* a store, else a load */
	int local;			/* local memory, else global */
	struct wl_access_figures figures;
};

struct wl_trace_figures {
	int lanes;
	int nsites;
	struct wl_trace_site sites[WL_TRACE_SITES_MAX];
	/* The variant's figures over all sites, as a declared prediction's
	 * (has_global, has_local, efficiency, the worst sectors_per_request and
	 * conflict_degree, the traced work-group's useful and moved bytes); its
	 * per-access array is not used. */
	struct wl_prediction total;
	long long records, dropped;	/* accesses counted, and past the plugin's limit */
};

/* Read the trace text[0..len) and count it for warps of lanes (1..64)
 * work-items into *out. -1 with err saying what is malformed (the line),
 * or that the trace has more sites than WL_TRACE_SITES_MAX; *out is then
 * not to be used. */
int wl_trace_count(const char *text, size_t len, int lanes, struct wl_trace_figures *out,
		   struct wl_error *err);

#endif
