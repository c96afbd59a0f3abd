/* Host work a point needs only later, done meanwhile: a CPU reference (the
 * reduction's sum, the dot product) computed on a thread of its own while the
 * device fills the inputs and times the first variants, and waited for where
 * the first output is checked against it, so the reference costs no wall
 * time of its own. Not for references that take the host's cores for long:
 * the transpose sweep's (a matrix a point) made this way competed with the
 * background checks for the cores and cost more than it hid (H100, 2026-11-27: its inputs and verification
 * 0.50 s made before the first launch, 0.72-0.97 s made beside it). */
#ifndef WL_HOST_JOB_H
#define WL_HOST_JOB_H

#include <pthread.h>

struct wl_host_job {
	pthread_t thread;
	void (*fn)(void *);
	void *ctx;
	int running;		/* started on its thread and not yet waited for */
};

/* Run fn(ctx) on a thread of its own, or now where no thread can start (it
 * is then done when this returns). Whatever fn writes is the caller's to
 * read only after wl_host_job_wait, which must come before j goes (the
 * thread reads fn and ctx from it). */
void wl_host_job_start(struct wl_host_job *j, void (*fn)(void *), void *ctx);

/* Until j's work has ended; at once where it ended before or never ran
 * (a zeroed job). */
void wl_host_job_wait(struct wl_host_job *j);

#endif
