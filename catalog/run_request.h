/* A stored run request typed once, for the runner that executes it: the
 * normalized JSON the validator wrote (request.h) with its experiment found
 * in the catalog or read from its own definition, its settings read by wl_run_settings_read's rules (where
 * what "absent" means in an older request is written, once), its points
 * expanded and its variants and custom kernels at hand. Usage:
 *
 *	struct wl_run_request rr;
 *
 *	if (wl_run_request_parse(cat, stored, &rr, err) < 0)
 *		... refuse the run: err says why ...
 *	... rr.exp, rr.settings.language, rr.pts.count, rr.nvariants ...
 *	wl_run_request_free(&rr);
 */
#ifndef WL_RUN_REQUEST_H
#define WL_RUN_REQUEST_H

#include <jansson.h>
#include <stddef.h>

#include "catalog.h"
#include "error.h"
#include "points.h"
#include "request.h"

struct wl_run_request {
	json_t *json;				/* the stored request: a reference of its own */
	const struct wl_experiment *exp;	/* the catalog's, or own */
	/* The request's own experiment, read from its definition
	 * (request_own.h), or NULL: owned. */
	struct wl_experiment *own;
	struct wl_run_settings settings;	/* its strings are json's */
	struct wl_points pts;			/* its own; in the catalog's param order */
	const json_t *variants;			/* json's array of built-in variant ids */
	const json_t *kernels;			/* json's array of custom kernels, or NULL */
	size_t nvariants;			/* the built-ins, then the custom kernels */
};

/* Type stored (a normalized request) against cat into *out, which takes a
 * reference to stored. 0; or -1 with err saying why (the experiment is not
 * in cat, a field holds what no validator writes, its params do not
 * expand) and *out empty, nothing held (wl_run_request_free on it is
 * harmless). Free a parsed one with wl_run_request_free. */
int wl_run_request_parse(const struct wl_catalog *cat, const json_t *stored, struct wl_run_request *out,
			 struct wl_error *err);

/* Release what rr holds and empty it; safe on an empty or freed one. */
void wl_run_request_free(struct wl_run_request *rr);

#endif
