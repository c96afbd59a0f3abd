/* Each variant of a run traced (see run_traces.h): the tracer is this
 * program again (warplab-runner --trace, trace.c), started as a child with
 * the run's request narrowed to one variant and one point, under the trace
 * budget; what it prints is stored as the variant's trace, and when it
 * fails, why. */
#include "run_traces.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "points.h"
#include "source.h"

/* The point of the run the variant is traced at: the one whose device
 * memory (the catalog's formula) is least, so a sweep is traced where the
 * simulator has least to copy. */
static size_t smallest_point(const struct wl_run_plan *p, const struct wl_variant_def *v)
{
	size_t best = 0;
	double least = 0;

	for (size_t i = 0; i < p->pts.count; i++) {
		double m = wl_variant_cost(p->exp, v, WL_COST_MEMORY, p->pts.values + i * p->pts.nparams);

		if (i == 0 || m < least) {
			least = m;
			best = i;
		}
	}
	return best;
}

/* The tracer's spec for variant k at point i: the run's request with one
 * variant or custom kernel, the point's values, and the device's lanes. */
static char *spec_for(const struct wl_run_plan *p, size_t k, size_t i, int lanes)
{
	json_t *spec = json_deep_copy(p->request), *one = json_array(), *none = json_array();
	const struct wl_run_variant *rv = &p->variants[k];
	size_t nbuiltin = json_array_size(json_object_get(p->request, "variants"));
	char *text = NULL;

	if (spec && one && none) {
		if (rv->custom)
			json_array_append(one, json_array_get(json_object_get(p->request, "kernels"), k - nbuiltin));
		else
			json_array_append_new(one, json_string(rv->def.id));
		json_object_set(spec, rv->custom ? "kernels" : "variants", one);
		json_object_set(spec, rv->custom ? "variants" : "kernels", none);
		json_object_set_new(spec, "params", wl_point_to_json(p->exp, &p->pts, i));
		json_object_set_new(spec, "lanes", json_integer(lanes));
		json_object_del(spec, "label");
		text = json_dumps(spec, JSON_COMPACT);
	}
	json_decref(spec);
	json_decref(one);
	json_decref(none);
	return text;
}

/* Read both pipes to their end (the tracer writes a line of JSON on one and
 * its log on the other). */
static void drain(int out_fd, int err_fd, char *out, size_t out_len, char *err, size_t err_len)
{
	struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	size_t used[2] = { 0, 0 }, cap[2] = { out_len - 1, err_len - 1 };
	char *buf[2] = { out, err }, sink[512];

	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			break;
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
}

/* Run the tracer for spec; the figures' JSON text into out, or -1 with why
 * (the tracer's last error line). */
static int run_tracer(const struct wl_trace_setup *setup, const char *spec, char *out,
		      size_t out_len, char *why, size_t why_len)
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
	drain(out_pipe[0], err_pipe[0], out, out_len, log, 16384);
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

/* The cache file of spec (traced with the family source of hash family)
 * into path; -1 without a cache. The request's sampling, seed and label do
 * not decide a trace and are left out of the key. */
static int cache_path(const struct wl_trace_setup *setup, const char *family, const char *spec,
		      char *path, size_t len)
{
	static const char *const volatile_keys[] = { "seed", "label", "repeat", "noise", "budget_ms",
						     "cache", "device" };
	json_t *o = json_loads(spec, 0, NULL);
	char *text;
	uint64_t h;

	if (!setup->cache_dir || !o)
		goto none;
	for (size_t k = 0; k < sizeof(volatile_keys) / sizeof(volatile_keys[0]); k++)
		json_object_del(o, volatile_keys[k]);
	json_object_set_new(o, "family", json_string(family));
	json_object_set_new(o, "version", json_string(WL_VERSION));
	text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	if (!text)
		return -1;
	h = wl_fnv1a64(text, strlen(text));
	free(text);
	snprintf(path, len, "%s/%016llx.json", setup->cache_dir, (unsigned long long)h);
	return 0;
none:
	json_decref(o);
	return -1;
}

/* The kept trace at path into out (NUL-terminated); -1 when there is none. */
static int cache_read(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	fclose(f);
	out[n] = '\0';
	return n > 0 && out[0] == '{' ? 0 : -1;
}

/* Keep the trace text at path; best effort (a trace not kept is traced again). */
static void cache_write(const char *path, const char *text)
{
	char tmp[4200];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	if (fputs(text, f) >= 0 && fclose(f) == 0)
		rename(tmp, path);
	else
		unlink(tmp);
}

long long wl_run_trace_seconds(const struct wl_trace_setup *setup, const struct wl_run_plan *p)
{
	return (long long)p->nvariants * (setup->seconds + 10) + 30;
}

int wl_run_trace(const struct wl_trace_setup *setup, struct wl_store *st, long long run_id,
		 const struct wl_run_plan *p, struct wl_error *err)
{
	json_t *width = json_object_get(p->dev->info, "warp_width");
	int lanes = json_is_integer(width) ? (int)json_integer_value(width) : 32;
	size_t out_len = 1 << 20;
	char *out = malloc(out_len);
	int rc = -1;

	if (!out) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (lanes < 1 || lanes > 64)
		lanes = 32;
	for (size_t k = 0; k < p->nvariants; k++) {
		size_t i = smallest_point(p, &p->variants[k].def);
		char *spec = spec_for(p, k, i, lanes), *params, why[512], cached[4096];
		json_t *point = wl_point_to_json(p->exp, &p->pts, i);
		json_t *failed = NULL;
		int stored;

		params = point ? json_dumps(point, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		json_decref(point);
		if (!spec || !params) {
			free(spec);
			free(params);
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
		if (cache_path(setup, p->source.hash, spec, cached, sizeof(cached)) < 0)
			cached[0] = '\0';
		if (cached[0] && cache_read(cached, out, out_len) == 0) {
			why[0] = '\0';
			wl_log_info("run %lld: %s traced (kept from an earlier run)", run_id, p->variants[k].name);
		} else if (run_tracer(setup, spec, out, out_len, why, sizeof(why)) == 0) {
			why[0] = '\0';
			wl_log_info("run %lld: %s traced", run_id, p->variants[k].name);
			if (cached[0])
				cache_write(cached, out);
		}
		if (why[0]) {
			wl_log_info("run %lld: %s not traced: %s", run_id, p->variants[k].name, why);
			failed = json_pack("{s:s}", "error", why);
		}
		{
			char *text = failed ? json_dumps(failed, JSON_COMPACT) : NULL;

			stored = wl_store_put_trace(st, run_id, p->variants[k].name, params,
						    failed ? (text ? text : "{}") : out, err);
			free(text);
		}
		json_decref(failed);
		free(spec);
		free(params);
		if (stored < 0)
			goto out;
	}
	rc = 0;
out:
	free(out);
	return rc;
}
