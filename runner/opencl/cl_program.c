/* The program cache: a short list of built programs, searched linearly (a
 * runner builds a handful of distinct programs in its life), in front of the
 * binaries kept on disk. */
#include "cl_program.h"

#include "builders.h"
#include "cl_builders.h"
#include "cl_program_build.h"
#include "program_disk.h"

#include "backend.h"
#include "build_log.h"
#include "compiler_account.h"

#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "clock.h"

struct cached_program {
	const struct wl_device *dev;
	char hash[17];
	char *options;
	cl_program program;
	char *log;		/* the compiler's, as users see it */
	char *ptx;		/* NVIDIA's program text, as users see it, or NULL */
	size_t ptx_dropped;	/* the length of a PTX too long to keep, else 0 */
	struct cached_program *next;
};

struct wl_program_cache {
	struct cached_program *head;
	char *build_log;	/* of the last failed build */
	char *dir;		/* where binaries are kept, or NULL */
	long built, loaded;
	/* A run's programs building beside its points (wl_program_behind_start),
	 * taken one by one as its points ask for them, or NULL. */
	struct wl_program_ahead *behind;
	wl_builder_spawn spawn;	/* starts builder processes, or NULL */
	int builders;		/* how many a run has; -1: as wl_builders_for says */
};

static void behind_join(struct wl_program_cache *cache);

struct wl_program_cache *wl_program_cache_new(const char *dir)
{
	struct wl_program_cache *cache = calloc(1, sizeof(*cache));

	if (cache && dir && *dir && !(cache->dir = strdup(dir))) {
		free(cache);
		return NULL;
	}
	return cache;
}

void wl_program_cache_spawn_with(struct wl_program_cache *cache, wl_builder_spawn spawn, int builders)
{
	cache->spawn = spawn;
	cache->builders = builders;
}

int wl_program_cache_builders(const struct wl_program_cache *cache, size_t n, int cores_each, wl_builder_spawn *spawn)
{
	*spawn = cache->spawn;
	if (!cache->spawn || cache->builders == 0)
		return 0;
	return cache->builders > 0 ? cache->builders : wl_builders_for(n, cores_each);
}

void wl_program_cache_counts(const struct wl_program_cache *cache, long *built, long *loaded)
{
	*built = cache->built;
	*loaded = cache->loaded;
}

static void cached_free(struct cached_program *c)
{
	if (c->program)
		clReleaseProgram(c->program);
	free(c->options);
	free(c->log);
	free(c->ptx);
	free(c);
}

void wl_program_cache_free(struct wl_program_cache *cache)
{
	if (!cache)
		return;
	behind_join(cache);
	while (cache->head) {
		struct cached_program *next = cache->head->next;

		cached_free(cache->head);
		cache->head = next;
	}
	free(cache->build_log);
	free(cache->dir);
	free(cache);
}

void wl_program_cache_drop_device(struct wl_program_cache *cache, const struct wl_device *dev)
{
	struct cached_program **link;

	/* What builds beside a run does so in the context about to go. */
	behind_join(cache);
	link = &cache->head;
	while (*link) {
		struct cached_program *c = *link;

		if (c->dev == dev) {
			*link = c->next;
			cached_free(c);
		} else {
			link = &c->next;
		}
	}
}

size_t wl_program_cache_programs(const struct wl_program_cache *cache, const struct wl_device *dev, cl_program *out,
				 size_t cap)
{
	size_t n = 0;

	for (const struct cached_program *c = cache->head; c && n < cap; c = c->next)
		if (c->dev == dev)
			out[n++] = c->program;
	return n;
}

const char *wl_program_cache_build_log(const struct wl_program_cache *cache)
{
	return cache->build_log ? cache->build_log : "";
}

/* Keep the compiler's account of c's program (its log, and its PTX where the
 * binary is PTX), and the binary on disk for the next runner when src is
 * worth it (best effort). log is the build's, owned by the caller. */
static void keep_account(struct wl_program_cache *cache, struct cached_program *c,
			 const struct wl_device *dev, const struct wl_source *src, const char *key,
			 const char *log, int built)
{
	struct wl_program_file file = { NULL, 0, (char *)log, NULL };
	struct wl_error err;

	file.binary = wl_program_binary(c->program, &file.binary_len);
	c->log = wl_build_log_for_users(log);
	/* Someone's kernel may make megabytes of warnings or of unrolled code:
	 * what is kept for the run page is bounded. */
	if (c->log && strlen(c->log) > WL_ACCOUNT_LOG_MAX) {
		size_t more = strlen(c->log) - WL_ACCOUNT_LOG_MAX;

		snprintf(c->log + WL_ACCOUNT_LOG_MAX - 64, 64, "\n[the log goes on for %zu more bytes]\n", more);
	}
	if (file.binary && wl_ptx_is_text(file.binary, file.binary_len)) {
		if (file.binary_len > WL_ACCOUNT_PTX_MAX)
			c->ptx_dropped = file.binary_len;
		else
			c->ptx = wl_ptx_for_users((const char *)file.binary, file.binary_len);
	}
	if (built && file.binary && cache->dir && src->keep_binary &&
	    wl_program_disk_save(cache->dir, key, src->text, src->len, &file, &err) < 0)
		wl_log_warn("program %s for %s not kept: %s", src->hash, dev->id, err.msg);
	free(file.binary);
}

