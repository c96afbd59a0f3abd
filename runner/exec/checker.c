/* The background verifier (checker.h): one thread, a job slot, a condition
 * variable for both directions. */
#include "checker.h"

#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct wl_checker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int threads;
	int busy;			/* a job given and not yet ended */
	int quit;
	struct wl_exact_check job;
	struct wl_measurement *res;
};

static void *checker_main(void *arg)
{
	struct wl_checker *c = arg;

	/* The OpenMP thread count is each thread's own setting: take the
	 * worker's share of the host's cores, not the process default. */
	if (c->threads > 0)
		omp_set_num_threads(c->threads);
	pthread_mutex_lock(&c->lock);
	for (;;) {
		while (!c->busy && !c->quit)
			pthread_cond_wait(&c->changed, &c->lock);
		if (!c->busy)
			break;
		pthread_mutex_unlock(&c->lock);
		c->res->verified = wl_exact_check_run(&c->job, c->res);
		pthread_mutex_lock(&c->lock);
		c->busy = 0;
		c->res = NULL;
		pthread_cond_broadcast(&c->changed);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

int wl_checker_new(int threads, struct wl_checker **out, struct wl_error *err)
{
	struct wl_checker *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	c->threads = threads;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->changed, NULL);
	if (pthread_create(&c->thread, NULL, checker_main, c) != 0) {
		pthread_cond_destroy(&c->changed);
		pthread_mutex_destroy(&c->lock);
		free(c);
		wl_error_set(err, WL_ERR_INTERNAL, "cannot start the verification thread");
		return -1;
	}
	*out = c;
	return 0;
}

void wl_checker_free(struct wl_checker *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	c->quit = 1;
	pthread_cond_broadcast(&c->changed);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	pthread_cond_destroy(&c->changed);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* With c->lock held: until no job is in progress. */
static void wait_locked(struct wl_checker *c)
{
	while (c->busy)
		pthread_cond_wait(&c->changed, &c->lock);
}

void wl_checker_start(struct wl_checker *c, const struct wl_exact_check *job,
		      struct wl_measurement *res)
{
	pthread_mutex_lock(&c->lock);
	wait_locked(c);
	c->job = *job;
	c->res = res;
	c->busy = 1;
	pthread_cond_broadcast(&c->changed);
	pthread_mutex_unlock(&c->lock);
}

void wl_checker_wait(struct wl_checker *c)
{
	pthread_mutex_lock(&c->lock);
	wait_locked(c);
	pthread_mutex_unlock(&c->lock);
}

void wl_checker_wait_for(struct wl_checker *c, const struct wl_measurement *res)
{
	pthread_mutex_lock(&c->lock);
	while (c->busy && c->res == res)
		pthread_cond_wait(&c->changed, &c->lock);
	pthread_mutex_unlock(&c->lock);
}

void wl_checker_wait_reading(struct wl_checker *c, const void *p, size_t bytes)
{
	uintptr_t lo = (uintptr_t)p, hi = lo + bytes;

	pthread_mutex_lock(&c->lock);
	while (c->busy && (uintptr_t)c->job.got >= lo && (uintptr_t)c->job.got < hi)
		pthread_cond_wait(&c->changed, &c->lock);
	pthread_mutex_unlock(&c->lock);
}
