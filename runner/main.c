/* warplab-runner: the only process that opens OpenCL. It enumerates the
 * machine's devices, registers them in the store, recovers runs a dead runner
 * left behind, then claims queued runs one at a time and executes them, with a
 * heartbeat thread telling the server it is alive. SIGTERM or SIGINT stops it
 * after the current point, with its run put back in the queue. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"
#include "cl_device.h"
#include "cl_program.h"
#include "executor.h"
#include "experiment.h"
#include "log.h"
#include "options.h"
#include "store.h"

#ifndef WL_VERSION
#define WL_VERSION "0.0.0"
#endif

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct runner_config {
	char *db, *kernels, *devices;
	long heartbeat;		/* seconds of silence after which a runner counts as gone */
	long max_attempts;
	long warmup;
	long poll_ms;
	int no_fp64;
};

struct heartbeat {
	const char *db;
	long long runner_id;
	long interval_ms;
	pthread_t thread;
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The heartbeat has its own connection: a store handle serves one thread. */
static void *heartbeat_main(void *arg)
{
	struct heartbeat *hb = arg;
	struct wl_store *st = NULL;
	struct wl_error err;
	long waited = 0;

	if (wl_store_open(hb->db, &st, &err) < 0) {
		wl_log_error("heartbeat: %s", err.msg);
		return NULL;
	}
	while (!stop_requested) {
		if (waited >= hb->interval_ms) {
			if (wl_store_heartbeat(st, hb->runner_id, &err) < 0)
				wl_log_warn("heartbeat: %s", err.msg);
			waited = 0;
		}
		sleep_ms(100);
		waited += 100;
	}
	wl_store_close(st);
	return NULL;
}

static int register_devices(struct wl_store *st, long long runner_id,
			    const struct wl_cl_devices *devs, struct wl_error *err)
{
	for (size_t i = 0; i < devs->count; i++) {
		if (wl_store_upsert_device(st, runner_id, (long long)i, devs->list[i].info, err) < 0)
			return -1;
		wl_log_info("device %s: %s (%s)", devs->list[i].id,
			    json_string_value(json_object_get(devs->list[i].info, "name")),
			    devs->list[i].is_gpu ? "gpu" : "cpu");
	}
	return 0;
}

/* Which of our devices serve "auto", "gpu" and "cpu". */
static void claim_devices(const struct wl_cl_devices *devs, const char **ids,
			  struct wl_claim_devices *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < devs->count; i++) {
		ids[i] = devs->list[i].id;
		if (devs->list[i].is_gpu && !out->gpu_id)
			out->gpu_id = devs->list[i].id;
		if (!devs->list[i].is_gpu && !out->cpu_id)
			out->cpu_id = devs->list[i].id;
	}
	out->ids = ids;
	out->nids = devs->count;
	out->auto_id = out->gpu_id ? out->gpu_id : out->cpu_id;
}

static int recover(struct wl_store *st, long long runner_id, const struct runner_config *cfg)
{
	char host[256] = "localhost";
	struct wl_error err;
	int requeued, failed;

	gethostname(host, sizeof(host) - 1);
	if (wl_store_recover(st, runner_id, host, cfg->heartbeat, cfg->max_attempts, &requeued,
			     &failed, &err) < 0) {
		wl_log_warn("recovery: %s", err.msg);
		return -1;
	}
	if (requeued || failed)
		wl_log_info("recovered runs left by a dead runner: %d requeued, %d failed", requeued,
			    failed);
	return 0;
}

static int serve(struct wl_store *st, long long runner_id, struct wl_executor *ex,
		 const struct runner_config *cfg)
{
	const char **ids = calloc(ex->devs->count + 1, sizeof(*ids));
	struct wl_claim_devices cd;
	long idle_ms = 0;
	int rc = 0;

	if (!ids)
		return -1;
	claim_devices(ex->devs, ids, &cd);
	while (!stop_requested) {
		struct wl_claim claim;
		struct wl_error err;

		if (wl_store_claim_run(st, runner_id, &cd, &claim, &err) < 0) {
			wl_log_warn("claim: %s", err.msg);
			sleep_ms(cfg->poll_ms);
			continue;
		}
		if (claim.id == 0) {
			sleep_ms(cfg->poll_ms);
			idle_ms += cfg->poll_ms;
			/* Another runner sharing the store may die too. */
			if (idle_ms >= cfg->heartbeat * 1000L) {
				recover(st, runner_id, cfg);
				idle_ms = 0;
			}
			continue;
		}
		if (wl_executor_run(ex, &claim, &err) < 0)
			wl_log_error("run %lld: could not record its outcome: %s", claim.id, err.msg);
		wl_claim_free(&claim);
	}
	free(ids);
	return rc;
}

