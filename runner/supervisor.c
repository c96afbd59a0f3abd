/* The runner's supervisor (see runner.h): it owns the runner's row in the
 * store and its heartbeat, starts the worker, reads the worker's reports, and
 * acts when the worker overruns a point (kill, fail the run "timed out", start
 * a new worker), dies (requeue its run while it has attempts left, start a new
 * worker), or cannot start at all (stop with its status). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "runner.h"
#include "store.h"

#ifndef WL_VERSION
#define WL_VERSION "0.0.0"
#endif

volatile sig_atomic_t wl_runner_stop;

struct heartbeat {
	const char *db;
	long long runner_id;
	long interval_ms;
	pthread_t thread;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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
	while (!wl_runner_stop) {
		if (waited >= hb->interval_ms) {
			if (wl_store_heartbeat(st, hb->runner_id, &err) < 0)
				wl_log_warn("heartbeat: %s", err.msg);
			waited = 0;
		}
		usleep(100 * 1000);
		waited += 100;
	}
	wl_store_close(st);
	return NULL;
}

static void recover(struct wl_store *st, long long runner_id, const struct runner_config *cfg)
{
	char host[256] = "localhost";
	struct wl_error err;
	int requeued, failed;

	gethostname(host, sizeof(host) - 1);
	if (wl_store_recover(st, runner_id, host, cfg->heartbeat, cfg->max_attempts, &requeued,
			     &failed, &err) < 0)
		wl_log_warn("recovery: %s", err.msg);
	else if (requeued || failed)
		wl_log_info("recovered runs left by a dead runner: %d requeued, %d failed", requeued,
			    failed);
}

/* The worker being watched. */
struct worker {
	long long runner_id;
	pid_t pid;
	int fd;			/* read end of its report pipe */
	char buf[1024];
	size_t len;
	int ready;
	long long run_id;	/* the run of the point in progress, or 0 */
	long long limit_s;	/* that point's deadline, seconds */
	double deadline;	/* when it passes (monotonic), or 0 */
	double stop_sent;	/* when SIGTERM was forwarded, or 0 */
	char custom[80];	/* the custom kernel being measured, or "" */
	char custom_at[256];	/* and the point it is measured at */
};

/* Start the worker: this program again, with --worker-fd and --runner-id. */
static int spawn(struct worker *w, int argc, char **argv, long long runner_id)
{
	int fds[2];
	char fd_text[16], id_text[32];
	char **args;

	memset(w, 0, sizeof(*w));
	w->runner_id = runner_id;
	if (pipe(fds) < 0) {
		wl_log_error("pipe: %s", strerror(errno));
		return -1;
	}
	args = calloc((size_t)argc + 5, sizeof(*args));
	if (!args) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	snprintf(fd_text, sizeof(fd_text), "%d", fds[1]);
	snprintf(id_text, sizeof(id_text), "%lld", runner_id);
	for (int i = 0; i < argc; i++)
		args[i] = argv[i];
	args[argc] = "--worker-fd";
	args[argc + 1] = fd_text;
	args[argc + 2] = "--runner-id";
	args[argc + 3] = id_text;
	w->pid = fork();
	if (w->pid == 0) {
		close(fds[0]);
		execv("/proc/self/exe", args);
		_exit(127);
	}
	free(args);
	close(fds[1]);
	if (w->pid < 0) {
		wl_log_error("fork: %s", strerror(errno));
		close(fds[0]);
		return -1;
	}
	w->fd = fds[0];
	return 0;
}

