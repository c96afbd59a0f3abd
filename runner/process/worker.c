/* The runner's worker process: the only one that opens OpenCL, one per
 * device. It loads the catalog, enumerates the devices, keeps the one in its
 * slot and registers it under the runner id the supervisor gave it, then
 * claims queued runs for that device one at a time (when none waits, joins a
 * shared run another device of its model holds) and executes them, telling
 * the supervisor over its pipe when each point starts and how long it may
 * take. SIGTERM stops it after the current point, the run requeued. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_probe.h"
#include "cold_flush.h"
#include "device_facts.h"
#include "device_fit.h"
#include "catalog.h"
#include "cl_device.h"
#include "backend.h"
#include "cl_program.h"
#include "checker.h"
#include "builder_spawner.h"
#include "cuda_builders.h"
#include "confine.h"
#include "cuda_driver.h"
#include "cuda_languages.h"
#include "cuda_compile.h"
#include "cuda_device.h"
#include "executor.h"
#include "explain.h"
#include "experiment.h"
#include "language.h"
#include "log.h"
#include "program_ahead.h"
#include "nvml.h"
#include "runner.h"
#include "store.h"
#include "trace.h"
#include "trace_helpers.h"
#include "wakeup.h"

#ifndef WL_VERSION
#define WL_VERSION "0.0.0"
#endif

static int report_fd = -1;

/* One line to the supervisor. A supervisor that is gone cannot be told, and
 * PR_SET_PDEATHSIG ends this process soon after anyway. */
static void report(const char *fmt, ...)
{
	char line[384];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || report_fd < 0)
		return;
	line[n] = '\n';
	if (write(report_fd, line, (size_t)n + 1) < 0)
		wl_log_warn("cannot reach the supervisor");
}

static void on_point(void *ctx, long long run_id, long long deadline_s)
{
	(void)ctx;
	report("%s %lld %lld", WL_MSG_POINT, run_id, deadline_s);
}

static void on_probe(void *ctx, long long run_id, long long seconds)
{
	(void)ctx;
	report("%s %lld %lld", WL_MSG_PROBE, run_id, seconds);
}

static void on_custom(void *ctx, const char *name, const char *point)
{
	(void)ctx;
	if (name)
		report("%s %s %s", WL_MSG_CUSTOM, name, point);
	else
		report("%s -", WL_MSG_CUSTOM);
}

/* The CUDA driver's devices, asked before the worker confines itself. */
static struct wl_cuda_devices cuda;
static char cuda_why[256];
/* NVRTC and CUPTI, looked for before the worker confines itself. */
static struct wl_nvrtc nvrtc;
static char nvrtc_why[300], cupti_why[300];
static int cupti;

/* What the store kept for dev when it was last registered with the same
 * driver, or NULL. Caller frees. */
static json_t *stored_info(struct wl_store *st, const struct wl_device *dev)
{
	json_t *known = NULL;
	struct wl_error err;

	if (wl_store_get_device_info(st, dev->id, &known, &err) < 0 || !known ||
	    !json_equal(json_object_get(known, "driver"), json_object_get(dev->info, "driver"))) {
		json_decref(known);
		return NULL;
	}
	return known;
}

/* The device's facts in one line of the log. */
static void log_facts(const char *id, const json_t *facts)
{
	struct wl_facts f;
	char text[1024];

	wl_facts_from_json(facts, &f);
	wl_facts_text(&f, text, sizeof(text));
	wl_log_info("device %s: facts: %s", id, text);
}

/* The device's last-level cache (cache_probe.h), then its facts
 * (device_facts.h), each from what the store kept for it when it was last
 * registered with the same driver where it can. */