static struct cached_program *cached_find(const struct wl_program_cache *cache, const struct wl_device *dev,
					  const struct wl_source *src, const char *options)
{
	for (struct cached_program *c = cache->head; c; c = c->next)
		if (c->dev == dev && strcmp(c->hash, src->hash) == 0 && strcmp(c->options, options) == 0)
			return c;
	return NULL;
}

int wl_program_account(const struct wl_program_cache *cache, const struct wl_device *dev,
		       const struct wl_source *src, const char *options, struct wl_program_texts *out)
{
	const struct cached_program *c = cached_find(cache, dev, src, options);

	if (!c)
		return -1;
	out->log = c->log ? c->log : "";
	out->ptx = c->ptx;
	out->ptx_dropped = c->ptx_dropped;
	return 0;
}

/* Add program (src with options for dev, the log of its build, loaded from
 * disk or not, kept on disk already or not) to the cache, which owns it
 * from then on, even on failure (out of memory: released). */
static struct cached_program *cache_add(struct wl_program_cache *cache, const struct wl_device *dev,
					const struct wl_source *src, const char *options, const char *key,
					cl_program program, const char *log, int loaded, int kept, const char *how,
					struct wl_error *err)
{
	struct cached_program *c = calloc(1, sizeof(*c));

	if (!c || !(c->options = strdup(options))) {
		free(c);
		clReleaseProgram(program);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	c->dev = dev;
	memcpy(c->hash, src->hash, sizeof(c->hash));
	c->program = program;
	keep_account(cache, c, dev, src, key, log, !loaded && !kept);
	c->next = cache->head;
	cache->head = c;
	if (loaded)
		cache->loaded++;
	else
		cache->built++;
	wl_log_info("%s program %s for %s (options '%s')%s", loaded ? "loaded" : "built", src->hash,
		    dev->id, options, how);
	return c;
}

static struct cached_program *behind_take(struct wl_program_cache *cache, const struct wl_device *dev,
					  const struct wl_source *src, const char *options, struct wl_error *err);

int wl_program_get(struct wl_program_cache *cache, struct wl_device *dev,
		   const struct wl_source *src, const char *options, cl_program *out,
		   struct wl_error *err)
{
	struct cached_program *c = cached_find(cache, dev, src, options);
	cl_program program;
	char key[1024], *log;
	int loaded = 0;