static void handle_line(struct worker *w, char *line)
{
	long long a, b;

	if (sscanf(line, WL_MSG_READY " %lld", &a) == 1) {
		w->ready = 1;
		wl_log_info("runner %lld ready: %lld device(s), worker pid %d", w->runner_id, a, (int)w->pid);
	} else if (sscanf(line, WL_MSG_POINT " %lld %lld", &a, &b) == 2) {
		w->run_id = a;
		w->limit_s = b;
		w->deadline = now_s() + (double)b;
	} else if (strcmp(line, WL_MSG_IDLE) == 0) {
		w->run_id = 0;
		w->deadline = 0;
		w->custom[0] = '\0';
	} else if (strncmp(line, WL_MSG_CUSTOM " ", sizeof(WL_MSG_CUSTOM)) == 0) {
		const char *name = line + sizeof(WL_MSG_CUSTOM), *space = strchr(name, ' ');

		if (strcmp(name, "-") == 0 || !space) {
			w->custom[0] = '\0';
		} else {
			snprintf(w->custom, sizeof(w->custom), "%.*s", (int)(space - name < 79 ? space - name : 79), name);
			snprintf(w->custom_at, sizeof(w->custom_at), "%.255s", space + 1);
		}
	}
}

/* Read what the worker wrote; returns 0 at end of file (it exited). */
static int read_reports(struct worker *w)
{
	ssize_t n = read(w->fd, w->buf + w->len, sizeof(w->buf) - 1 - w->len);
	char *nl;

	if (n <= 0)
		return n < 0 && errno == EINTR ? 1 : 0;
	w->len += (size_t)n;
	w->buf[w->len] = '\0';
	while ((nl = strchr(w->buf, '\n'))) {
		*nl = '\0';
		handle_line(w, w->buf);
		memmove(w->buf, nl + 1, w->len - (size_t)(nl + 1 - w->buf) + 1);
		w->len -= (size_t)(nl + 1 - w->buf);
	}
	if (w->len == sizeof(w->buf) - 1)
		w->len = 0;	/* a line that long is not ours */
	return 1;
}

/* How a worker's life ended, as the supervisor saw it. */
enum ending { ENDED_EXIT, ENDED_TIMEOUT };

/* Watch the worker until it exits; kill it past a point's deadline, or past
 * the stop timeout once asked to stop. Meanwhile recover, every heartbeat
 * window, the runs of other runners that died. *status is its wait status. */
static enum ending watch(struct worker *w, const struct runner_config *cfg, struct wl_store *st,
			 long long runner_id, int *status)
{
	enum ending ending = ENDED_EXIT;
	double last_recovery = now_s();

	for (;;) {
		struct pollfd p = { .fd = w->fd, .events = POLLIN };
		double now = now_s();
		int timeout = 500;

		if (wl_runner_stop && !w->stop_sent) {
			kill(w->pid, SIGTERM);
			w->stop_sent = now;
		}
		if (w->stop_sent && now - w->stop_sent > (double)cfg->stop_timeout) {
			wl_log_warn("the worker did not stop within %ld s; killing it", cfg->stop_timeout);
			kill(w->pid, SIGKILL);
			w->stop_sent = now + 1e9;
		}
		if (w->deadline && now > w->deadline && !w->stop_sent) {
			wl_log_error("run %lld: a point overran its %lld s; killing the worker", w->run_id,
				     w->limit_s);
			kill(w->pid, SIGKILL);
			ending = ENDED_TIMEOUT;
			w->deadline = 0;
		}
		if (now - last_recovery > (double)cfg->heartbeat) {
			recover(st, runner_id, cfg);
			last_recovery = now;
		}
		if (poll(&p, 1, timeout) > 0 && !read_reports(w))
			break;
	}
	close(w->fd);
	while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
		;
	return ending;
}

static void describe_exit(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "the runner's device process was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "the runner's device process exited with status %d", WEXITSTATUS(status));
}

