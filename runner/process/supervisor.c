/* The runner's supervisor (see runner.h): it owns the runner's row in the
 * store and its heartbeat, starts one worker per device (the first worker says
 * how many devices there are), reads the workers' reports, and acts when a
 * worker overruns a point (kill, fail the run "timed out", start a new
 * worker), dies (requeue its run while it has attempts left, start a new
 * worker), or cannot start at all (leave its device out; stop with its status
 * when no device is left). Each worker is watched on its own, so a hang or a
 * crash on one device never holds up the others. */
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
#include "clock.h"
#include "executor.h"
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

/* This host's name in the store: --host-name, or the machine's. */
static void host_name(const struct runner_config *cfg, char *out, size_t len)
{
	snprintf(out, len, "localhost");
	if (cfg->host_name && *cfg->host_name)
		snprintf(out, len, "%s", cfg->host_name);
	else
		gethostname(out, len - 1);
}

static void recover(struct wl_store *st, long long runner_id, const struct runner_config *cfg)
{
	char host[256];
	struct wl_error err;
	int requeued, failed;

	host_name(cfg, host, sizeof(host));
	if (wl_store_recover(st, runner_id, host, cfg->heartbeat, cfg->max_attempts, &requeued,
			     &failed, &err) < 0)
		wl_log_warn("recovery: %s", err.msg);
	else if (requeued || failed)
		wl_log_info("recovered runs left by a dead runner: %d requeued, %d failed", requeued,
			    failed);
}

/* The worker of one device slot. */
struct worker {
	long long slot;
	pid_t pid;		/* 0 while none runs */
	int fd;			/* read end of its report pipe */
	char buf[1024];
	size_t len;
	int ready;
	long long found;	/* devices the worker found, from READY */
	char device[96];	/* its device id, from READY */
	long long run_id;	/* the run of the point in progress, or 0 */
	long long limit_s;	/* that point's deadline, seconds */
	double deadline;	/* when it passes (monotonic), or 0 */
	double stop_sent;	/* when SIGTERM was forwarded, or 0 */
	int timed_out;		/* killed for overrunning its deadline */
	char custom[80];	/* the custom kernel being measured, or "" */
	int probing;		/* its first launch is running, under a deadline of its own */
	char custom_at[256];	/* and the point it is measured at */
	double started;		/* when it was started (monotonic) */
	int quick_deaths;	/* deaths within 10 s of starting, in a row */
	double restart_at;	/* when to start it again, or 0 */
	int given_up;		/* it could not start: its device is left out */
};

/* Start the slot's worker: this program again, with --worker-fd,
 * --runner-id and --device-slot. */
static int spawn(struct worker *w, int argc, char **argv, long long runner_id)
{
	int fds[2];
	char fd_text[16], id_text[32], slot_text[32];
	char **args;

	w->pid = 0;
	w->len = 0;
	w->ready = 0;
	w->run_id = 0;
	w->deadline = w->stop_sent = w->restart_at = 0;
	w->timed_out = 0;
	w->custom[0] = '\0';
	if (pipe(fds) < 0) {
		wl_log_error("pipe: %s", strerror(errno));
		return -1;
	}
	args = calloc((size_t)argc + 7, sizeof(*args));
	if (!args) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	snprintf(fd_text, sizeof(fd_text), "%d", fds[1]);
	snprintf(id_text, sizeof(id_text), "%lld", runner_id);
	snprintf(slot_text, sizeof(slot_text), "%lld", w->slot);
	for (int i = 0; i < argc; i++)
		args[i] = argv[i];
	args[argc] = "--worker-fd";
	args[argc + 1] = fd_text;
	args[argc + 2] = "--runner-id";
	args[argc + 3] = id_text;
	args[argc + 4] = "--device-slot";
	args[argc + 5] = slot_text;
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
		w->pid = 0;
		close(fds[0]);
		return -1;
	}
	w->fd = fds[0];
	w->started = wl_monotonic_s();
	return 0;
}