	if (!c)
		c = behind_take(cache, dev, src, options, err);
	if (c) {
		*out = c->program;
		return 0;
	}
	if (wl_cl_device_open(dev, err) < 0)
		return -1;
	wl_program_disk_key(dev, src, options, key, sizeof(key));
	program = wl_program_build(cache->dir, dev, src, options, key, &loaded, &log, &cache->build_log, err);
	if (!program)
		return -1;
	c = cache_add(cache, dev, src, options, key, program, log, loaded, 0, "", err);
	free(log);
	if (!c)
		return -1;
	*out = program;
	return 0;
}

/* One program of a batch built ahead: what to build, then what came of it
 * (done: the thread is through with it, said under the batch's lock;
 * taken: a point took it, the worker's own mark). */
struct ahead_item {
	const struct wl_source *src;
	char *options;
	char key[1024];
	cl_program program;
	char *log;
	int loaded, done, taken;
};

struct wl_program_ahead {
	const struct wl_device *dev;
	const char *dir;
	struct ahead_item *items;
	size_t count;
	pthread_t thread;
	double ms;		/* the thread's time, building */
	struct wl_source *own;	/* a run's source, copied: what its items build, or NULL */
	int threads;		/* building at once: 0, as many as the host has */
	int builders;		/* > 0: in this many processes (builders.h), not threads */
	wl_builder_spawn spawn;	/* builders: what starts them */
	volatile sig_atomic_t stop;	/* no more wanted (builders look; threads finish) */
	char **full;		/* builders: each item's options as built */
	pthread_mutex_t lock;	/* guards the items' done */
	pthread_cond_t done_one;
};

/* The programs in parallel on the host's cores: OpenCL's calls are
 * thread-safe but for a kernel's arguments, and each program is its own. */
static void *ahead_main(void *arg)
{
	struct wl_program_ahead *a = arg;
	double started = wl_now_ms();
	int count = (int)a->count, threads = a->threads > 0 ? a->threads : omp_get_max_threads();

#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
	for (int i = 0; i < count; i++) {
		struct ahead_item *it = &a->items[i];
		struct wl_error err;

		/* A program that does not build is built again by the run that
		 * needs it, which says why. */
		it->program = wl_program_build(a->dir, a->dev, it->src, it->options, it->key, &it->loaded, &it->log, NULL,
					       &err);
		/* Kept on disk at once, for the workers of this host's other
		 * devices of the model to load rather than build. */
		if (it->program && !it->loaded)
			wl_program_keep(a->dir, a->dev, it->src, it->key, it->program, it->log);
		pthread_mutex_lock(&a->lock);
		it->done = 1;
		pthread_cond_broadcast(&a->done_one);
		pthread_mutex_unlock(&a->lock);
	}
	a->ms = wl_now_ms() - started;
	return NULL;
}

/* What a builder made of item i: its program made from the binary in
 * this process, and the item said done. */
static void builder_done(void *ctx, size_t i, const unsigned char *binary, size_t len, const char *log,
			 const char *beside)
{
	struct wl_program_ahead *a = ctx;
	struct ahead_item *it = &a->items[i];

	(void)beside;
	if (binary && !(it->program = wl_program_from_binary(a->dev, binary, len, a->full[i])))
		wl_log_warn("a builder's program (options '%s') did not load from its binary: built at its point",
			    it->options);
	if (it->program && !(it->log = strdup(log ? log : ""))) {
		clReleaseProgram(it->program);
		it->program = NULL;
	}
	pthread_mutex_lock(&a->lock);
	it->done = 1;
	pthread_cond_broadcast(&a->done_one);
	pthread_mutex_unlock(&a->lock);
}

/* The programs of one source built by builder processes. */
static void *builders_main(void *arg)
{
	struct wl_program_ahead *a = arg;
	double started = wl_now_ms();
	char where[640];
	int placed = wl_cl_builder_place(a->dev, where, sizeof(where)) == 0;

	wl_builders_run(placed ? where : NULL, a->dev->id, a->own->text, a->own->len, a->full, a->count, a->builders,
			a->spawn, &a->stop, builder_done, a);
	a->ms = wl_now_ms() - started;
	return NULL;
}

static void ahead_free(struct wl_program_ahead *a)
{
	for (size_t i = 0; i < a->count; i++) {
		if (a->items[i].program)
			clReleaseProgram(a->items[i].program);
		free(a->items[i].options);
		free(a->items[i].log);
		if (a->full)
			free(a->full[i]);
	}
	free(a->full);
	free(a->items);
	if (a->own)
		wl_source_free(a->own);
	free(a->own);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->done_one);
	free(a);
}

/* Each item's options as built, for the builders; -1 when out of memory. */
static int builders_options(struct wl_program_ahead *a)
{
	if (!(a->full = calloc(a->count ? a->count : 1, sizeof(*a->full))))
		return -1;
	for (size_t i = 0; i < a->count; i++)
		if (!(a->full[i] = wl_program_build_options(a->dev, a->items[i].options)))
			return -1;
	return 0;
}

/* wl_program_ahead_start's, threads building at once (0: as many as the
 * host has), or builder processes where builders > 0 (every source then
 * own). own (or NULL) becomes the batch's once it starts; on failure it is
 * still the caller's. */