int wl_supervise(const struct runner_config *cfg, int argc, char **argv)
{
	struct wl_store *st = NULL;
	struct heartbeat hb = { 0 };
	struct wl_error err;
	char host[256] = "localhost";
	long long runner_id = 0;
	int status = 1, hb_started = 0, quick_deaths = 0;

	wl_log_init("warplab-runner");
	if (wl_store_open(cfg->db, &st, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	gethostname(host, sizeof(host) - 1);
	if (wl_store_register_runner(st, host, (long long)getpid(), WL_VERSION, &runner_id, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	recover(st, runner_id, cfg);
	hb.db = cfg->db;
	hb.runner_id = runner_id;
	hb.interval_ms = cfg->heartbeat * 1000L / 5;
	if (pthread_create(&hb.thread, NULL, heartbeat_main, &hb) != 0) {
		wl_log_error("cannot start the heartbeat thread");
		goto out;
	}
	hb_started = 1;

	while (!wl_runner_stop) {
		struct worker w;
		enum ending ending;
		int wstatus = 0, requeued = 0;
		double started = now_s();
		char why[256];

		if (spawn(&w, argc, argv, runner_id) < 0)
			goto out;
		ending = watch(&w, cfg, st, runner_id, &wstatus);
		if (ending == ENDED_TIMEOUT) {
			char msg[256];

			snprintf(msg, sizeof(msg),
				 "timed out after %lld s: a point ran past its deadline (set by its size and repeat, at most --run-timeout %ld s); the device process was killed and restarted",
				 w.limit_s, cfg->run_timeout);
			if (wl_store_finish_run(st, runner_id, w.run_id, "failed", msg, &err) < 0)
				wl_log_error("run %lld: %s", w.run_id, err.msg);
			wl_log_info("run %lld failed: %s", w.run_id, msg);
		} else if (w.run_id && wl_runner_stop) {
			/* Killed while stopping, past --stop-timeout: not the run's fault. */
			if (wl_store_requeue_run(st, runner_id, w.run_id, &err) < 0)
				wl_log_error("run %lld: %s", w.run_id, err.msg);
		} else if (w.run_id && w.custom[0]) {
			/* It died running someone's own kernel: that code would
			 * crash it again, so the run fails now rather than retry. */
			char msg[768];

			describe_exit(wstatus, why, sizeof(why));
			snprintf(msg, sizeof(msg),
				 "custom kernel '%s' crashed the device process at %s (%s); runs whose own kernels crash are not retried",
				 w.custom, w.custom_at, why);
			if (wl_store_finish_run(st, runner_id, w.run_id, "failed", msg, &err) < 0)
				wl_log_error("run %lld: %s", w.run_id, err.msg);
			wl_log_warn("run %lld failed: %s", w.run_id, msg);
		} else if (w.run_id) {
			/* It died in a run: that counts as one of the run's attempts. */
			describe_exit(wstatus, why, sizeof(why));
			if (wl_store_release_run(st, w.run_id, cfg->max_attempts, why, &requeued, &err) < 0)
				wl_log_error("run %lld: %s", w.run_id, err.msg);
			else if (!wl_runner_stop)
				wl_log_warn("run %lld %s: %s", w.run_id, requeued ? "requeued" : "failed", why);
		}
		if (wl_runner_stop)
			break;
		if (!w.ready) {
			/* It could not start (no device, a bad catalog): its log says
			 * why, and starting it again would not help. */
			status = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) ? WEXITSTATUS(wstatus) : 1;
			goto out;
		}
		if (ending != ENDED_TIMEOUT) {
			describe_exit(wstatus, why, sizeof(why));
			wl_log_warn("%s; starting a new one", why);
		}
		/* A worker that keeps dying young is restarted ever more slowly. */
		quick_deaths = now_s() - started < 10 ? quick_deaths + 1 : 0;
		if (quick_deaths)
			sleep(quick_deaths < 5 ? (unsigned)quick_deaths : 5);
	}
	wl_log_info("stopping");
	status = 0;
out:
	wl_runner_stop = 1;
	if (hb_started)
		pthread_join(hb.thread, NULL);
	if (st && runner_id && wl_store_runner_stopped(st, runner_id, &err) < 0)
		wl_log_warn("%s", err.msg);
	wl_store_close(st);
	return status;
}
