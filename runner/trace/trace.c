/* warplab-runner --trace SPEC: one variant (or custom kernel) at one point,
 * run in the Oclgrind simulator with the family's own host code — its inputs,
 * arguments and declared launch — while runner/oclgrind_trace.cpp records
 * the first work-group's loads and stores; then counted by the warp model's
 * rules (trace_model.h) and printed as JSON beside the declared prediction.
 *
 * A CUDA run's kernel is traced as itself: compiled for the simulator
 * (cuda_oclgrind.h) and called as CUDA calls it (cuda_traced_backend.h).
 * What the simulator cannot run is said in words, with its line
 * (untraceable.h, from what Oclgrind writes: oclgrind_said.h).
 *
 * The process runs twice: first as called, where it sets Oclgrind up (the
 * runtime preloaded, the plugin, only the first and last work-groups run,
 * line tables in the build: -debug-info-kind=line-tables-only, as Oclgrind's
 * compiler spells -g) and executes itself again; then, with
 * WARPLAB_TRACING set, as the traced run. Everything it reads is what the
 * worker reads; it opens no store. */
#include "trace.h"
#include "trace_helpers.h"

#include "backend.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl_device.h"
#include "cuda_traced_backend.h"
#include "clock.h"
#include "cl_program.h"
#include "run_plan.h"
#include "experiments.h"
#include "json_strict.h"
#include "log.h"
#include "oclgrind_said.h"
#include "points.h"
#include "request.h"
#include "request_own.h"
#include "source.h"
#include "trace_model.h"
#include "trace_json.h"
#include "untraceable.h"
#include "warp_model.h"

#define OCLGRIND_RUNTIME "/usr/lib/oclgrind/liboclgrind-rt.so"

/* Whether this process traces (either of its two runs). */
static int tracing;

#ifdef __SANITIZE_ADDRESS__
/* A sanitized build's hooks, read by the sanitizers themselves: a confined
 * process cannot read its ASAN_OPTIONS (they come from /proc/self/environ).
 * Oclgrind's runtime is preloaded before AddressSanitizer's; and a tracer's
 * leaks (Oclgrind keeps what it allocates for its life) go unchecked, since
 * LeakSanitizer cannot stop the world under the worker's confinement. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "verify_asan_link_order=0";
}

int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return tracing;
}
#endif

/* Oclgrind's runtime: Debian's, or where WARPLAB_OCLGRIND_RT says (an
 * Oclgrind unpacked elsewhere, as bench/gpu.sh does on a lent machine). */
static const char *oclgrind_runtime(void)
{
	const char *env = getenv("WARPLAB_OCLGRIND_RT");

	return env && *env ? env : OCLGRIND_RUNTIME;
}
const char *wl_trace_unavailable(void)
{
	char plugin[PATH_MAX];

	if (access(oclgrind_runtime(), R_OK) != 0)
		return "Oclgrind is not installed on this runner (apt-get install oclgrind)";
	if (wl_trace_plugin_path(plugin, sizeof(plugin)) < 0)
		return WL_TRACE_PLUGIN " is not beside warplab-runner";
	return NULL;
}

/* Set Oclgrind up and run this program again under it. Returns only on
 * failure, with why. */
static int exec_traced(char **argv, const char *out_path, struct wl_error *err)
{
	char plugin[PATH_MAX];

	if (access(oclgrind_runtime(), R_OK) != 0) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "tracing needs Oclgrind (%s is not there: apt-get install oclgrind)",
			     oclgrind_runtime());
		return -1;
	}
	if (wl_trace_plugin_path(plugin, sizeof(plugin)) < 0) {
		wl_error_set(err, WL_ERR_CONFIG, "tracing needs %s beside warplab-runner", WL_TRACE_PLUGIN);
		return -1;
	}
	if (setenv("LD_PRELOAD", oclgrind_runtime(), 1) < 0 ||
	    setenv("OCLGRIND_PLUGINS", plugin, 1) < 0 || setenv("OCLGRIND_QUICK", "1", 1) < 0 ||
	    setenv("OCLGRIND_BUILD_OPTIONS", "-debug-info-kind=line-tables-only", 1) < 0 ||
	    setenv("OCLGRIND_LOG", "/dev/null", 1) < 0 ||
	    setenv("WARPLAB_TRACE_OUT", out_path, 1) < 0 || setenv("WARPLAB_TRACING", "1", 1) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot set the environment");
		return -1;
	}
	execv("/proc/self/exe", argv);
	wl_error_set(err, WL_ERR_INTERNAL, "cannot run itself under Oclgrind: %s", strerror(errno));
	return -1;
}