static struct wl_program_ahead *ahead_start(const struct wl_program_cache *cache, struct wl_device *dev,
					    const struct wl_source *const *srcs, const char *const *options, size_t n,
					    int threads, int builders, struct wl_source *own, struct wl_error *err)
{
	struct wl_program_ahead *a = calloc(1, sizeof(*a));

	if (!a || !(a->items = calloc(n ? n : 1, sizeof(*a->items)))) {
		free(a);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->done_one, NULL);
	a->threads = threads;
	a->dev = dev;
	a->dir = cache->dir;
	for (size_t i = 0; i < n; i++) {
		if (cached_find(cache, dev, srcs[i], options[i]))
			continue;
		a->items[a->count].src = srcs[i];
		if (!(a->items[a->count].options = strdup(options[i]))) {
			ahead_free(a);
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return NULL;
		}
		/* The key reads dev->info, which this thread goes on changing. */
		wl_program_disk_key(dev, srcs[i], options[i], a->items[a->count].key, sizeof(a->items[a->count].key));
		a->count++;
	}
	if (wl_cl_device_open(dev, err) < 0) {
		ahead_free(a);
		return NULL;
	}
	a->builders = builders;
	a->spawn = cache->spawn;
	if (builders > 0 && builders_options(a) < 0) {
		ahead_free(a);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	a->own = own;
	if (pthread_create(&a->thread, NULL, builders > 0 ? builders_main : ahead_main, a) != 0) {
		a->own = NULL;
		ahead_free(a);
		wl_error_set(err, WL_ERR_INTERNAL, "no thread to build programs ahead");
		return NULL;
	}
	return a;
}

struct wl_program_ahead *wl_program_ahead_start(const struct wl_program_cache *cache, struct wl_device *dev,
						const struct wl_source *const *srcs, const char *const *options,
						size_t n, struct wl_error *err)
{
	return ahead_start(cache, dev, srcs, options, n, 0, 0, NULL, err);
}

size_t wl_program_ahead_join(struct wl_program_cache *cache, struct wl_program_ahead *ahead, double *ms)
{
	size_t added = 0;

	*ms = 0;
	if (!ahead)
		return 0;
	/* Builders building someone else's code stop with its run. */
	ahead->stop = 1;
	pthread_join(ahead->thread, NULL);
	*ms = ahead->ms;
	for (size_t i = 0; i < ahead->count; i++) {
		struct ahead_item *it = &ahead->items[i];
		struct wl_error err;

		/* The same program may come twice (two sources of one text). */
		if (!it->program || cached_find(cache, ahead->dev, it->src, it->options))
			continue;
		if (cache_add(cache, ahead->dev, it->src, it->options, it->key, it->program, it->log, it->loaded, 1,
			      " ahead", &err))
			added++;
		else
			wl_log_warn("program %s not kept: %s", it->src->hash, err.msg);
		it->program = NULL;	/* the cache's, or released */
	}
	ahead_free(ahead);
	return added;
}

void wl_program_behind_stop(struct wl_program_cache *cache)
{
	if (cache && cache->behind)
		cache->behind->stop = 1;
}

/* Join what builds beside a run, keeping what it built that no point took. */
static void behind_join(struct wl_program_cache *cache)
{
	double ms;

	if (cache->behind)
		wl_program_ahead_join(cache, cache->behind, &ms);
	cache->behind = NULL;
}

/* src's program with options for dev from what builds beside the run: waited
 * for, and added to the cache; NULL where it is not among them or did not
 * build (the caller builds it, and says why). */
static struct cached_program *behind_take(struct wl_program_cache *cache, const struct wl_device *dev,
					  const struct wl_source *src, const char *options, struct wl_error *err)
{
	struct wl_program_ahead *b = cache->behind;
	struct ahead_item *it = NULL;
	struct cached_program *c;

	for (size_t i = 0; b && b->dev == dev && !it && i < b->count; i++)
		if (!b->items[i].taken && strcmp(b->items[i].src->hash, src->hash) == 0 &&
		    strcmp(b->items[i].options, options) == 0)
			it = &b->items[i];
	if (!it)
		return NULL;
	it->taken = 1;
	pthread_mutex_lock(&b->lock);
	while (!it->done)
		pthread_cond_wait(&b->done_one, &b->lock);
	pthread_mutex_unlock(&b->lock);
	if (!it->program)
		return NULL;
	c = cache_add(cache, dev, src, options, it->key, it->program, it->log, it->loaded, 1,
		      b->builders > 0 ? " by a builder process beside the run" : " beside the run", err);
	it->program = NULL;	/* the cache's, or released */
	return c;
}

/* NVIDIA's OpenCL compiler barely overlaps builds (20 at once are 1.2x
 * faster than one after another; bench/RESULTS.md): a run's are built two at
 * a time, so they arrive one by one, the first points' first, and the
 * run's own host work (inputs, checks) keeps the other cores. */
#define BEHIND_THREADS 2

size_t wl_program_behind_start(struct wl_program_cache *cache, struct wl_device *dev, const struct wl_source *src,
			       const char *const *options, size_t n, int builders, struct wl_error *err)
{
	struct wl_source *own = calloc(1, sizeof(*own));
	const struct wl_source **srcs = calloc(n ? n : 1, sizeof(*srcs));
	struct wl_program_ahead *a = NULL;

	behind_join(cache);
	/* Someone else's code is built by builders or at its points: never on
	 * a thread of the worker, where a compiler's crash would be the
	 * worker's while another point is measured. */
	if (builders &&
	    !(builders = wl_program_cache_builders(cache, n, WL_BUILDER_CORES_OPENCL, &(wl_builder_spawn){ 0 })))
		return 0;
	/* The thread may outlive the run: it builds from a copy, named as the
	 * run's source is. */
	if (own && srcs && wl_source_from_text(src->text, own, err) == 0) {
		memcpy(own->hash, src->hash, sizeof(own->hash));
		own->keep_binary = src->keep_binary;
		for (size_t i = 0; i < n; i++)
			srcs[i] = own;
		a = ahead_start(cache, dev, srcs, options, n, BEHIND_THREADS, builders, own, err);
		if (!a)
			wl_source_free(own);
	} else {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
	}
	free(srcs);
	if (!a) {
		free(own);
		return 0;
	}
	cache->behind = a;
	return a->count;
}
