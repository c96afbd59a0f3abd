/* What each variant of a run was built as: the first time a variant's kernel
 * is prepared with a set of build options, its own figures (local and
 * private memory, the driver's work-group limits) and the compiler's account
 * of its program (log, PTX) are noted, and each distinct shape of its launch
 * (work-group size, local memory given through arguments) after that; after
 * each point what is new goes to the store (wl_store_put_build), so a run
 * page shows it without building anything again. */
#ifndef WL_BUILD_RECORDS_H
#define WL_BUILD_RECORDS_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "error.h"
#include "store.h"

struct wl_point;
struct wl_launch;
struct build_note;

/* The notes of one run; zero-initialised is empty. */
struct wl_build_records {
	struct build_note *head;
};

/* Note that pt's variant (pt->variant) was prepared as l, its kernel built
 * with options and given local_arg_bytes of local memory through its
 * arguments. A (variant, options) already noted gains the launch's shape
 * when it is new (up to 16 shapes). Best
 * effort: what cannot be read is left out, and out of memory nothing is
 * noted (the measurement never depends on it). */
void wl_build_records_note(struct wl_build_records *r, const struct wl_point *pt, const char *options,
			   const struct wl_launch *l, long long local_arg_bytes);

/* Write the notes not yet written to run_id's builds. -1 with the store's
 * error leaves the unwritten ones for the next flush. */
int wl_build_records_flush(struct wl_build_records *r, struct wl_store *st, long long run_id,
			   struct wl_error *err);

/* Forget every note. */
void wl_build_records_clear(struct wl_build_records *r);

#endif