static void describe_cache(struct wl_store *st, struct wl_device *dev)
{
	json_t *known = stored_info(st, dev), *cache, *facts;

	cache = wl_cache_describe(dev, &cuda, cuda_why, json_object_get(known, "cache"));
	if (cache) {
		if (json_integer_value(json_object_get(cache, "bytes")) > 0)
			wl_log_info("device %s: last-level cache %lld bytes (%s)", dev->id,
				    (long long)json_integer_value(json_object_get(cache, "bytes")),
				    json_string_value(json_object_get(cache, "source")));
		else
			wl_log_warn("device %s: last-level cache size unknown (%s); cold timings flush %zu MiB", dev->id,
				    json_string_value(json_object_get(cache, "method")), WL_FLUSH_UNKNOWN >> 20);
		json_object_set_new(dev->info, "cache", cache);
	}
	facts = wl_device_facts_describe(dev, json_integer_value(json_object_get(json_object_get(dev->info, "cache"), "bytes")),
					 json_object_get(known, "facts"));
	json_decref(known);
	if (!facts)
		return;
	if (json_object_get(facts, "error"))
		wl_log_warn("device %s: facts not measured: %s", dev->id, json_string_value(json_object_get(facts, "error")));
	else
		log_facts(dev->id, facts);
	json_object_set_new(dev->info, "facts", facts);
}

/* Which languages dev runs and whether counters can be read there, said
 * once in the log where CUDA is not run. */
static void describe_languages(struct wl_device *dev, const char *declared)
{
	struct wl_cuda_parts parts = { .driver = &cuda, .driver_why = cuda_why, .nvrtc = &nvrtc,
				       .nvrtc_why = nvrtc_why, .cupti = cupti, .cupti_why = cupti_why,
				       .profiling_params = WL_NVIDIA_PARAMS, .admin = geteuid() == 0 };
	json_t *langs = wl_cuda_languages(&parts, dev->has_pci ? &dev->pci : NULL);
	struct wl_error err;

	/* Attached whatever the driver said: a CUDA run routed here anyway
	 * (--test-languages) then fails saying what is missing. */
	if (wl_cuda_attach(dev, dev->has_pci ? wl_cuda_ordinal(&cuda, dev->pci.domain, dev->pci.bus, dev->pci.device) : -1,
			   &nvrtc, &err) < 0)
		wl_log_warn("device %s: no CUDA side: %s", dev->id, err.msg);
	if (!langs)
		return;
	/* --test-languages: what the device says it runs, for warplab's own
	 * tests of routing (a run in such a language then fails here, saying
	 * why). */
	if (declared) {
		json_t *list = json_array();
		char words[128], *save = NULL;

		snprintf(words, sizeof(words), "%s", declared);
		for (char *w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save))
			json_array_append_new(list, json_string(w));
		json_object_set_new(langs, "languages", list);
		wl_log_info("device %s declared to run %s (--test-languages)", dev->id, declared);
	} else if (!json_is_true(json_object_get(json_object_get(langs, "cuda"), "available"))) {
		wl_log_info("device %s runs OpenCL only: %s", dev->id,
			    wl_device_cuda_reason(langs));
	}
	json_object_update(dev->info, langs);
	json_decref(langs);
}

/* The languages dev runs as ",opencl,cuda," into buf: what its claims
 * match against a run's. */
static void claim_languages(const struct wl_device *dev, char *buf, size_t len)
{
	size_t i;
	json_t *l;

	snprintf(buf, len, ",");
	json_array_foreach(json_object_get(dev->info, "languages"), i, l)
		if (json_is_string(l) && strlen(buf) + strlen(json_string_value(l)) + 2 <= len) {
			strcat(buf, json_string_value(l));
			strcat(buf, ",");
		}
	if (strcmp(buf, ",") == 0)
		snprintf(buf, len, ",%s,", WL_LANG_DEFAULT_NAME);
}