int main(int argc, char **argv)
{
	struct runner_config cfg = {
		.db = "var/warplab.db",
		.kernels = "kernels",
		.devices = NULL,
		.heartbeat = 15,
		.max_attempts = 3,
		.warmup = 2,
		.poll_ms = 250,
	};
	const struct wl_option options[] = {
		{ "db", WL_OPT_STRING, &cfg.db, "PATH", "the store (SQLite file; default var/warplab.db)", 0, 0 },
		{ "kernels", WL_OPT_STRING, &cfg.kernels, "DIR", "catalog.json and the .cl sources (default kernels)", 0, 0 },
		{ "devices", WL_OPT_STRING, &cfg.devices, "LIST", "only these devices: ids, 'gpu' or 'cpu', comma-separated (default all)", 0, 0 },
		{ "heartbeat", WL_OPT_INT, &cfg.heartbeat, "SECONDS", "silence after which a runner counts as gone (default 15)", 3, 3600 },
		{ "max-attempts", WL_OPT_INT, &cfg.max_attempts, "N", "tries before a run whose runner keeps dying fails (default 3)", 1, 100 },
		{ "warmup", WL_OPT_INT, &cfg.warmup, "N", "untimed launches before the timed ones (default 2)", 0, 100 },
		{ "poll-ms", WL_OPT_INT, &cfg.poll_ms, "MS", "how often an idle runner looks at the queue (default 250)", 10, 60000 },
		{ "no-fp64", WL_OPT_FLAG, &cfg.no_fp64, NULL, "treat devices as without fp64: double experiments run in float", 0, 0 },
		{ 0 },
	};
	struct wl_catalog *cat = NULL;
	struct wl_store *st = NULL;
	struct wl_cl_devices devs = { 0 };
	struct wl_program_cache *programs = NULL;
	struct heartbeat hb = { 0 };
	struct wl_error err;
	struct sigaction sa;
	char path[4096], host[256] = "localhost";
	long long runner_id = 0;
	int status = 1, hb_started = 0;

	wl_log_init("warplab-runner");
	switch (wl_options_parse(options, argc, argv,
				 "usage: warplab-runner --db PATH --kernels DIR [--config FILE] [--devices LIST]",
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

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	snprintf(path, sizeof(path), "%s/catalog.json", cfg.kernels);
	if (wl_catalog_load(path, &cat, &err) < 0 || wl_experiments_check(cat, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	if (wl_cl_devices_find(cfg.devices, &devs, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	if (cfg.no_fp64)
		wl_cl_devices_disable_fp64(&devs);
	if (devs.count == 0) {
		wl_log_error("no OpenCL device found%s%s (is an OpenCL driver installed? clinfo -l lists what OpenCL sees)",
			     cfg.devices ? " matching --devices " : "", cfg.devices ? cfg.devices : "");
		goto out;
	}
	if (wl_store_open(cfg.db, &st, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	gethostname(host, sizeof(host) - 1);
	if (wl_store_register_runner(st, host, (long long)getpid(), WL_VERSION, &runner_id, &err) < 0 ||
	    register_devices(st, runner_id, &devs, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	recover(st, runner_id, &cfg);

	hb.db = cfg.db;
	hb.runner_id = runner_id;
	hb.interval_ms = cfg.heartbeat * 1000L / 5;
	if (pthread_create(&hb.thread, NULL, heartbeat_main, &hb) != 0) {
		wl_log_error("cannot start the heartbeat thread");
		goto out;
	}
	hb_started = 1;

	programs = wl_program_cache_new();
	if (!programs) {
		wl_log_error("out of memory");
		goto out;
	}
	wl_log_info("runner %lld ready: %zu device(s), store %s, kernels %s", runner_id, devs.count,
		    cfg.db, cfg.kernels);
	{
		struct wl_executor ex = {
			.store = st,
			.cat = cat,
			.devs = &devs,
			.programs = programs,
			.kernels_dir = cfg.kernels,
			.version = WL_VERSION,
			.warmup = cfg.warmup,
			.stop = &stop_requested,
		};

		serve(st, runner_id, &ex, &cfg);
	}
	wl_log_info("stopping");
	status = 0;
out:
	stop_requested = 1;
	if (hb_started)
		pthread_join(hb.thread, NULL);
	if (st && runner_id && wl_store_runner_stopped(st, runner_id, &err) < 0)
		wl_log_warn("%s", err.msg);
	wl_program_cache_free(programs);
	wl_cl_devices_free(&devs);
	wl_store_close(st);
	wl_catalog_free(cat);
	wl_options_free(options);
	return status;
}
