/* CUDA's builders, both sides (see cuda_builders.h): the worker's thread
 * that hands a run's modules to builder processes and takes their answers,
 * and the builder's compiles. */
#include "cuda_builders.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_compile.h"
#include "log.h"

/* One run's modules on their way: what the builders are sent, copied (the
 * thread frees it: it may outlive the run). */
struct cuda_farm {
	int arch, procs;
	char hash[17];
	char *text;
	size_t len, count;
	char **options;
	wl_builder_spawn spawn;
	char for_[64];
	volatile int stop;
};

/* The farm of the run now measured, for wl_cuda_builders_stop; the source
 * its modules are of (kept once it ends: what its run did not take is
 * dropped when the run ends); the farms not yet ended, which the worker's
 * end waits for. */
static struct cuda_farm *current;
static char current_hash[17];
static int live;
static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t farm_ended = PTHREAD_COND_INITIALIZER;

static void farm_free(struct cuda_farm *f)
{
	for (size_t i = 0; f->options && i < f->count; i++)
		free(f->options[i]);
	free(f->options);
	free(f->text);
	free(f);
}

/* Module i as its builder answered: made into the worker's, and arrived
 * (NULL where it did not compile, or the work stopped). */
static void farm_done(void *ctx, size_t i, const unsigned char *binary, size_t len, const char *log, const char *beside)
{
	struct cuda_farm *f = ctx;
	struct wl_cuda_compiled *made = binary ? wl_cuda_compiled_made(f->hash, f->options[i], binary, len, log, beside)
					       : NULL;

	if (made)
		wl_log_info("compiled CUDA module %s for %s (options '%s') by a builder process beside the run", f->hash,
			    f->for_, f->options[i]);
	wl_cuda_compiled_arrive(f->hash, f->options[i], made);
}

static void *farm_main(void *arg)
{
	struct cuda_farm *f = arg;
	char where[32];
	int newer;

	snprintf(where, sizeof(where), "cuda\n%d", f->arch);
	wl_builders_run(where, f->for_, f->text, f->len, f->options, f->count, f->procs, f->spawn, &f->stop, farm_done, f);
	/* Stopped, its run has ended: what arrived since is no one's, unless a
	 * newer run of the same source has a farm of its own. */
	pthread_mutex_lock(&current_lock);
	newer = current && current != f && strcmp(current->hash, f->hash) == 0;
	pthread_mutex_unlock(&current_lock);
	if (f->stop && !newer)
		wl_cuda_compiled_drop(f->hash);
	pthread_mutex_lock(&current_lock);
	if (current == f)
		current = NULL;
	live--;
	pthread_cond_broadcast(&farm_ended);
	pthread_mutex_unlock(&current_lock);
	farm_free(f);
	return NULL;
}

/* f with src's text and the options copied; -1 when out of memory. */
static int farm_fill(struct cuda_farm *f, const struct wl_source *src, char (*options)[128], size_t n)
{
	if (!(f->text = malloc(src->len + 1)) || !(f->options = calloc(n ? n : 1, sizeof(*f->options))))
		return -1;
	memcpy(f->text, src->text, src->len);
	f->text[src->len] = '\0';
	f->len = src->len;
	memcpy(f->hash, src->hash, sizeof(f->hash));
	for (; f->count < n; f->count++)
		if (!(f->options[f->count] = strdup(options[f->count])))
			return -1;
	return 0;
}

size_t wl_cuda_builders_start(int arch, const struct wl_source *src, char (*options)[128], size_t n, int procs,
			      wl_builder_spawn spawn, const char *for_)
{
	struct cuda_farm *f = calloc(1, sizeof(*f));
	pthread_attr_t attr;
	pthread_t thread;
	size_t expected = 0;
	int started;

	if (!f)
		return 0;
	f->arch = arch;
	f->procs = procs;
	f->spawn = spawn;
	snprintf(f->for_, sizeof(f->for_), "%s", for_);
	if (farm_fill(f, src, options, n) < 0) {
		farm_free(f);
		return 0;
	}
	/* Said to be coming before the thread starts: a point waits for its
	 * own rather than compiling it too. One that cannot be said is left
	 * to its point. */
	for (size_t i = 0; i < f->count; i++)
		if (wl_cuda_compiled_expect(src, f->options[i]) == 0)
			f->options[expected++] = f->options[i];
		else
			free(f->options[i]);
	f->count = expected;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_mutex_lock(&current_lock);
	started = f->count > 0 && pthread_create(&thread, &attr, farm_main, f) == 0;
	if (started) {
		current = f;
		memcpy(current_hash, f->hash, sizeof(current_hash));
		live++;
	}
	pthread_mutex_unlock(&current_lock);
	pthread_attr_destroy(&attr);
	if (started)
		return expected;
	/* No thread: nothing is coming after all; each point compiles its own. */
	for (size_t i = 0; i < f->count; i++)
		wl_cuda_compiled_arrive(f->hash, f->options[i], NULL);
	farm_free(f);
	return 0;
}

void wl_cuda_builders_stop(void)
{
	char hash[17];

	pthread_mutex_lock(&current_lock);
	if (current)
		current->stop = 1;
	memcpy(hash, current_hash, sizeof(hash));
	current_hash[0] = '\0';
	pthread_mutex_unlock(&current_lock);
	if (hash[0])
		wl_cuda_compiled_drop(hash);
}

void wl_cuda_builders_end(void)
{
	wl_cuda_builders_stop();
	pthread_mutex_lock(&current_lock);
	while (live > 0)
		pthread_cond_wait(&farm_ended, &current_lock);
	pthread_mutex_unlock(&current_lock);
}

/* The builder's NVRTC and compute capability. */
struct cuda_builder {
	const struct wl_nvrtc *nv;
	int arch;
};

/* One module compiled from text with options: ptxas's report, the cubin and
 * the PTX sent back, or NVRTC's words and no cubin where it did not
 * compile. -1 where the worker is gone. */
static int builder_build(void *arg, const char *text, size_t len, const char *options)
{
	const struct cuda_builder *b = arg;
	char *bin = NULL, *log = NULL, *ptx = NULL;
	size_t bin_len = 0;
	struct wl_error err;
	int rc;

	(void)len;
	wl_error_clear(&err);
	if (wl_cuda_compile_text(b->nv, b->arch, text, options, &bin, &bin_len, &log, &ptx, &err) < 0)
		rc = wl_builder_answer(err.msg, NULL, 0, NULL);
	else
		rc = wl_builder_answer(log, bin, bin_len, ptx);
	free(bin);
	free(log);
	free(ptx);
	return rc;
}

int wl_cuda_builder_main(const struct wl_nvrtc *nv, const char *where)
{
	struct cuda_builder b = { .nv = nv };
	char *end;
	long arch = strtol(where, &end, 10);

	if (!nv->handle || end == where || *end || arch < 10 || arch > 1000) {
		wl_log_error("--builder cuda %s: %s", where, nv->handle ? "no compute capability" : "no NVRTC");
		return 1;
	}
	b.arch = (int)arch;
	wl_builder_serve(builder_build, &b);
	return 0;
}
