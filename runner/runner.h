/* The runner's processes. warplab-runner starts as the supervisor, which
 * never opens OpenCL: it registers the runner in the store, sends its
 * heartbeats, recovers runs that dead runners left, and starts one worker per
 * device (the same program with --worker-fd and --device-slot), each of which
 * opens its device and executes that device's runs, so every GPU of the host
 * works at once. Before each point a worker tells the supervisor how long the
 * point may take; a worker that overruns is killed and restarted and its run
 * fails with "timed out after N s", so a kernel that hangs cannot take the
 * runner, nor the other devices, down. */
#ifndef WL_RUNNER_H
#define WL_RUNNER_H

#include <signal.h>

struct runner_config {
	char *db, *kernels, *devices;
	char *program_cache;	/* where built programs are kept; NULL: beside the store */
	char *host_name;	/* this host in the lab (--host-name), or NULL: its own name */
	long heartbeat;		/* seconds of silence after which a runner counts as gone */
	long max_attempts;
	long warmup;
	long poll_ms;
	long run_timeout;	/* the longest a single point may take, seconds */
	long flush_max;		/* the largest cache flush of a cold timing, bytes */
	long stop_timeout;	/* how long a stopping worker may finish its point */
	int no_fp64;
	int unconfined_kernels;	/* run custom kernels without confinement */
	int test_kernels;	/* allow the test-only experiments (tests only) */
	long worker_fd;		/* >= 0: this process is the worker, reporting on this fd */
	long runner_id;		/* the worker's runner id, given by the supervisor */
	long device_slot;	/* the worker's device: its index among those found */
	char *trace;		/* --trace: the spec to trace, or NULL */
	char *builder;		/* --builder: what to build programs for, or NULL */
	long builders;		/* --builders: builder processes a run may have; -1: by the cores */
	long trace_seconds;	/* the tracer's wall and CPU time budget */
	long trace_memory;	/* the tracer's address-space budget, bytes */
	int no_trace;		/* runs are not traced */
	int no_catalog_traces;	/* nor the catalog's defaults while idle */
	char *build_ahead;	/* --build-ahead: "gpu", "always" or "never" */
	char *test_languages;	/* --test-languages: what the device says it runs (tests only) */
	long test_lose_context;	/* --test-lose-context: the custom launch that loses it (tests only) */
	int test_context_stays_lost;	/* and its reset fails (tests only) */
};

/* Raised by SIGTERM and SIGINT in either process. */
extern volatile sig_atomic_t wl_runner_stop;

/* The supervisor: returns the process's exit status. argv is the program's own
 * command line, passed on to the worker. */
int wl_supervise(const struct runner_config *cfg, int argc, char **argv);

/* The worker: returns the process's exit status. */
int wl_work(const struct runner_config *cfg);

/* Messages from the worker to the supervisor, one line each. */
#define WL_MSG_READY "READY"	/* device registered: READY <devices found> <device id> */
#define WL_MSG_POINT "POINT"	/* a point starts: POINT <run id> <seconds it may take> */
/* Someone else's kernel is launched for the first time at this point:
 * PROBE <run id> <seconds that launch may take>; a POINT after it gives
 * the point its own deadline back. A kernel that never ends is stopped
 * then, not at the point's deadline. */
#define WL_MSG_PROBE "PROBE"
#define WL_MSG_IDLE "IDLE"	/* the run ended, nothing running */
#define WL_MSG_CUSTOM "CUSTOM"	/* CUSTOM <name> <point>: a custom kernel is measured; CUSTOM -: done */

#endif
