/* Each variant of a run traced (see run_traces.h): the tracer is this
 * program again (warplab-runner --trace, trace.c), started as a child with
 * the run's request narrowed to one variant and one point, under the trace
 * budget; what it prints is stored as the variant's trace, and when it
 * fails, why. */
#include "run_traces.h"

#include <errno.h>
#include <omp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda_oclgrind.h"
#include "log.h"
#include "points.h"
#include "source.h"
#include "time_budget.h"

/* The point of the run the variant is traced at: the one whose device
 * memory (the catalog's formula) is least, so a sweep is traced where the
 * simulator has least to copy. */
static size_t smallest_point(const struct wl_run_plan *p, const struct wl_variant_def *v)
{
	size_t best = 0;
	double least = 0;

	for (size_t i = 0; i < p->req.pts.count; i++) {
		double m = wl_variant_cost(p->exp, v, WL_COST_MEMORY, p->req.pts.values + i * p->req.pts.nparams);

		if (i == 0 || m < least) {
			least = m;
			best = i;
		}
	}
	return best;
}

/* The run's points in order of the device memory variant v needs, the
 * least first (ties in the run's order), into order[0..count). */
static int by_memory(const void *x, const void *y, void *costs)
{
	const double *c = costs;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	if (c[a] != c[b])
		return c[a] < c[b] ? -1 : 1;
	return (a > b) - (a < b);
}

static int points_by_memory(const struct wl_run_plan *p, const struct wl_variant_def *v, size_t *order)
{
	double *costs = malloc(p->req.pts.count * sizeof(*costs));

	if (!costs)
		return -1;
	for (size_t i = 0; i < p->req.pts.count; i++) {
		costs[i] = wl_variant_cost(p->exp, v, WL_COST_MEMORY, p->req.pts.values + i * p->req.pts.nparams);
		order[i] = i;
	}
	qsort_r(order, p->req.pts.count, sizeof(*order), by_memory, costs);
	free(costs);
	return 0;
}

/* The tracer's spec for variant k at point i: the run's request with one
 * variant or custom kernel, the point's values, and the device's lanes and
 * compute units. */
static char *spec_for(const struct wl_run_plan *p, size_t k, size_t i, int lanes)
{
	json_t *spec = json_deep_copy(p->req.json), *one = json_array(), *none = json_array();
	const struct wl_run_variant *rv = &p->variants[k];
	size_t nbuiltin = json_array_size(json_object_get(p->req.json, "variants"));
	char *text = NULL;

	if (spec && one && none) {
		/* An own experiment's variant is one of its definition's. */
		if (rv->custom && !rv->own)
			json_array_append(one, json_array_get(json_object_get(p->req.json, "kernels"), k - nbuiltin));
		else
			json_array_append_new(one, json_string(rv->def.id));
		json_object_set(spec, rv->custom && !rv->own ? "kernels" : "variants", one);
		json_object_set(spec, rv->custom && !rv->own ? "variants" : "kernels", none);
		json_object_set_new(spec, "params", wl_point_to_json(p->exp, &p->req.pts, i));
		json_object_set_new(spec, "lanes", json_integer(lanes));
		/* A persistent grid is as large as the measured device holds. */
		json_object_set_new(spec, "compute_units", json_integer(p->dev->compute_units));
		json_object_del(spec, "label");
		text = json_dumps(spec, JSON_COMPACT);
	}
	json_decref(spec);
	json_decref(one);
	json_decref(none);
	return text;
}

/* While tracers run, whether to stop them: the batch's first thread asks
 * the store (yield) every STOP_CHECK_MS and raises stop; every thread
 * kills its tracer when it sees it. */
#define STOP_CHECK_MS 100
struct stopper {
	const struct wl_trace_setup *setup;
	double asked_ms;		/* when the store was last asked (thread 0's) */
	volatile sig_atomic_t stop;
};

static int should_stop(struct stopper *st)
{
	if (!st->stop && st->setup->yield && omp_get_thread_num() == 0 && wl_now_ms() - st->asked_ms >= STOP_CHECK_MS) {
		st->asked_ms = wl_now_ms();
		if (st->setup->yield(st->setup->yield_ctx))
			st->stop = 1;
	}
	return st->stop;
}

/* Read both pipes to their end (the tracer writes a line of JSON on one and
 * its log on the other); 1 when stopped first (st says so), the pipes then
 * left open. */