/* Open NVML for dev where it knows it; the device's description says which. */
static void describe_clocks(struct wl_device *dev)
{
	const char *vendor = json_string_value(json_object_get(dev->info, "vendor"));
	struct wl_nvml_target target = {
		.id = dev->id,
		.nvidia = dev->is_gpu && vendor && strstr(vendor, "NVIDIA"),
		.pci = dev->has_pci ? &dev->pci : NULL,
		.nvidia_index = dev->nvidia_index,
	};
	struct wl_nvml *nvml = NULL;
	char why[160];

	wl_nvml_open(&target, &nvml, why, sizeof(why));
	if (nvml) {
		dev->telemetry = &wl_nvml_telemetry;
		dev->telemetry_handle = nvml;
		json_object_set_new(dev->info, "clocks", json_string("nvml"));
		json_object_set_new(dev->info, "peak_gbps", json_real(wl_device_peak_gbps(dev)));
		wl_log_info("device %s: clocks from NVML, peak memory bandwidth %.0f GB/s", dev->id,
			    wl_device_peak_gbps(dev));
	} else {
		json_object_set_new(dev->info, "clocks", json_sprintf("unknown: %s", why));
	}
}

/* Point standard output at /dev/null. */
static int discard_stdout(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int rc = fd < 0 ? -1 : dup2(fd, STDOUT_FILENO);

	if (fd >= 0)
		close(fd);
	return rc < 0 ? -1 : 0;
}

/* A folder for temporary files inside what the worker may write: tmp/ in a
 * SQLite store's folder, else in the program cache. Named in TMPDIR and
 * SQLITE_TMPDIR; left as it is where neither exists. */
