/* The catalog's programs built ahead (program_ahead.h): the plans of its
 * experiments at their defaults say which sources and options their points
 * build; cl_program.c builds them on its own thread. */
#include "program_ahead.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cuda_builders.h"
#include "cuda_compile.h"
#include "cuda_device.h"
#include "experiment.h"
#include "log.h"
#include "cuda_nvrtc.h"
#include "run_plan.h"
#include "time_budget.h"

int wl_build_ahead_parse(const char *word, enum wl_build_ahead *out, struct wl_error *why)
{
	static const char *const words[] = { "gpu", "always", "never" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (word && strcmp(word, words[i]) == 0) {
			*out = (enum wl_build_ahead)i;
			return 0;
		}
	wl_error_set(why, WL_ERR_CONFIG, "--build-ahead '%s': allowed are gpu, always and never",
		     word ? word : "");
	return -1;
}

/* At most this many programs: a catalog's families at their defaults build
 * one or two each. */
#define AHEAD_MAX 64

/* Sources with build options, each once. */
struct wanted {
	const struct wl_source *srcs[AHEAD_MAX];
	char options[AHEAD_MAX][128];
	size_t count;
};

/* The CUDA twins, compiled by NVRTC on a thread of their own (no context is
 * needed for that), for a device that runs CUDA. */
struct cuda_ahead {
	const struct wl_nvrtc *nv;
	int arch;
	struct wl_source *sources;	/* the catalog's .cu files, one per experiment */
	struct wanted modules;
	struct wl_cuda_compiled *compiled[AHEAD_MAX];	/* modules[i]'s, or NULL */
	pthread_t thread;
	int started;
	double ms;
};

struct wl_catalog_ahead {
	struct wl_run_plan *plans;	/* they own the OpenCL sources */
	size_t nplans;
	struct wanted programs;
	struct wl_program_ahead *building;
	struct cuda_ahead cuda;
};

/* Add src with options unless it is there already or the list is full. */
static void want(struct wanted *w, const struct wl_source *src, const char *options)
{
	for (size_t i = 0; i < w->count; i++)
		if (strcmp(w->srcs[i]->hash, src->hash) == 0 && strcmp(w->options[i], options) == 0)
			return;
	if (w->count == AHEAD_MAX)
		return;
	w->srcs[w->count] = src;
	snprintf(w->options[w->count], sizeof(w->options[w->count]), "%s", options);
	w->count++;
}

/* What plan's points build: src (its family's, or the CUDA twin) with each
 * point's options (the same in both languages). */
static void want_plan(struct wanted *w, const struct wl_run_plan *plan, const struct wl_source *src)
{
	for (size_t i = 0; i < plan->req.pts.count; i++) {
		const struct wl_point pt = { .dev = plan->dev, .exp = plan->exp,
					     .values = plan->req.pts.values + i * plan->req.pts.nparams };
		char options[128];

		wl_experiment_options(plan->ops, &pt, options, sizeof(options));
		want(w, src, options);
	}
}

/* NVRTC compiles in parallel (its calls are thread-safe), each module onto
 * a list of its own. */
static void *cuda_main(void *arg)
{
	struct cuda_ahead *c = arg;
	double started = wl_now_ms();
	int count = (int)c->modules.count;

#pragma omp parallel for schedule(dynamic, 1)
	for (int i = 0; i < count; i++) {
		struct wl_error err;

		/* One that does not compile is compiled again by the run that
		 * needs it, which says why. */
		wl_cuda_compile(c->nv, c->arch, c->modules.srcs[i], c->modules.options[i], &c->compiled[i], &err);
	}
	c->ms = wl_now_ms() - started;
	return NULL;
}

/* The CUDA twins of the plans (each plans[e] of cat->experiments[e]) on dev,
 * when it runs CUDA: their sources loaded and compiled on c's thread. */
static void cuda_start(struct cuda_ahead *c, const struct wl_catalog *cat, const struct wl_run_plan *plans,
		       const struct wl_device *dev, const char *kernels_dir)
{
	const struct wl_cuda_side *side = wl_cuda_of(dev);
	const struct wl_source *rng;
	struct wl_error err;

	if (!json_is_true(json_object_get(json_object_get(dev->info, "cuda"), "available")) || !side || !side->nv ||
	    !side->nv->handle || side->ordinal < 0 || (c->arch = wl_cuda_arch(side->ordinal)) < 0 ||
	    !(c->sources = calloc(cat->nexperiments ? cat->nexperiments : 1, sizeof(*c->sources))))
		return;
	c->nv = side->nv;
	if ((rng = wl_device_rng_source(&wl_backend_cuda, &err)) != NULL)
		want(&c->modules, rng, "");
	for (size_t e = 0; e < cat->nexperiments; e++) {
		char path[4096];

		if (!plans[e].exp || !cat->experiments[e].cuda_source)
			continue;
		snprintf(path, sizeof(path), "%s/%s", kernels_dir, cat->experiments[e].cuda_source);
		if (wl_source_load(path, &c->sources[e], &err) == 0)
			want_plan(&c->modules, &plans[e], &c->sources[e]);
	}
	c->started = pthread_create(&c->thread, NULL, cuda_main, c) == 0;
}

/* The options each of plan's points builds with, each once, in the
 * points' order, into a new array (*n of them; the caller frees it), NULL
 * when out of memory. has (or NULL) says which the worker has already. */
static char (*point_options(const struct wl_run_plan *plan, int (*has)(const struct wl_run_plan *, const char *),
			    size_t *n))[128]
{
	char (*options)[128] = calloc(plan->req.pts.count ? plan->req.pts.count : 1, sizeof(*options));

	*n = 0;
	for (size_t next = 0; options && next < plan->req.pts.count; next++) {
		const struct wl_point pt = { .dev = plan->dev, .exp = plan->exp,
					     .values = plan->req.pts.values + next * plan->req.pts.nparams };
		char opts[128];
		size_t k = 0;

		wl_experiment_options(plan->ops, &pt, opts, sizeof(opts));
		while (k < *n && strcmp(options[k], opts) != 0)
			k++;
		if (k == *n && !(has && has(plan, opts)))
			snprintf(options[(*n)++], sizeof(options[0]), "%s", opts);
	}
	return options;
}

/* The OpenCL programs of plan's points, built on a thread of their own, in
 * the points' order, while the run goes on (wl_program_behind_start); an
 * own experiment's by builder processes (builders.h): they are many, and
 * someone else's. Returns how many are building. */
static size_t opencl_behind(const struct wl_run_plan *plan, struct wl_program_cache *programs)
{
	const char **list;
	struct wl_error err;
	size_t n, count = 0;
	char (*options)[128] = point_options(plan, NULL, &n);

	if (!options || !(list = calloc(n ? n : 1, sizeof(*list)))) {
		free(options);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		list[i] = options[i];
	wl_error_clear(&err);
	count = wl_program_behind_start(programs, plan->dev, &plan->source, list, n, plan->exp->own, &err);
	if (!count && err.msg[0])
		wl_log_warn("programs not built beside the run: %s", err.msg);
	free(list);
	free(options);
	return count;
}

/* NVRTC's compiles of one run overlap about 4x on an H200's host (20 at
 * once took 1.17 s, one after another 4.96 s; bench/RESULTS.md): more
 * threads than that only finish them all later, together, where fewer
 * hand the first points their modules early. */
#define CUDA_BEHIND_THREADS 4

/* A run's CUDA modules compiled on a thread of their own while its points
 * are measured: its source and the options, copied (the thread frees
 * them: it may outlive the run). */
struct cuda_behind {
	const struct wl_nvrtc *nv;
	int arch;
	struct wl_source src;
	char (*options)[128];
	size_t count;
};

static void *cuda_behind_main(void *arg)
{
	struct cuda_behind *b = arg;
	int count = (int)b->count;

#pragma omp parallel for schedule(dynamic, 1) num_threads(CUDA_BEHIND_THREADS)
	for (int i = 0; i < count; i++) {
		struct wl_cuda_compiled *made = NULL;
		struct wl_error err;

		/* One that does not compile is compiled again by the point that
		 * needs it, which says why. */
		if (wl_cuda_compile(b->nv, b->arch, &b->src, b->options[i], &made, &err) < 0)
			made = NULL;
		wl_cuda_compiled_arrive(b->src.hash, b->options[i], made);
	}
	wl_source_free(&b->src);
	free(b->options);
	free(b);
	return NULL;
}

/* Whether the device has loaded plan's module with options, or the worker
 * has it compiled or compiling. */
static int cuda_has(const struct wl_run_plan *plan, const char *options)
{
	return wl_cuda_device_has_module(wl_cuda_of(plan->dev)->cd, &plan->source, options) ||
	       wl_cuda_compiled_has(&plan->source, options);
}

/* The compute capability plan's device compiles for, where NVRTC is there
 * to compile: -1 where it cannot. */
static int cuda_arch_of(const struct wl_run_plan *plan)
{
	const struct wl_cuda_side *side = wl_cuda_of(plan->dev);

	return !side || !side->nv || !side->nv->handle || side->ordinal < 0 ? -1 : wl_cuda_arch(side->ordinal);
}

/* An own experiment's CUDA modules of plan's points that neither the
 * device nor the worker has nor expects, compiled by builder processes
 * (cuda_builders.h) as many as programs says, by default one for every two
 * of the worker's cores: NVRTC's builders leave CUDA's launches their pace
 * where NVIDIA's OpenCL compiler does not (builders.h). None where it gives
 * none, and each point compiles its own. Returns how many were sent. */
static size_t cuda_by_builders(const struct wl_run_plan *plan, const struct wl_program_cache *programs)
{
	wl_builder_spawn spawn;
	char (*options)[128];
	size_t n, sent = 0;
	int arch = cuda_arch_of(plan), procs;

	if (arch < 0 || !(options = point_options(plan, cuda_has, &n)))
		return 0;
	if ((procs = wl_program_cache_builders(programs, n, WL_BUILDER_CORES_CUDA, &spawn)) > 0)
		sent = wl_cuda_builders_start(arch, &plan->source, options, n, procs, spawn, plan->dev->id);
	free(options);
	return sent;
}

/* The CUDA modules of plan's points that neither the device nor the worker
 * has nor expects, said to be coming and compiled by NVRTC on a thread of
 * their own, in the points' order, while the run goes on: a point takes
 * its module as it arrives. Returns how many were sent to compile. */
static size_t cuda_behind(const struct wl_run_plan *plan)
{
	const struct wl_cuda_side *side = wl_cuda_of(plan->dev);
	struct cuda_behind *b;
	struct wl_error err;
	pthread_attr_t attr;
	pthread_t thread;
	size_t n;
	int arch = cuda_arch_of(plan), started;

	if (arch < 0 || !(b = calloc(1, sizeof(*b))))
		return 0;
	*b = (struct cuda_behind){ .nv = side->nv, .arch = arch };
	b->options = point_options(plan, cuda_has, &n);
	if (!b->options || wl_source_from_text(plan->source.text, &b->src, &err) < 0) {
		free(b->options);
		free(b);
		return 0;
	}
	/* The copy goes by the run's source's name, whatever its text hashes to. */
	memcpy(b->src.hash, plan->source.hash, sizeof(b->src.hash));
	b->src.keep_binary = plan->source.keep_binary;
	for (size_t i = 0; i < n; i++)
		if (wl_cuda_compiled_expect(&plan->source, b->options[i]) == 0 && b->count++ < i)
			memcpy(b->options[b->count - 1], b->options[i], sizeof(b->options[0]));
	if (b->count > 0) {
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started = pthread_create(&thread, &attr, cuda_behind_main, b) == 0;
		pthread_attr_destroy(&attr);
		if (started)
			return b->count;
		/* No thread: nothing is coming after all; each point compiles its own. */
		for (size_t i = 0; i < b->count; i++)
			wl_cuda_compiled_arrive(b->src.hash, b->options[i], NULL);
	}
	wl_source_free(&b->src);
	free(b->options);
	free(b);
	return 0;
}

void wl_run_build_ahead(const struct wl_run_plan *plan, struct wl_program_cache *programs, enum wl_build_ahead when)
{
	size_t building = 0;

	/* A custom kernel beside the catalog's is built at its point, under
	 * the point's deadline; an own experiment's programs and modules by
	 * builder processes, where a compiler's crash is the builder's and a
	 * point whose program did not come builds it itself, under its
	 * deadline. A run of one point gains nothing. */
	if (when == WL_AHEAD_NEVER || (when == WL_AHEAD_GPU && !plan->dev->is_gpu) || plan->req.pts.count < 2)
		return;
	for (size_t k = 0; k < plan->nvariants; k++)
		if (plan->variants[k].custom && !plan->variants[k].own)
			return;
	if (plan->backend == &wl_backend_opencl)
		building = opencl_behind(plan, programs);
	else if (plan->backend == &wl_backend_cuda)
		building = plan->exp->own ? cuda_by_builders(plan, programs) : cuda_behind(plan);
	if (building)
		wl_log_info("%zu of the run's programs building beside its points", building);
}

static void ahead_free(struct wl_catalog_ahead *a)
{
	for (size_t i = 0; i < a->nplans; i++) {
		wl_run_plan_free(&a->plans[i]);
		if (a->cuda.sources)
			wl_source_free(&a->cuda.sources[i]);
	}
	for (size_t i = 0; i < a->cuda.modules.count; i++)
		wl_cuda_compiled_free(a->cuda.compiled[i]);
	free(a->cuda.sources);
	free(a->plans);
	free(a);
}

struct wl_catalog_ahead *wl_catalog_ahead_start(const struct wl_catalog *cat, struct wl_devices *devs,
						const char *kernels_dir, const struct wl_program_cache *programs,
						enum wl_build_ahead when, struct wl_error *err)
{
	struct wl_device *dev = &devs->list[0];
	const char *options[AHEAD_MAX];
	const struct wl_source *rng;
	struct wl_catalog_ahead *a;

	if (when == WL_AHEAD_NEVER || (when == WL_AHEAD_GPU && !dev->is_gpu))
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a || !(a->plans = calloc(cat->nexperiments ? cat->nexperiments : 1, sizeof(*a->plans)))) {
		free(a);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	/* Every input that a point makes on the device comes from this one. */
	if ((rng = wl_device_rng_source(&wl_backend_opencl, err)) != NULL)
		want(&a->programs, rng, "");
	for (size_t e = 0; e < cat->nexperiments; e++) {
		struct wl_run_plan *plan = &a->plans[a->nplans++];
		struct wl_error why;

		/* An experiment this device cannot run at its defaults (or a
		 * test-only one) builds nothing: its runs say why. */
		if (wl_run_plan_defaults(cat, devs, kernels_dir, &cat->experiments[e], dev->id, plan, &why) == 0 &&
		    plan->backend == &wl_backend_opencl)
			want_plan(&a->programs, plan, &plan->source);
		else
			plan->exp = NULL;
	}
	for (size_t i = 0; i < a->programs.count; i++)
		options[i] = a->programs.options[i];
	if (a->programs.count)
		a->building = wl_program_ahead_start(programs, dev, a->programs.srcs, options, a->programs.count, err);
	cuda_start(&a->cuda, cat, a->plans, dev, kernels_dir);
	if (!a->building && !a->cuda.started) {
		ahead_free(a);
		return NULL;
	}
	return a;
}

void wl_catalog_ahead_join(struct wl_catalog_ahead *a, struct wl_program_cache *programs)
{
	size_t added;
	double ms;

	if (!a)
		return;
	added = wl_program_ahead_join(programs, a->building, &ms);
	if (a->building)
		wl_log_info("%zu of the catalog's %zu programs ready ahead (built, or loaded from disk) in %.0f ms", added,
			    a->programs.count, ms);
	if (a->cuda.started) {
		size_t compiled = 0;

		pthread_join(a->cuda.thread, NULL);
		for (size_t i = 0; i < a->cuda.modules.count; i++) {
			compiled += a->cuda.compiled[i] != NULL;
			wl_cuda_compiled_adopt(a->cuda.compiled[i]);
			a->cuda.compiled[i] = NULL;
		}
		wl_log_info("%zu of the catalog's %zu CUDA modules compiled ahead in %.0f ms", compiled,
			    a->cuda.modules.count, a->cuda.ms);
	}
	ahead_free(a);
}
