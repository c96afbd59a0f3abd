/* Executing one claimed run: every (point, variant) measured, verified and
 * written to the store as it completes, then the run finished as done, failed
 * (with a message a person can act on) or cancelled, or put back in the queue
 * when the runner is asked to stop. */
#ifndef WL_EXECUTOR_H
#define WL_EXECUTOR_H

#include <signal.h>

#include "catalog.h"
#include "cl_device.h"
#include "cl_program.h"
#include "store.h"

struct wl_executor {
	struct wl_store *store;
	const struct wl_catalog *cat;
	struct wl_cl_devices *devs;
	struct wl_program_cache *programs;
	const char *kernels_dir;
	const char *version;
	long long warmup;		/* untimed launches before the timed ones */
	volatile sig_atomic_t *stop;	/* raised by SIGTERM/SIGINT */
};

/* Run claim to its end. Returns -1 only when the outcome could not be recorded
 * in the store. */
int wl_executor_run(struct wl_executor *ex, const struct wl_claim *claim, struct wl_error *err);

#endif
