/* A thread that verifies one variant's output on the host's cores while the
 * executor goes on to time the next variant on the device, so that the CPU's
 * comparison and the GPU's launches overlap. One check at a time: starting one
 * first waits for the one before it. */
#ifndef WL_CHECKER_H
#define WL_CHECKER_H

#include <stddef.h>

#include "error.h"
#include "verify.h"

struct wl_checker;

/* A checker whose comparisons use threads OpenMP threads (0: OpenMP's
 * default). -1 with err set when its thread cannot start; nothing is left. */
int wl_checker_new(int threads, struct wl_checker **out, struct wl_error *err);

/* Wait for the check in progress and end the thread; c may be NULL. */
void wl_checker_free(struct wl_checker *c);

/* Run job for res in the background: res->verified and res->error are set when
 * it ends. job's memory (got, array, ctx) and res must stay valid until then. */
void wl_checker_start(struct wl_checker *c, const struct wl_exact_check *job,
		      struct wl_measurement *res);

/* Wait for the check in progress, if any. */
void wl_checker_wait(struct wl_checker *c);

/* Wait for the check in progress only if it is res's. */
void wl_checker_wait_for(struct wl_checker *c, const struct wl_measurement *res);

/* Wait for the check in progress only if the output it reads lies in
 * [p, p + bytes): before that memory is written again. */
void wl_checker_wait_reading(struct wl_checker *c, const void *p, size_t bytes);

#endif