static int drain(int out_fd, int err_fd, char *out, size_t out_len, char *err, size_t err_len, struct stopper *st)
{
	struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	size_t used[2] = { 0, 0 }, cap[2] = { out_len - 1, err_len - 1 };
	char *buf[2] = { out, err }, sink[512];

	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		int ready = poll(fds, 2, STOP_CHECK_MS);

		if (ready < 0 && errno != EINTR)
			break;
		if (should_stop(st)) {
			for (int j = 0; j < 2; j++)
				if (fds[j].fd >= 0)
					close(fds[j].fd);
			return 1;
		}
		if (ready <= 0)
			continue;
		for (int j = 0; j < 2; j++) {
			ssize_t n;

			if (fds[j].fd < 0 || !(fds[j].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			/* Past the buffer, keep the end of the log (its error) and
			 * drop the rest. */
			if (used[j] < cap[j])
				n = read(fds[j].fd, buf[j] + used[j], cap[j] - used[j]);
			else
				n = read(fds[j].fd, sink, sizeof(sink));
			if (n <= 0) {
				close(fds[j].fd);
				fds[j].fd = -1;
			} else if (used[j] < cap[j]) {
				used[j] += (size_t)n;
			}
		}
	}
	out[used[0]] = '\0';
	err[used[1]] = '\0';
	return 0;
}

/* Run the tracer for spec; the figures' JSON text into out, or -1 with why
 * (the tracer's last error line); 1 when st stopped it first. */
static int run_tracer(const struct wl_trace_setup *setup, const char *spec, char *out,
		      size_t out_len, char *why, size_t why_len, struct stopper *st)
{
	int out_pipe[2], err_pipe[2], status = 0;
	char seconds[32], memory[32], *log = malloc(16384), *line;
	char *argv[] = { "warplab-runner", "--kernels", (char *)setup->kernels_dir, "--trace-seconds",
			 seconds, "--trace-memory", memory, "--trace", (char *)spec, NULL };
	pid_t pid;

	if (!log || pipe(out_pipe) < 0) {
		free(log);
		snprintf(why, why_len, "cannot start the tracer");
		return -1;
	}
	if (pipe(err_pipe) < 0) {
		close(out_pipe[0]);
		close(out_pipe[1]);
		free(log);
		snprintf(why, why_len, "cannot start the tracer");
		return -1;
	}
	snprintf(seconds, sizeof(seconds), "%ld", setup->seconds);
	snprintf(memory, sizeof(memory), "%ld", setup->memory);
	pid = fork();
	if (pid == 0) {
		dup2(out_pipe[1], STDOUT_FILENO);
		dup2(err_pipe[1], STDERR_FILENO);
		close(out_pipe[0]);
		close(err_pipe[0]);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	if (pid < 0) {
		close(out_pipe[0]);
		close(err_pipe[0]);
		free(log);
		snprintf(why, why_len, "cannot start the tracer");
		return -1;
	}
	if (drain(out_pipe[0], err_pipe[0], out, out_len, log, 16384, st)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		free(log);
		return 1;
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && out[0] == '{') {
		free(log);
		return 0;
	}
	/* The reason is the tracer's last "--trace: " message, else the last
	 * line it wrote. */
	line = strstr(log, "--trace: ");
	while (line && strstr(line + 1, "--trace: "))
		line = strstr(line + 1, "--trace: ");
	if (line) {
		snprintf(why, why_len, "%.*s", (int)strcspn(line + 9, "\n"), line + 9);
	} else {
		size_t n = strlen(log);

		while (n > 0 && log[n - 1] == '\n')
			log[--n] = '\0';
		line = strrchr(log, '\n');
		snprintf(why, why_len, "the tracer did not finish%s%.200s", n ? ": " : "",
			 line ? line + 1 : log);
	}
	free(log);
	return -1;
}

/* The key spec's trace is kept under in the lab's store (traced with the
 * family source of hash family) into key; -1 when out of memory. The
 * request's sampling, seed and label do not decide a trace and are left
 * out of the key. */
static int trace_key(const char *family, const char *spec, char *key, size_t len)
{
	static const char *const volatile_keys[] = { "seed", "label", "repeat", "noise", "budget_ms",
						     "cache", "device", "counters" };
	json_t *o = json_loads(spec, 0, NULL);
	char *text;

	if (!o)
		return -1;
	for (size_t k = 0; k < sizeof(volatile_keys) / sizeof(volatile_keys[0]); k++)
		json_object_del(o, volatile_keys[k]);
	json_object_set_new(o, "family", json_string(family));
	json_object_set_new(o, "version", json_string(WL_VERSION));
	json_object_set_new(o, "format", json_integer(WL_TRACE_FORMAT));
	text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	if (!text)
		return -1;
	snprintf(key, len, "%016llx", (unsigned long long)wl_fnv1a64(text, strlen(text)));
	free(text);
	return 0;
}

/* Whether variant k of p declares its accesses (a built-in's catalog entry
 * does; a custom kernel may, under "accesses"). */
static int declared(const struct wl_run_plan *p, size_t k)
{
	size_t nbuiltin = json_array_size(json_object_get(p->req.json, "variants"));

	if (!p->variants[k].custom || p->variants[k].own)
		return p->variants[k].def.model != NULL;
	return json_object_get(json_array_get(json_object_get(p->req.json, "kernels"), k - nbuiltin), "accesses") != NULL;
}

/* One trace to take: variant k at point i, and what came of it. */
struct job {
	size_t k, i;
	char *spec;
	char key[20];			/* under which the lab keeps it; "" for none */
	char *out;			/* the figures' JSON */
	char why[512];			/* or why none */
	int kept;			/* read from the lab's kept traces */
	int taken;			/* traced (or kept) by now */
	int stopped;			/* its tracer stopped for a waiting run */
};

/* The jobs of p: a variant that declares its accesses is traced at its
 * point of least memory (the trace checks the declaration, which predicts
 * every point); one that does not, at each point (up to WL_TRACED_POINTS,
 * the least first): its prediction is its trace's. */
static size_t plan_jobs(const struct wl_run_plan *p, struct job *jobs, size_t cap)
{
	size_t n = 0, *order = malloc((p->req.pts.count + 1) * sizeof(*order));

	for (size_t k = 0; k < p->nvariants; k++) {
		size_t first = smallest_point(p, &p->variants[k].def);

		if (declared(p, k) || p->req.pts.count == 1) {
			if (n < cap)
				jobs[n++] = (struct job){ .k = k, .i = first };
			continue;
		}
		if (!order || points_by_memory(p, &p->variants[k].def, order) < 0) {
			if (n < cap)
				jobs[n++] = (struct job){ .k = k, .i = first };
			continue;
		}
		for (size_t t = 0; t < p->req.pts.count && t < WL_TRACED_POINTS && n < cap; t++)
			jobs[n++] = (struct job){ .k = k, .i = order[t] };
	}
	free(order);
	return n;
}

/* Tracers that run at once: half the machine's cores, at least one, at
 * most eight. */
static int parallel_tracers(void)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	return cores >= 16 ? 8 : cores >= 4 ? (int)(cores / 2) : 1;
}

long long wl_run_trace_seconds(const struct wl_trace_setup *setup, const struct wl_run_plan *p)
{
	struct job jobs[WL_TRACE_JOBS];
	size_t n = plan_jobs(p, jobs, WL_TRACE_JOBS);
	int at_once = parallel_tracers();

	return (long long)((n + (size_t)at_once - 1) / (size_t)at_once) * (setup->seconds + 10) + 30;
}

/* Trace job j (not kept) by running the tracer, unless st stops it. */
static void take(const struct wl_trace_setup *setup, struct job *j, struct stopper *st)
{
	size_t out_len = 1 << 20;

	j->why[0] = '\0';
	if (!j->out)
		j->out = malloc(out_len);
	if (!j->spec || !j->out) {
		snprintf(j->why, sizeof(j->why), "out of memory");
		return;
	}
	j->stopped = st->stop || run_tracer(setup, j->spec, j->out, out_len, j->why, sizeof(j->why), st) == 1;
}

/* The jobs of p for run_id with their specs, keys and what the lab keeps
 * of them, into *jobs (the caller's to free with jobs_free); -1 with err. */
static int prepare_jobs(const struct wl_trace_setup *setup, struct wl_store *st, const struct wl_run_plan *p,
			struct job **jobs, size_t *n, struct wl_error *err)
{
	json_t *width = json_object_get(p->dev->info, "warp_width");
	int lanes = json_is_integer(width) ? (int)json_integer_value(width) : 32;
	const char *cuda_missing = p->backend->language == WL_LANG_CUDA ?
		wl_cuda_oclgrind_unavailable(setup->kernels_dir) : NULL;

	if (!(*jobs = calloc(WL_TRACE_JOBS, sizeof(**jobs)))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (lanes < 1 || lanes > 64)
		lanes = 32;
	*n = plan_jobs(p, *jobs, WL_TRACE_JOBS);
	for (size_t j = 0; j < *n; j++) {
		struct job *jb = &(*jobs)[j];

		jb->spec = spec_for(p, jb->k, jb->i, lanes);
		if (!jb->spec || trace_key(p->source.hash, jb->spec, jb->key, sizeof(jb->key)) < 0)
			jb->key[0] = '\0';
		if (jb->key[0] && wl_store_kept_trace(st, jb->key, &jb->out, err) < 0)
			return -1;
		jb->kept = jb->taken = jb->out != NULL;
		/* A runner without the CUDA route says so for each, rather
		 * than start tracers that would. */
		if (!jb->taken && cuda_missing) {
			snprintf(jb->why, sizeof(jb->why), "not traced: %s", cuda_missing);
			jb->taken = 1;
		}
	}
	return 0;
}

static void jobs_free(struct job *jobs, size_t n)
{
	for (size_t j = 0; jobs && j < n; j++) {
		free(jobs[j].spec);
		free(jobs[j].out);
	}
	free(jobs);
}

/* Store job jb's trace (or why there is none) for run_id, and keep a new
 * one for the lab. -1 with err when the store fails. */
static int store_job(struct wl_store *st, long long run_id, const struct wl_run_plan *p, const struct job *jb,
		     struct wl_error *err)
{
	const char *name = p->variants[jb->k].name;
	json_t *point = wl_point_to_json(p->exp, &p->req.pts, jb->i), *failed = NULL;
	char *params = point ? json_dumps(point, JSON_COMPACT | JSON_SORT_KEYS) : NULL, *text = NULL;
	int rc = 0;

	json_decref(point);
	if (jb->why[0]) {
		wl_log_info("run %lld: %s not traced at %s: %s", run_id, name, params ? params : "?", jb->why);
		failed = json_pack("{s:s}", "error", jb->why);
		text = failed ? json_dumps(failed, JSON_COMPACT) : NULL;
	} else {
		if (run_id > 0)
			wl_log_info("run %lld: %s traced at %s%s", run_id, name, params ? params : "?",
				    jb->kept ? " (kept from an earlier run)" : "");
		else if (!jb->kept)
			wl_log_info("catalog: %s %s traced at %s for the lab", p->exp->id, name, params ? params : "?");
		if (!jb->kept && jb->key[0] && wl_store_keep_trace(st, jb->key, jb->out, err) < 0)
			rc = -1;
	}
	if (rc == 0 && !params) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		rc = -1;
	}
	if (rc == 0 && run_id > 0 && wl_store_put_trace(st, run_id, name, params, jb->why[0] ? (text ? text : "{}") : jb->out,
					  err) < 0)
		rc = -1;
	json_decref(failed);
	free(text);
	free(params);
	return rc;
}

int wl_run_trace(const struct wl_trace_setup *setup, struct wl_store *st, long long run_id,
		 const struct wl_run_plan *p, struct wl_error *err)
{
	int at_once = parallel_tracers(), rc = 0;
	struct job *jobs = NULL;
	size_t n = 0, next = 0;

	if (prepare_jobs(setup, st, p, &jobs, &n, err) < 0) {
		jobs_free(jobs, n);
		return -1;
	}
	/* The kept ones first, and those that cannot be taken: they cost
	 * nothing. */
	for (size_t j = 0; j < n && rc == 0; j++)
		if (jobs[j].kept || jobs[j].why[0])
			rc = store_job(st, run_id, p, &jobs[j], err);
	/* Then a batch of tracers at a time, each a process of its own (the
	 * threads only wait on them), stopped as soon as a run is queued: the
	 * traces finished so far are stored, the rest wait for the next idle
	 * moment. */
	while (rc == 0 && next < n) {
		struct stopper stop = { setup, 0, 0 };
		size_t batch[64], nb = 0;

		if (setup->yield && setup->yield(setup->yield_ctx)) {
			rc = 1;
			break;
		}
		for (; next < n && nb < (size_t)at_once; next++)
			if (!jobs[next].taken)
				batch[nb++] = next;
#pragma omp parallel for schedule(dynamic) num_threads(at_once)
		for (size_t b = 0; b < nb; b++)
			take(setup, &jobs[batch[b]], &stop);
		for (size_t b = 0; b < nb && rc == 0; b++) {
			if (jobs[batch[b]].stopped)
				continue;
			jobs[batch[b]].taken = 1;
			rc = store_job(st, run_id, p, &jobs[batch[b]], err);
		}
		if (rc == 0 && stop.stop)
			rc = 1;
	}
	jobs_free(jobs, n);
	return rc;
}