/* What is traced: the request's first variant or custom kernel at its
 * first point. */
struct traced {
	const struct wl_experiment *exp;
	struct wl_experiment own;	/* the request's own experiment, which exp then is */
	json_t *normalized;
	struct wl_points pts;
	struct wl_run_variant rv;	/* a custom kernel's: its like variant's, its entry */
	const struct wl_variant_def *builtin;	/* the built-in it is or stands in for */
	struct wl_source family;
	const struct wl_backend *backend;	/* OpenCL's, or CUDA's in Oclgrind */
	int lanes;
	long long compute_units;	/* the measured device's, for a persistent grid (0: Oclgrind's) */
};

static long long gcd(long long a, long long b)
{
	while (b) {
		long long r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* The work-group to trace where the driver would choose it: the one the
 * model assumes, else lanes work-items along dimension 0; in each dimension
 * cut to divide the grid (Oclgrind, as OpenCL 1.2, wants it to). */
static int local_guess(struct traced *t, struct wl_error *err)
{
	struct wl_launch_decl *h = &t->rv.def.host;
	const struct wl_model *m = t->builtin->model;
	struct wl_launch_size size;
	char text[32];

	h->has_local = 1;
	for (int d = 0; d < 2; d++) {
		if (m && m->dims == h->dims)
			h->local[d] = m->local[d];
		else if (wl_expr_parse(d ? "1" : "32", NULL, 0, 0, &h->local[d], err) < 0)
			return -1;
	}
	if (wl_launch_decl_size(h, t->pts.values, &size, err) < 0)
		return -1;
	for (int d = 0; d < size.dims; d++) {
		snprintf(text, sizeof(text), "%lld", gcd(size.global[d], size.local[d]));
		if (wl_expr_parse(text, NULL, 0, 0, &h->local[d], err) < 0)
			return -1;
	}
	return 0;
}

static int plan(const struct wl_catalog *cat, const char *kernels_dir, const char *spec,
		struct traced *t, struct wl_error *err)
{
	json_t *body = json_loads(spec, 0, NULL), *k;
	long long measurements, lanes = 32;
	enum wl_language lang;
	const char *file;
	char path[4096];
	int rc = -1;

	if (!body) {
		wl_error_set(err, WL_ERR_BAD_JSON, "--trace: the spec is not JSON");
		return -1;
	}
	if (wl_json_get_int(body, "lanes", 0, &lanes, "--trace", err) < 0 ||
	    wl_json_get_int(body, "compute_units", 0, &t->compute_units, "--trace", err) < 0)
		goto out;
	t->lanes = (int)lanes;
	json_object_del(body, "lanes");
	json_object_del(body, "compute_units");
	if (wl_request_language(body, &lang, err) < 0 ||
	    wl_request_validate_in(cat, body, lang, &t->normalized, &measurements, err) < 0)
		goto out;
	/* A CUDA kernel runs as itself: compiled for the simulator, called as
	 * CUDA calls it. */
	t->backend = lang == WL_LANG_CUDA ? wl_cuda_traced_backend(kernels_dir) : &wl_backend_opencl;
	if (wl_request_experiment(cat, t->normalized, &t->own, &t->exp, err) < 0 ||
	    wl_request_points(t->exp, t->normalized, &t->pts, err) < 0)
		goto out;
	/* Its first custom kernel, else its first variant. */
	k = json_object_get(t->normalized, "kernels");
	if (wl_run_variant_make(t->exp, t->normalized,
				json_array_size(k) ? json_array_size(json_object_get(t->normalized, "variants")) : 0,
				&t->rv, err) < 0)
		goto out;
	t->builtin = wl_experiment_variant(t->exp, t->rv.def.id, NULL);
	/* Where the driver chooses the work-group, Oclgrind would choose one
	 * work-item. */
	if (!t->rv.def.host.has_local && local_guess(t, err) < 0)
		goto out;
	file = t->backend->family_source(t->exp);
	if (!file) {
		wl_error_set(err, WL_ERR_CONFIG, "%s has no %s source", t->exp->id, t->backend->name);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/%s", kernels_dir, file);
	if ((t->exp->own ? wl_source_from_text(file, &t->family, err) : wl_source_load(path, &t->family, err)) < 0)
		goto out;
	rc = 0;
out:
	json_decref(body);
	return rc;
}

static void traced_free(struct traced *t)
{
	wl_experiment_clear(&t->own);
	json_decref(t->normalized);
	wl_points_free(&t->pts);
	wl_source_free(&t->family);
	wl_source_free(&t->rv.source);
}

/* Run the family's host code for the variant once at the point. */
static int run_once(struct traced *t, struct wl_device *dev, struct wl_program_cache *programs,
		    struct wl_error *err)
{
	const struct wl_experiment_ops *ops = wl_experiment_ops_find(t->exp);
	struct wl_measurement *m = calloc(1, sizeof(*m));
	struct wl_point pt = {
		.dev = dev, .exp = t->exp, .values = t->pts.values, .seed = 1, .warmup = 0,
		.repeat = 1, .programs = programs, .source = &t->family, .backend = t->backend,
		.simulated = 1,
	};
	void *state = NULL;
	int rc = -1;

	if (!ops || !m) {
		wl_error_set(err, WL_ERR_INTERNAL, ops ? "out of memory" : "no host code for %s", t->exp->id);
		goto out;
	}
	if (t->rv.custom) {
		pt.source = &t->rv.source;
		pt.family = &t->family;
		pt.like_kernel = t->builtin->kernel;
	}
	if (ops->setup(&pt, &state, err) < 0)
		goto out;
	rc = ops->measure(&pt, state, &t->rv.def, m, err);
	/* Only the first and last work-groups ran: the output is not all there,
	 * and a failed verification says nothing. A launch that failed does. */
	if (rc == 0 && m->error[0] && strncmp(m->error, "verification failed", 19) != 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "the traced run failed: %s", m->error);
		rc = -1;
	}
	ops->teardown(state);
out:
	free(m);
	return rc;
}

/* The declared prediction at the same point, or null where none is declared. */
static json_t *declared_json(const struct traced *t)
{
	struct wl_prediction p;
	struct wl_error err;

	if (t->rv.custom || !t->builtin->model ||
	    wl_model_predict(t->builtin->model, t->pts.values, (int)t->exp->nparams, t->lanes, 0, &p,
			     &err) < 0)
		return json_null();
	return json_pack("{s:o, s:o, s:o}", "efficiency",
			 p.has_global ? json_real(p.efficiency) : json_null(), "sectors_per_request",
			 p.has_global ? json_real(p.sectors_per_request) : json_null(), "conflict_degree",
			 p.has_local ? json_real(p.conflict_degree) : json_null());
}

/* Run the kernel once in the simulator, keeping what Oclgrind says: where
 * it stopped at something it does not implement, err says so in words
 * (untraceable.h) rather than as the OpenCL error that followed, and the
 * run fails even where the launch itself returned (a fatal error while a
 * work-group runs leaves the others to finish without it). Where stderr
 * cannot be kept, the kernel runs all the same, without the words. */
static int run_said(struct traced *t, struct wl_device *dev, struct wl_program_cache *programs, struct wl_error *err)
{
	cl_program list[16];
	struct wl_said_programs made = { list, 0 };
	struct wl_said said;
	struct wl_error ignored;
	char *log, why[sizeof(err->msg)];
	int rc;

	if (wl_said_begin(&said, &ignored) < 0) {
		wl_log_warn("%s: a kernel the simulator cannot run is told only by its OpenCL error", ignored.msg);
		return run_once(t, dev, programs, err);
	}
	rc = run_once(t, dev, programs, err);
	log = wl_said_end(&said);
	made.n = wl_program_cache_programs(programs, dev, list, 16);
	made.n += wl_cuda_traced_programs(list + made.n, 16 - made.n);
	if (wl_untraceable_reason(log, wl_said_call_line, &made, why, sizeof(why))) {
		wl_error_set(err, WL_ERR_CONFIG, "%s", why);
		rc = -1;
	}
	free(log);
	return rc;
}

/* The traced run itself, under Oclgrind: the kernel launched once at the
 * point while the plugin writes the trace to WARPLAB_TRACE_OUT. */
static int traced_run(const struct wl_trace_config *cfg, const char *spec, struct wl_error *err)
{
	struct wl_catalog *cat = NULL;
	struct wl_devices devs = { 0 };
	struct wl_program_cache *programs = NULL;
	struct traced t = { 0 };
	char path[4096];
	int rc = -1;

	snprintf(path, sizeof(path), "%s/catalog.json", cfg->kernels);
	if (wl_catalog_load(path, &cat, err) < 0 || plan(cat, cfg->kernels, spec, &t, err) < 0 ||
	    wl_devices_find(NULL, NULL, &devs, err) < 0)
		goto out;
	if (devs.count == 0) {
		wl_error_set(err, WL_ERR_CONFIG, "Oclgrind shows no device");
		goto out;
	}
	wl_devices_keep(&devs, 0);
	/* The launch is the measured device's: a persistent grid as large as
	 * its compute units hold. */
	if (t.compute_units > 0 && t.compute_units < 100000)
		devs.list[0].compute_units = (cl_uint)t.compute_units;
	programs = wl_program_cache_new("");
	if (!programs || wl_cl_device_open(&devs.list[0], err) < 0 ||
	    run_said(&t, &devs.list[0], programs, err) < 0)
		goto out;
	rc = 0;
out:
	traced_free(&t);
	wl_cuda_traced_release();
	wl_program_cache_free(programs);
	wl_devices_free(&devs);
	wl_catalog_free(cat);
	return rc;
}

/* Run the traced process under cfg's budget: its address space and CPU
 * time limited, and killed when its wall time runs out. Returns 0 when it
 * ended well, 2 when its budget stopped it (why says how), else 1 with the
 * reason said. */
static int supervise_traced(const struct wl_trace_config *cfg, char **argv, const char *out, char *why, size_t len)
{
	double deadline = wl_monotonic_s() + (double)cfg->seconds;
	struct wl_error err;
	int status = 0;
	pid_t pid = fork();

	if (pid < 0) {
		wl_log_error("--trace: cannot start the traced process: %s", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		struct rlimit mem = { (rlim_t)cfg->memory, (rlim_t)cfg->memory };
		struct rlimit cpu = { (rlim_t)cfg->seconds, (rlim_t)cfg->seconds + 1 };

#ifndef __SANITIZE_ADDRESS__
		/* AddressSanitizer maps its shadow in the address space: a
		 * sanitized build keeps to the budget by the point's size alone. */
		setrlimit(RLIMIT_AS, &mem);
#else
		(void)mem;
#endif
		setrlimit(RLIMIT_CPU, &cpu);
		exec_traced(argv, out, &err);
		wl_log_error("--trace: %s", err.msg);
		_exit(1);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (wl_monotonic_s() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(why, len, "the simulation ran past its %ld s budget", cfg->seconds);
			return 2;
		}
		usleep(20000);
	}
	if (WIFSIGNALED(status)) {
		snprintf(why, len, "the simulation %s", WTERMSIG(status) == SIGXCPU ? "ran past its CPU budget" :
							 "was killed (past its memory budget?)");
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Count the trace at out for t and print its figures' JSON; cut says why
 * it holds fewer groups than were sampled (NULL: it holds them all). -1
 * with err where it holds no group (a trace cut before its first). */
static int count_trace(const struct traced *t, const char *out, const char *cut, struct wl_error *err)
{
	struct wl_trace_figures *tr = calloc(1, sizeof(*tr));
	char where[256], *text = NULL;
	size_t len = 0;
	FILE *f = fopen(out, "r");
	json_t *o;
	int rc = -1;

	if (!tr || !f || getdelim(&text, &len, '\0', f) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "the simulator wrote no trace");
		goto out;
	}
	if (wl_trace_count(text, strlen(text), t->lanes, tr, err) < 0)
		goto out;
	if (tr->groups_traced == 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "not traced: %s", cut ? cut : "the simulator traced no work-group");
		goto out;
	}
	wl_point_text(t->exp, t->pts.values, where, sizeof(where));
	o = json_pack("{s:s, s:s, s:s, s:i, s:o, s:o, s:{s:i, s:i, s:o}}", "experiment", t->exp->id, "variant",
		      t->rv.name, "point", where, "lanes", t->lanes, "traced", wl_traced_json(tr), "declared",
		      declared_json(t), "groups", "sampled", tr->groups_sampled, "traced", tr->groups_traced,
		      "cut", cut ? json_string(cut) : json_null());
	if (!o || json_dumpf(o, stdout, JSON_COMPACT) < 0) {
		json_decref(o);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	putchar('\n');
	json_decref(o);
	rc = 0;
out:
	if (f)
		fclose(f);
	free(text);
	free(tr);
	return rc;
}

/* Plan the trace, run it under its budget and count what it wrote. */
static int trace_supervised(const struct wl_trace_config *cfg, char **argv, const char *out, struct wl_error *err)
{
	struct wl_catalog *cat = NULL;
	struct traced t = { 0 };
	char path[4096], why[256];
	int rc = -1, ended;

	snprintf(path, sizeof(path), "%s/catalog.json", cfg->kernels);
	if (wl_catalog_load(path, &cat, err) < 0 || plan(cat, cfg->kernels, cfg->spec, &t, err) < 0)
		goto out;
	/* A point whose buffers alone pass the budget is not tried. */
	if (wl_variant_cost(t.exp, &t.rv.def, WL_COST_MEMORY, t.pts.values) > (double)cfg->memory) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "not traced: the point needs %.0f MiB of buffers, past the trace's memory budget of %ld MiB",
			     wl_variant_cost(t.exp, &t.rv.def, WL_COST_MEMORY, t.pts.values) / (1 << 20),
			     cfg->memory >> 20);
		goto out;
	}
	ended = supervise_traced(cfg, argv, out, why, sizeof(why));
	if (ended == 1) {
		rc = 1;		/* the traced process said why */
		goto out;
	}
	rc = count_trace(&t, out, ended == 2 ? why : NULL, err);
out:
	traced_free(&t);
	wl_catalog_free(cat);
	return rc;
}

int wl_trace_main(const struct wl_trace_config *cfg, char **argv)
{
	struct wl_error err;
	const char *tmp = getenv("TMPDIR");
	char out[PATH_MAX];
	int fd, rc;

	wl_error_clear(&err);
	tracing = 1;
	if (getenv("WARPLAB_TRACING")) {
		rc = traced_run(cfg, cfg->spec, &err);
		if (rc < 0)
			wl_log_error("--trace: %s", err.msg);
		return rc < 0 ? 1 : 0;
	}
	/* A confined worker may write only beneath its TMPDIR. */
	snprintf(out, sizeof(out), "%s/warplab-trace-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(out);
	if (fd < 0) {
		wl_log_error("--trace: cannot make a file for the trace: %s", strerror(errno));
		return 1;
	}
	close(fd);
	rc = trace_supervised(cfg, argv, out, &err);
	if (rc < 0)
		wl_log_error("--trace: %s", err.msg);
	unlink(out);
	return rc != 0 ? 1 : 0;
}
