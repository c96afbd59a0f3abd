/* The spawner of builder processes (see builder_spawner.h). The worker and
 * the spawner speak over a socket pair of packets: the worker sends where a
 * builder is to build; the spawner answers with the builder's pid and, as
 * ancillary data, its end of a new socket pair. */
#include "builder_spawner.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cl_builders.h"
#include "confine.h"
#include "cuda_driver.h"
#include "log.h"

/* The worker's end of the pair, or -1; one request at a time. */
static int spawner_fd = -1;
static pthread_mutex_t spawner_lock = PTHREAD_MUTEX_INITIALIZER;

/* Start a builder of where with sock as its standard input and output: its
 * pid, or -1. */
static pid_t builder_exec(const char *where, int sock)
{
	char *argv[] = { "warplab-runner", "--cl-builder", (char *)where, NULL };
	pid_t pid = fork();

	if (pid == 0) {
		dup2(sock, STDIN_FILENO);
		dup2(sock, STDOUT_FILENO);
		close_range(3, ~0u, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	return pid;
}

/* The spawner's life: a builder for each request until the worker is gone.
 * Its builders are reaped by the kernel (SIGCHLD ignored). */
static void spawner_main(int sock)
{
	signal(SIGCHLD, SIG_IGN);
	for (;;) {
		char where[600], ctl[CMSG_SPACE(sizeof(int))] = { 0 };
		struct iovec iov;
		struct msghdr msg = { 0 };
		int pair[2] = { -1, -1 };
		pid_t pid = -1;
		ssize_t n = recv(sock, where, sizeof(where) - 1, 0);

		if (n <= 0)
			_exit(0);
		where[n] = '\0';
		iov = (struct iovec){ .iov_base = &pid, .iov_len = sizeof(pid) };
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0) {
			pid = builder_exec(where, pair[1]);
			close(pair[1]);
			if (pid > 0) {
				struct cmsghdr *c;

				msg.msg_control = ctl;
				msg.msg_controllen = sizeof(ctl);
				c = CMSG_FIRSTHDR(&msg);
				c->cmsg_level = SOL_SOCKET;
				c->cmsg_type = SCM_RIGHTS;
				c->cmsg_len = CMSG_LEN(sizeof(int));
				memcpy(CMSG_DATA(c), &pair[0], sizeof(int));
			}
		}
		if (sendmsg(sock, &msg, MSG_NOSIGNAL) < 0)
			_exit(0);
		if (pair[0] >= 0)
			close(pair[0]);
	}
}

int wl_spawner_start(void)
{
	int pair[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		/* Nothing of the worker's but the socket: fd 3 from here on. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (dup2(pair[1], 3) < 0)
			_exit(1);
		close_range(4, ~0u, 0);
		spawner_main(3);
	}
	close(pair[1]);
	if (pid < 0) {
		close(pair[0]);
		return -1;
	}
	spawner_fd = pair[0];
	return 0;
}

int wl_spawner_builder(const char *where, int *fd, pid_t *pid)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = pid, .iov_len = sizeof(*pid) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	ssize_t n;
	int rc = -1;

	*fd = -1;
	*pid = -1;
	pthread_mutex_lock(&spawner_lock);
	if (spawner_fd >= 0 && send(spawner_fd, where, strlen(where), MSG_NOSIGNAL) >= 0) {
		do
			n = recvmsg(spawner_fd, &msg, MSG_CMSG_CLOEXEC);
		while (n < 0 && errno == EINTR);
		c = n == (ssize_t)sizeof(*pid) ? CMSG_FIRSTHDR(&msg) : NULL;
		if (c && c->cmsg_type == SCM_RIGHTS && *pid > 0) {
			memcpy(fd, CMSG_DATA(c), sizeof(int));
			rc = 0;
		}
	}
	pthread_mutex_unlock(&spawner_lock);
	return rc;
}

int wl_builder_process_main(const char *where)
{
	static struct wl_cuda_devices cuda;
	const char *tmp = getenv("TMPDIR");
	struct wl_confine_paths paths = { .store_dir = tmp };
	char why[256], what[256];

	wl_log_init("warplab-runner[builder]");
	/* NVIDIA's OpenCL stands on the CUDA driver, which opens files the
	 * confinement does not list: loaded first, as the worker loads it. */
	wl_cuda_devices_load(WL_CUDA_DRIVER_LIB, &cuda, why, sizeof(why));
	if (wl_confine(&paths, what, sizeof(what)) < 0) {
		wl_log_error("--cl-builder: not confined (%s): builds nothing", what);
		return 1;
	}
	return wl_cl_builder_main(where);
}
