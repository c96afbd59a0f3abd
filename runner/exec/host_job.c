/* Host work on a thread of its own (see host_job.h). */
#include "host_job.h"

static void *run(void *arg)
{
	struct wl_host_job *j = arg;

	j->fn(j->ctx);
	return NULL;
}

void wl_host_job_start(struct wl_host_job *j, void (*fn)(void *), void *ctx)
{
	j->running = 0;
	j->fn = fn;
	j->ctx = ctx;
	if (pthread_create(&j->thread, NULL, run, j) == 0) {
		j->running = 1;
		return;
	}
	fn(ctx);
}

void wl_host_job_wait(struct wl_host_job *j)
{
	if (!j->running)
		return;
	pthread_join(j->thread, NULL);
	j->running = 0;
}
