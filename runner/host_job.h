/* Host work a point needs only later, done meanwhile: a CPU reference (a
 * transpose, a sum) computed on a thread of its own while the device fills
 * the inputs and times the first variants, and waited for where the first
 * output is checked against it (issue 35: a point's inputs are no longer
 * made before its first launch). */
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