static void handle_line(struct worker *w, long long runner_id, char *line)
{
	long long a, b;
	char id[96];

	if (sscanf(line, WL_MSG_READY " %lld %95s", &a, id) == 2) {
		w->ready = 1;
		w->found = a;
		snprintf(w->device, sizeof(w->device), "%s", id);
		wl_log_info("runner %lld ready: device %s (%lld of %lld), worker pid %d", runner_id, id,
			    w->slot + 1, a, (int)w->pid);
	} else if (sscanf(line, WL_MSG_POINT " %lld %lld", &a, &b) == 2) {
		w->run_id = a;
		w->limit_s = b;
		w->probing = 0;
		w->deadline = wl_monotonic_s() + (double)b;
	} else if (sscanf(line, WL_MSG_PROBE " %lld %lld", &a, &b) == 2) {
		w->run_id = a;
		w->limit_s = b;
		w->probing = 1;
		w->deadline = wl_monotonic_s() + (double)b;
	} else if (strcmp(line, WL_MSG_IDLE) == 0) {
		w->run_id = 0;
		w->deadline = 0;
		w->probing = 0;
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
static int read_reports(struct worker *w, long long runner_id)
{
	ssize_t n = read(w->fd, w->buf + w->len, sizeof(w->buf) - 1 - w->len);
	char *nl;

	if (n <= 0)
		return n < 0 && errno == EINTR ? 1 : 0;
	w->len += (size_t)n;
	w->buf[w->len] = '\0';
	while ((nl = strchr(w->buf, '\n'))) {
		*nl = '\0';
		handle_line(w, runner_id, w->buf);
		memmove(w->buf, nl + 1, w->len - (size_t)(nl + 1 - w->buf) + 1);
		w->len -= (size_t)(nl + 1 - w->buf);
	}
	if (w->len == sizeof(w->buf) - 1)
		w->len = 0;	/* a line that long is not ours */
	return 1;
}

/* Signals to a running worker: stop after the point when the runner stops
 * (and a kill past --stop-timeout), a kill past its point's deadline. */
static void police(struct worker *w, const struct runner_config *cfg, double now)
{
	if (!w->pid)
		return;
	if (wl_runner_stop && !w->stop_sent) {
		kill(w->pid, SIGTERM);
		w->stop_sent = now;
	}
	if (w->stop_sent && now - w->stop_sent > (double)cfg->stop_timeout) {
		wl_log_warn("the worker of %s did not stop within %ld s; killing it",
			    w->device[0] ? w->device : "a device", cfg->stop_timeout);
		kill(w->pid, SIGKILL);
		w->stop_sent = now + 1e9;
	}
	if (w->deadline && now > w->deadline && !w->stop_sent) {
		wl_log_error("run %lld: a point overran its %lld s; killing the worker", w->run_id,
			     w->limit_s);
		kill(w->pid, SIGKILL);
		w->timed_out = 1;
		w->deadline = 0;
	}
}

static void describe_exit(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "the runner's device process was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) == WL_EXIT_DEVICE_LOST)
		snprintf(buf, len, "the kernel lost the device's context and it could not be reset in the process (CUDA keeps an illegal address or a failed launch for the life of the process; see the runner's log), so the device process restarted");
	else
		snprintf(buf, len, "the runner's device process exited with status %d", WEXITSTATUS(status));
}

/* Settle the run the dead worker was in: a timeout fails it, a stop past
 * --stop-timeout requeues it, a crash in a custom kernel fails it, any other
 * death counts as one of its attempts; a shared run it had joined gets its
 * points back. */
static void settle(struct wl_store *st, long long runner_id, const struct runner_config *cfg,
		   const struct worker *w, int wstatus)
{
	struct wl_error err;
	char why[256];
	int requeued = 0, helper = 0;

	/* A worker that joined another device's shared run gives its points
	 * back for the others to measure; the run is not its to settle. */
	if (w->run_id && wl_store_release_points(st, w->run_id, w->device, &helper, &err) < 0)
		wl_log_error("run %lld: %s", w->run_id, err.msg);
	if (helper) {
		wl_log_warn("run %lld: the device process of %s, which joined it, ended; its points go back to the others",
			    w->run_id, w->device);
		return;
	}
	if (w->timed_out) {
		char msg[600];

		if (w->probing)
			snprintf(msg, sizeof(msg),
				 "timed out after %lld s: the first launch of '%s' at %s ran past the deadline someone else's kernel has for one launch (set by its size, at most --run-timeout %ld s); the device process was killed and restarted",
				 w->limit_s, w->custom, w->custom_at, cfg->run_timeout);
		else
			snprintf(msg, sizeof(msg),
				 "timed out after %lld s: a point ran past its deadline (set by its size and repeat, at most --run-timeout %ld s); the device process was killed and restarted",
				 w->limit_s, cfg->run_timeout);
		if (wl_store_finish_run(st, runner_id, w->run_id, "failed", msg, &err) < 0)
			wl_log_error("run %lld: %s", w->run_id, err.msg);
		wl_log_info("run %lld failed: %s", w->run_id, msg);
	} else if (w->run_id && wl_runner_stop) {
		/* Killed while stopping, past --stop-timeout: not the run's fault. */
		if (wl_store_requeue_run(st, runner_id, w->run_id, &err) < 0)
			wl_log_error("run %lld: %s", w->run_id, err.msg);
	} else if (w->run_id && w->custom[0]) {
		/* It died running someone's own kernel: that code would
		 * crash it again, so the run fails now rather than retry. */
		char msg[768];

		describe_exit(wstatus, why, sizeof(why));
		snprintf(msg, sizeof(msg),
			 "custom kernel '%s' crashed the device process at %s (%s); runs whose own kernels crash are not retried",
			 w->custom, w->custom_at, why);
		if (wl_store_finish_run(st, runner_id, w->run_id, "failed", msg, &err) < 0)
			wl_log_error("run %lld: %s", w->run_id, err.msg);
		wl_log_warn("run %lld failed: %s", w->run_id, msg);
	} else if (w->run_id && WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == WL_EXIT_DEVICE_LOST) {
		/* The worker lost the device's context in the run and could not
		 * reset it (executor.c's policy): the launch that lost it would
		 * lose it again, so the run fails now rather than retry. */
		describe_exit(wstatus, why, sizeof(why));
		if (wl_store_finish_run(st, runner_id, w->run_id, "failed", why, &err) < 0)
			wl_log_error("run %lld: %s", w->run_id, err.msg);
		wl_log_warn("run %lld failed: %s", w->run_id, why);
	} else if (w->run_id) {
		/* It died in a run: that counts as one of the run's attempts. */
		describe_exit(wstatus, why, sizeof(why));
		if (wl_store_release_run(st, w->run_id, cfg->max_attempts, why, &requeued, &err) < 0)
			wl_log_error("run %lld: %s", w->run_id, err.msg);
		else if (!wl_runner_stop)
			wl_log_warn("run %lld %s: %s", w->run_id, requeued ? "requeued" : "failed", why);
	}
}

/* The worker's pipe closed: reap it, settle its run, and plan its restart
 * (ever more slowly while it keeps dying young), or give its device up when it
 * never became ready. Returns its exit status when it gave up. */
static int reap(struct wl_store *st, long long runner_id, const struct runner_config *cfg,
		struct worker *w)
{
	int wstatus = 0;
	char why[256];

	close(w->fd);
	while (waitpid(w->pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	settle(st, runner_id, cfg, w, wstatus);
	if (wl_runner_stop)
		return 0;
	if (!w->ready) {
		/* It could not start (no device, a bad catalog): its log says
		 * why, and starting it again would not help. */
		w->given_up = 1;
		return WIFEXITED(wstatus) && WEXITSTATUS(wstatus) ? WEXITSTATUS(wstatus) : 1;
	}
	if (!w->timed_out) {
		describe_exit(wstatus, why, sizeof(why));
		wl_log_warn("%s; starting a new one", why);
	}
	w->quick_deaths = wl_monotonic_s() - w->started < 10 ? w->quick_deaths + 1 : 0;
	w->restart_at = wl_monotonic_s() + (w->quick_deaths < 5 ? w->quick_deaths : 5);
	return 0;
}

/* Grow to one worker per device once the first worker says how many there are. */
static int add_slots(struct worker **ws, size_t *n, long long found)
{
	struct worker *grown;

	if (found <= (long long)*n || found > 1024)
		return 0;
	grown = realloc(*ws, (size_t)found * sizeof(*grown));
	if (!grown)
		return -1;
	memset(grown + *n, 0, ((size_t)found - *n) * sizeof(*grown));
	for (size_t i = *n; i < (size_t)found; i++) {
		grown[i].slot = (long long)i;
		grown[i].restart_at = wl_monotonic_s();
	}
	*ws = grown;
	*n = (size_t)found;
	return 0;
}

/* Watch the workers until the runner stops or no device is left; recover,
 * every heartbeat window, the runs of other runners that died. Returns the
 * runner's exit status. */
static int watch(struct wl_store *st, long long runner_id, const struct runner_config *cfg,
		 int argc, char **argv)
{
	struct worker *ws = calloc(1, sizeof(*ws));
	struct pollfd *fds = NULL;
	size_t n = 1;
	double last_recovery = wl_monotonic_s();
	long long found = 1;
	int status = 0, broken = 0;	/* broken: a worker could not be started */

	if (!ws)
		return 1;
	ws[0].restart_at = wl_monotonic_s();
	for (;;) {
		double now = wl_monotonic_s();
		size_t live = 0, usable = 0, nfds = 0;
		struct pollfd *grown;

		for (size_t i = 0; i < n; i++) {
			struct worker *w = &ws[i];

			if (!w->pid && !w->given_up && !wl_runner_stop && w->restart_at && now >= w->restart_at &&
			    spawn(w, argc, argv, runner_id) < 0) {
				broken = 1;
				wl_runner_stop = 1;
			}
			police(w, cfg, now);
			live += w->pid != 0;
			usable += !w->given_up;
		}
		if (live == 0 && (wl_runner_stop || usable == 0)) {
			if (broken)
				status = 1;
			else if (usable)
				status = 0;	/* stopped, not given up */
			break;
		}
		if (now - last_recovery > (double)cfg->heartbeat) {
			recover(st, runner_id, cfg);
			last_recovery = now;
		}
		grown = realloc(fds, n * sizeof(*fds));
		if (!grown) {
			broken = 1;
			wl_runner_stop = 1;
			continue;
		}
		fds = grown;
		for (size_t i = 0; i < n; i++)
			if (ws[i].pid)
				fds[nfds++] = (struct pollfd){ .fd = ws[i].fd, .events = POLLIN };
		if (poll(fds, nfds, 200) <= 0)
			continue;
		for (size_t i = 0, k = 0; i < n; i++) {
			struct worker *w = &ws[i];
			int gave_up;

			if (!w->pid || !(fds[k++].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (read_reports(w, runner_id)) {
				found = w->ready && w->found > found ? w->found : found;
				continue;
			}
			gave_up = reap(st, runner_id, cfg, w);
			if (gave_up)
				status = gave_up;
		}
		if (add_slots(&ws, &n, found) < 0) {
			broken = 1;
			wl_runner_stop = 1;
		}
	}
	free(fds);
	free(ws);
	return status;
}

int wl_supervise(const struct runner_config *cfg, int argc, char **argv)
{
	struct wl_store *st = NULL;
	struct heartbeat hb = { 0 };
	struct wl_error err;
	char host[256];
	long long runner_id = 0;
	int status = 1, hb_started = 0;

	wl_log_init("warplab-runner");
	if (wl_store_open(cfg->db, &st, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	host_name(cfg, host, sizeof(host));
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
	status = watch(st, runner_id, cfg, argc, argv);
	if (status == 0)
		wl_log_info("stopping");
out:
	wl_runner_stop = 1;
	if (hb_started)
		pthread_join(hb.thread, NULL);
	if (st && runner_id && wl_store_runner_stopped(st, runner_id, &err) < 0)
		wl_log_warn("%s", err.msg);
	wl_store_close(st);
	return status;
}
