/* warplab-runner: the settings, and which of the runner's processes this one
 * is (runner.h): the supervisor by default, the worker with --worker-fd, a
 * worker's program builder with --builder, a tracer with --trace. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "builder_spawner.h"
#include "log.h"
#include "options.h"
#include "program_ahead.h"
#include "runner.h"
#include "trace.h"

#ifndef WL_VERSION
#define WL_VERSION "0.0.0"
#endif

static void on_signal(int sig)
{
	(void)sig;
	wl_runner_stop = 1;
}

/* Run as the process cfg says this one is; returns its exit status. */
static int run_as(struct runner_config *cfg, int argc, char **argv)
{
	if (cfg->builder)
		return wl_builder_process_main(cfg->builder);
	if (cfg->trace) {
		const struct wl_trace_config trace = { cfg->trace, cfg->kernels, cfg->trace_seconds, cfg->trace_memory };

		return wl_trace_main(&trace, argv);
	}
	return cfg->worker_fd >= 0 ? wl_work(cfg) : wl_supervise(cfg, argc, argv);
}

int main(int argc, char **argv)
{
	struct runner_config cfg = {
		.db = "var/warplab.db",
		.kernels = "kernels",
		.devices = NULL,
		.program_cache = NULL,
		.heartbeat = 15,
		.max_attempts = 3,
		.warmup = 2,
		.poll_ms = 250,
		.run_timeout = 3600,
		.flush_max = 1L << 30,
		.stop_timeout = 60,
		.worker_fd = -1,
		.runner_id = 0,
		.device_slot = 0,
		.trace_seconds = 20,
		.trace_memory = 4L << 30,
		.build_ahead = "gpu",
		.builders = -1,
	};
	const struct wl_option options[] = {
		{ "db", WL_OPT_STRING, &cfg.db, "STORE", "the store: a SQLite file (path or sqlite:PATH) or postgresql://... (default var/warplab.db)", 0, 0 },
		{ "kernels", WL_OPT_STRING, &cfg.kernels, "DIR", "catalog.json and the .cl sources (default kernels)", 0, 0 },
		{ "host-name", WL_OPT_STRING, &cfg.host_name, "NAME", "this host's name in a lab of several sharing one PostgreSQL store: shown with its devices, and put before their ids (default: the machine's host name, ids unchanged)", 0, 0 },
		{ "devices", WL_OPT_STRING, &cfg.devices, "LIST", "only these devices: ids, 'gpu' or 'cpu', comma-separated (default all)", 0, 0 },
		{ "program-cache", WL_OPT_STRING, &cfg.program_cache, "DIR", "where built kernel binaries are kept across restarts (default: 'programs' beside the store; '' for none)", 0, 0 },
		{ "heartbeat", WL_OPT_INT, &cfg.heartbeat, "SECONDS", "silence after which a runner counts as gone (default 15)", 3, 3600 },
		{ "max-attempts", WL_OPT_INT, &cfg.max_attempts, "N", "tries before a run whose runner keeps dying fails (default 3)", 1, 100 },
		{ "warmup", WL_OPT_INT, &cfg.warmup, "N", "untimed launches before the timed ones (default 2)", 0, 100 },
		{ "poll-ms", WL_OPT_INT, &cfg.poll_ms, "MS", "how often an idle runner looks at the queue (default 250)", 10, 60000 },
		{ "run-timeout", WL_OPT_INT, &cfg.run_timeout, "SECONDS", "the most one point of a run may take before the run is stopped (default 3600)", 1, 604800 },
		{ "stop-timeout", WL_OPT_INT, &cfg.stop_timeout, "SECONDS", "how long a stopping runner lets the current point finish (default 60)", 1, 3600 },
		{ "flush-max", WL_OPT_INT, &cfg.flush_max, "BYTES", "the most a cold timing writes to flush the cache before each launch (default 1073741824; four times the measured cache otherwise)", 1048576, 1L << 40 },
		{ "no-fp64", WL_OPT_FLAG, &cfg.no_fp64, NULL, "treat devices as without fp64: double experiments run in float", 0, 0 },
		{ "unconfined-kernels", WL_OPT_FLAG, &cfg.unconfined_kernels, NULL, "run custom kernels even where the worker cannot be confined (no Landlock): their source could then read any file this user can (default: such runs fail saying why)", 0, 0 },
		{ "test-kernels", WL_OPT_FLAG, &cfg.test_kernels, NULL, "allow the catalog's test-only experiments (for warplab's own tests)", 0, 0 },
		{ "test-lose-context", WL_OPT_INT, &cfg.test_lose_context, "N", "the N-th timed launch of a custom kernel loses the device's context, as CUDA's illegal address does (for warplab's own tests of the lost-context policy, on OpenCL devices); needs --test-kernels", 0, 1000000 },
		{ "test-context-stays-lost", WL_OPT_FLAG, &cfg.test_context_stays_lost, NULL, "with --test-lose-context: the reset after it fails too, as where CUDA keeps the error for the process (tests only)", 0, 0 },
		{ "test-languages", WL_OPT_STRING, &cfg.test_languages, "LIST", "declare that the device runs these languages (e.g. opencl,cuda), whatever it runs, for warplab's own tests of how runs are routed; needs --test-kernels", 0, 0 },
		{ "trace", WL_OPT_STRING, &cfg.trace, "SPEC", "trace one variant's memory accesses at one point in the Oclgrind simulator and print its figures as JSON beside the declared ones: SPEC is a run request with one variant or custom kernel (and \"lanes\", default 32); with \"language\": \"cuda\", its CUDA kernel, compiled for the simulator by clang 14; nothing is queued or stored", 0, 0 },
		{ "no-trace", WL_OPT_FLAG, &cfg.no_trace, NULL, "do not trace runs' memory accesses in the Oclgrind simulator after they are measured (default: traced where Oclgrind is installed)", 0, 0 },
		{ "no-catalog-traces", WL_OPT_FLAG, &cfg.no_catalog_traces, NULL, "do not trace the catalog's built-in variants at their defaults while idle (default: once per worker where runs are traced, kept in the store for the lab)", 0, 0 },
		{ "build-ahead", WL_OPT_STRING, &cfg.build_ahead, "WHEN", "build the catalog's programs at their defaults while a starting worker describes its device, so first runs find them built: gpu (on GPUs; the default), always or never", 0, 0 },
		{ "builders", WL_OPT_INT, &cfg.builders, "N", "processes that build an own experiment's OpenCL programs or CUDA modules while its points are measured (default: a quarter of the worker's share of the host's cores for OpenCL, half for CUDA, 1 to 8; 0: none, each point builds its own)", 0, 8 },
		{ "trace-seconds", WL_OPT_INT, &cfg.trace_seconds, "SECONDS", "the most a trace may take, wall and CPU (default 20)", 1, 3600 },
		{ "trace-memory", WL_OPT_INT, &cfg.trace_memory, "BYTES", "the most memory a trace may map (default 4294967296)", 1L << 26, 1L << 40 },
		{ "worker-fd", WL_OPT_INT, &cfg.worker_fd, "FD", "(internal) run as the worker, reporting on FD", 0, 65535 },
		{ "runner-id", WL_OPT_INT, &cfg.runner_id, "ID", "(internal) the worker's runner id", 1, 1L << 62 },
		{ "device-slot", WL_OPT_INT, &cfg.device_slot, "N", "(internal) the worker's device, by its place among those found", 0, 1023 },
		{ "builder", WL_OPT_STRING, &cfg.builder, "WHERE", "(internal) build a worker's programs (WHERE: \"opencl\" and its device's platform, name and place, or \"cuda\" and its compute capability, a line each): a source, then options, on fd 3; each build's log, binary and PTX back on it", 0, 0 },
		{ 0 },
	};
	struct wl_error err;
	struct sigaction sa;
	int status = 1;

	wl_log_init("warplab-runner");
	switch (wl_options_parse(options, argc, argv,
				 "usage: warplab-runner --db STORE --kernels DIR [--config FILE] [--devices LIST] [--host-name NAME]",
				 "warplab-runner " WL_VERSION, &err)) {
	case WL_OPTIONS_EXIT_OK:
		status = 0;
		goto out;
	case WL_OPTIONS_FAIL:
		wl_log_error("%s", err.msg);
		goto out;
	case WL_OPTIONS_OK:
		break;
	}
	if (wl_build_ahead_parse(cfg.build_ahead, &(enum wl_build_ahead){ 0 }, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	if (cfg.test_languages && !cfg.test_kernels) {
		wl_log_error("--test-languages is for warplab's own tests: give --test-kernels too");
		goto out;
	}
	if ((cfg.test_lose_context || cfg.test_context_stays_lost) && !cfg.test_kernels) {
		wl_log_error("--test-lose-context is for warplab's own tests: give --test-kernels too");
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	status = run_as(&cfg, argc, argv);
out:
	wl_options_free(options);
	return status;
}