static void scratch_dir(const struct runner_config *cfg)
{
	char dir[4096];

	if (wl_store_beside(cfg->db, "tmp", dir, sizeof(dir)) < 0) {
		if (!cfg->program_cache || !*cfg->program_cache)
			return;
		snprintf(dir, sizeof(dir), "%s/tmp", cfg->program_cache);
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return;
	setenv("TMPDIR", dir, 1);
	setenv("SQLITE_TMPDIR", dir, 1);
}

/* Confine this process to what the worker needs (confine.h): the kernels,
 * a SQLite store's folder, the program cache. */
static int confine(const struct runner_config *cfg, char *what, size_t len)
{
	char store_dir[4096], programs[4096], self[PATH_MAX], tracer[PATH_MAX], cuda_ir[PATH_MAX];
	struct wl_confine_paths paths = { .kernels = cfg->kernels };

	/* The tracer is this program again, under Oclgrind with its plugin. */
	if (realpath("/proc/self/exe", self))
		paths.self = self;
	if (wl_trace_plugin_path(tracer, sizeof(tracer)) == 0)
		paths.tracer = tracer;
	/* A CUDA kernel is traced through clang (under /usr) and this. */
	if (wl_trace_helper_path(WL_CUDA_IR, cuda_ir, sizeof(cuda_ir)) == 0)
		paths.cuda_ir = cuda_ir;
	if (wl_store_beside(cfg->db, ".", store_dir, sizeof(store_dir)) == 0)
		paths.store_dir = store_dir;
	if (cfg->program_cache)
		paths.programs = cfg->program_cache;
	else if (wl_store_beside(cfg->db, "programs", programs, sizeof(programs)) == 0)
		paths.programs = programs;
	return wl_confine(&paths, what, len);
}

/* Ready the worker before it opens OpenCL, in this order: kernel output to
 * /dev/null, temporary files where it may write, the spawner of builder
 * processes (builder_spawner.h), the store and its wake-ups
 * (a PostgreSQL password file is read now and never again), the CUDA
 * driver's answers, and then the confinement (confine.h), said in the log
 * and in what. Returns -1 only when the store cannot be opened (logged). */
static int prepare(const struct runner_config *cfg, struct wl_store **st, struct wl_wakeup **wake,
		   char *what, size_t what_len, int *confined)
{
	struct wl_error err;

	/* NVIDIA's compute cache hands back a program it built before without
	 * its build log, which is the compiler's account (the runner keeps its
	 * own program cache, log included, cl_program.h). */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	/* A kernel's printf writes to this process's standard output, which is
	 * the runner's log: as many lines as work-items, in any words. */
	if (discard_stdout() < 0)
		wl_log_warn("cannot send kernel output to /dev/null: %s", strerror(errno));
	/* SQLite reads where its temporary files go at its first call. */
	scratch_dir(cfg);
	/* Before the store is opened: the spawner shares nothing of it. */
	if (cfg->builders != 0 && wl_spawner_start() < 0)
		wl_log_warn("no builder processes (%s): an own experiment's programs build in this process",
			    strerror(errno));
	if (wl_store_open(cfg->db, st, &err) < 0) {
		wl_log_error("%s", err.msg);
		return -1;
	}
	if (wl_wakeup_listen(cfg->db, WL_WAKE_RUNNERS, wake, &err) < 0)
		wl_log_warn("no wake-ups (%s): polling every %ld ms", err.msg, cfg->poll_ms);
	/* The CUDA driver opens files of its own the confinement does not list. */
	if (wl_cuda_devices_load(WL_CUDA_DRIVER_LIB, &cuda, cuda_why, sizeof(cuda_why)) < 0 &&
	    strncmp(cuda_why, "no CUDA driver", 14) != 0)
		wl_log_warn("%s", cuda_why);
	if (cuda.count > 0) {
		wl_nvrtc_open(NULL, &nvrtc, nvrtc_why, sizeof(nvrtc_why));
		cupti = wl_cupti_loads(NULL, cupti_why, sizeof(cupti_why));
	}
	*confined = confine(cfg, what, what_len) == 0;
	if (*confined)
		wl_log_info("kernels are confined: %s", what);
	else
		wl_log_warn("kernels are not confined: %s; %s", what,
			    cfg->unconfined_kernels ? "custom kernels run all the same (--unconfined-kernels)" :
			    "runs with custom kernels will fail (docs/operations.md, \"Other people's kernels\")");
	return 0;
}

static int register_device(struct wl_store *st, long long runner_id, long long slot,
			   struct wl_device *dev, const char *confinement, struct wl_error *err)
{
	json_object_set_new(dev->info, "confinement", json_string(confinement));
	describe_clocks(dev);
	describe_cache(st, dev);
	if (wl_store_upsert_device(st, runner_id, slot, dev->info, err) < 0)
		return -1;
	wl_log_info("device %s: %s (%s)", dev->id, json_string_value(json_object_get(dev->info, "name")),
		    dev->is_gpu ? "gpu" : "cpu");
	return 0;
}

/* Which requests this worker's device serves: runs pinned to it, "gpu" or
 * "cpu" by its type, and "auto" when it is a GPU or the runner has none (so
 * "auto" never lands on a CPU while a GPU of the runner could take it). */
static void claim_devices(const struct wl_device *dev, int runner_has_gpu, const char **ids,
			  struct wl_claim_devices *out)
{
	memset(out, 0, sizeof(*out));
	ids[0] = dev->id;
	out->ids = ids;
	out->nids = 1;
	out->gpu_id = dev->is_gpu ? dev->id : NULL;
	out->cpu_id = dev->is_gpu ? NULL : dev->id;
	out->auto_id = dev->is_gpu || !runner_has_gpu ? dev->id : NULL;
	out->model = json_string_value(json_object_get(dev->info, "name"));
}

/* Claim and execute runs until stopped; wake (or NULL: polling alone) is
 * how the server says a run was queued. */
static void serve(struct wl_store *st, struct wl_executor *ex, struct wl_wakeup *wake, long poll_ms,
		  int runner_has_gpu)
{
	const char *ids[1];
	struct wl_claim_devices cd;
	char languages[64];

	claim_devices(&ex->devs->list[0], runner_has_gpu, ids, &cd);
	claim_languages(&ex->devs->list[0], languages, sizeof(languages));
	cd.languages = languages;
	while (!wl_runner_stop) {
		struct wl_claim claim;
		struct wl_error err;

		if (wl_store_claim_run(st, ex->runner_id, &cd, &claim, &err) < 0) {
			wl_log_warn("claim: %s", err.msg);
			wl_wakeup_wait(wake, poll_ms);
			continue;
		}
		/* Idle: a shared run another device of this model holds. */
		if (claim.id == 0 && wl_store_join_run(st, ex->devs->list[0].id, &cd, &claim, &err) < 0)
			wl_log_warn("join: %s", err.msg);
		if (claim.id == 0) {
			/* Idle: the explanations of done runs, then sleep. */
			int explained = wl_explain_counts(ex, &cd, &err);

			if (explained == 0)
				explained = wl_explain_next(ex, &cd, &err);

			if (explained == 0)
				explained = wl_explain_catalog(ex, &cd, &err);
			if (explained < 0)
				wl_log_warn("explain: %s", err.msg);
			if (explained != 0)
				report("%s", WL_MSG_IDLE);
			if (explained <= 0)
				wl_wakeup_wait(wake, poll_ms);
			continue;
		}
		if (wl_executor_run(ex, &claim, &err) < 0)
			wl_log_error("run %lld: could not record its outcome: %s", claim.id, err.msg);
		/* Builders building someone else's code end with its run. */
		wl_program_behind_stop(ex->programs);
		wl_cuda_builders_stop();
		report("%s", WL_MSG_IDLE);
		/* A device that joined and left (it could not run the run, or
		 * nothing was left to take) looks again at its next poll, not at
		 * once. */
		if (claim.helper)
			wl_wakeup_wait(wake, poll_ms);
		wl_claim_free(&claim);
	}
}

/* What a run's programs are built ahead into, and when (program_ahead.h). */
struct run_ahead {
	struct wl_program_cache *programs;
	enum wl_build_ahead when;
};

static void build_run_ahead(void *ctx, const struct wl_run_plan *plan)
{
	const struct run_ahead *a = ctx;

	wl_run_build_ahead(plan, a->programs, a->when);
}

/* Serve runs with an executor over what the worker opened, until stopped;
 * unconfined is why custom kernels may not run here, or NULL. */
static void serve_runs(const struct runner_config *cfg, struct wl_store *st,
		       const struct wl_catalog *cat, struct wl_devices *devs,
		       struct wl_program_cache *programs, enum wl_build_ahead when, struct wl_wakeup *wake,
		       const char *unconfined, int runner_has_gpu)
{
	struct run_ahead ahead = { .programs = programs, .when = when };
	struct wl_error err;
	struct wl_executor ex = {
		.store = st,
		.cat = cat,
		.devs = devs,
		.programs = programs,
		.kernels_dir = cfg->kernels,
		.version = WL_VERSION,
		.warmup = cfg->warmup,
		.runner_id = cfg->runner_id,
		.device_slot = cfg->device_slot,
		.point_timeout_max = cfg->run_timeout,
		.flush_max = (size_t)cfg->flush_max,
		.unconfined = unconfined,
		.stop = &wl_runner_stop,
		.on_point = on_point,
		.on_probe = on_probe,
		.on_custom = on_custom,
		.build_ahead = build_run_ahead,
		.build_ahead_ctx = &ahead,
		.trace_off = cfg->no_trace ? "tracing is off on this runner (--no-trace)" :
					     wl_trace_unavailable(),
		.trace_seconds = cfg->trace_seconds,
		.trace_memory = cfg->trace_memory,
		.catalog_traces = !cfg->no_catalog_traces,
	};

	if (ex.trace_off)
		wl_log_info("runs are not traced: %s", ex.trace_off);
	/* Without the thread, checks run in turn: slower, not wrong. */
	if (wl_checker_new(omp_get_max_threads(), &ex.checker, &err) < 0)
		wl_log_info("%s; verifying in turn", err.msg);
	serve(st, &ex, wake, cfg->poll_ms, runner_has_gpu);
	wl_checker_free(ex.checker);
}

int wl_work(const struct runner_config *cfg)
{
	struct wl_catalog *cat = NULL;
	struct wl_store *st = NULL;
	struct wl_devices devs = { 0 };
	struct wl_program_cache *programs = NULL;
	struct wl_wakeup *wake = NULL;
	struct wl_error err;
	char path[4096], confinement[256];
	size_t found;
	struct wl_catalog_ahead *ahead;
	enum wl_build_ahead when;
	int status = 1, runner_has_gpu = 0, confined, rc;

	wl_log_init("warplab-runner[worker]");
	report_fd = (int)cfg->worker_fd;
	/* If the supervisor dies, so does the worker: nobody would watch it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		return 1;
	if (prepare(cfg, &st, &wake, confinement, sizeof(confinement), &confined) < 0)
		goto out;

	snprintf(path, sizeof(path), "%s/catalog.json", cfg->kernels);
	if (wl_catalog_load(path, &cat, &err) < 0 ||
	    wl_experiments_check(cat, cfg->test_kernels, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	if (wl_devices_find(cfg->devices, cfg->host_name, &devs, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	if (cfg->no_fp64)
		wl_devices_disable_fp64(&devs);
	if (devs.count == 0) {
		wl_log_error("no OpenCL device found%s%s (is an OpenCL driver installed? clinfo -l lists what OpenCL sees)",
			     cfg->devices ? " matching --devices " : "", cfg->devices ? cfg->devices : "");
		goto out;
	}
	found = devs.count;
	if ((size_t)cfg->device_slot >= found) {
		wl_log_error("device slot %ld: only %zu device(s) found", cfg->device_slot, found);
		goto out;
	}
	for (size_t i = 0; i < found; i++)
		runner_has_gpu |= devs.list[i].is_gpu;
	/* The workers of a host share its cores: each takes its part for host
	 * work, unless OMP_NUM_THREADS says otherwise. */
	if (found > 1 && !getenv("OMP_NUM_THREADS"))
		omp_set_num_threads(omp_get_num_procs() / (int)found > 1 ? omp_get_num_procs() / (int)found : 1);
	wl_devices_keep(&devs, (size_t)cfg->device_slot);
	if (!cfg->program_cache && wl_store_beside(cfg->db, "programs", path, sizeof(path)) < 0)
		path[0] = '\0';
	programs = wl_program_cache_new(cfg->program_cache ? cfg->program_cache : path);
	/* Builders confine themselves as the worker does: where it could not,
	 * they would not run, and each point builds its own. */
	if (programs && cfg->builders != 0 && confined)
		wl_program_cache_spawn_with(programs, wl_spawner_builder, (int)cfg->builders);
	wl_cuda_compiled_keep_in(cfg->program_cache ? cfg->program_cache : path);
	if (!programs || wl_build_ahead_parse(cfg->build_ahead, &when, &err) < 0) {
		wl_log_error("%s", programs ? err.msg : "out of memory");
		goto out;
	}
	/* The programs build while the device is described; runs wait for both.
	 * Its languages first: they say whether CUDA modules are built too. */
	describe_languages(&devs.list[0], cfg->test_languages);
	if (cfg->test_lose_context)
		wl_backend_test_lose_context(cfg->test_lose_context, cfg->test_context_stays_lost);
	wl_error_clear(&err);
	ahead = wl_catalog_ahead_start(cat, &devs, cfg->kernels, programs, when, &err);
	if (!ahead && err.msg[0])
		wl_log_warn("programs not built ahead: %s", err.msg);
	rc = register_device(st, cfg->runner_id, cfg->device_slot, &devs.list[0], confinement, &err);
	wl_catalog_ahead_join(ahead, programs);
	if (rc < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	report("%s %zu %s", WL_MSG_READY, found, devs.list[0].id);
	serve_runs(cfg, st, cat, &devs, programs, when, wake,
		   confined || cfg->unconfined_kernels ? NULL : confinement, runner_has_gpu);
	status = 0;
out:
	wl_wakeup_close(wake);
	wl_cuda_builders_end();
	wl_cuda_compiled_release();
	wl_program_cache_free(programs);
	wl_devices_free(&devs);
	wl_store_close(st);
	wl_catalog_free(cat);
	return status;
}
