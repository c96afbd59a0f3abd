/* The spawner of builder processes (see builder_spawner.h). The worker and
 * the spawner speak over a socket pair of packets: the worker sends where a
 * builder is to build; the spawner answers with the builder's pid and, as
 * ancillary data, its end of a new socket pair and a pidfd of the builder. */
#include "builder_spawner.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "builders.h"
#include "cl_builders.h"
#include "cuda_builders.h"
#include "confine.h"
#include "cuda_driver.h"
#include "log.h"

/* The worker's end of the pair, or -1; one request at a time. */
static int spawner_fd = -1;
static pthread_mutex_t spawner_lock = PTHREAD_MUTEX_INITIALIZER;

/* Start a builder of where speaking on sock (as WL_BUILDER_FD), its
 * standard input and output /dev/null, its signals as a new process's
 * (the spawner ignores SIGCHLD, which an exec would keep): its pid, or -1. */
static pid_t builder_exec(const char *where, int sock)
{
	char *argv[] = { "warplab-runner", "--builder", (char *)where, NULL };
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(sock, WL_BUILDER_FD) < 0 || dup2(null, STDIN_FILENO) < 0 ||
		    dup2(null, STDOUT_FILENO) < 0)
			_exit(127);
		close_range(WL_BUILDER_FD + 1, ~0u, 0);
		signal(SIGCHLD, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	return pid;
}

/* Send pid with fds (n of them, or none where pid is -1) over sock. */
static int answer(int sock, pid_t pid, const int *fds, int n)
{
	char ctl[CMSG_SPACE(2 * sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &pid, .iov_len = sizeof(pid) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (pid > 0) {
		struct cmsghdr *c;

		msg.msg_control = ctl;
		msg.msg_controllen = CMSG_SPACE((size_t)n * sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)n * sizeof(int));
		memcpy(CMSG_DATA(c), fds, (size_t)n * sizeof(int));
	}
	return sendmsg(sock, &msg, MSG_NOSIGNAL) < 0 ? -1 : 0;
}

/* The spawner's life: a builder for each request until the worker is gone.
 * Its builders are reaped by the kernel (SIGCHLD ignored); the worker
 * signals one through the pidfd it is sent, which outlives the pid. */
static void spawner_main(int sock)
{
	signal(SIGCHLD, SIG_IGN);
	for (;;) {
		char where[600];
		int fds[2] = { -1, -1 }, pair[2] = { -1, -1 };
		pid_t pid = -1;
		ssize_t n = recv(sock, where, sizeof(where) - 1, 0);

		if (n <= 0)
			_exit(0);
		where[n] = '\0';
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0) {
			pid = builder_exec(where, pair[1]);
			close(pair[1]);
			fds[0] = pair[0];
			/* One that ended at once has no pidfd: it is no builder. */
			if (pid > 0 && (fds[1] = (int)syscall(SYS_pidfd_open, pid, 0)) < 0)
				pid = -1;
		}
		if (answer(sock, pid, fds, 2) < 0)
			_exit(0);
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0)
				close(fds[i]);
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

int wl_spawner_builder(const char *where, int *fd, int *pidfd, pid_t *pid)
{
	char ctl[CMSG_SPACE(2 * sizeof(int))];
	struct iovec iov = { .iov_base = pid, .iov_len = sizeof(*pid) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	/* A builder that stops mid-frame, or never reads, is taken for dead. */
	const struct timeval patience = { .tv_sec = 30 };
	struct cmsghdr *c;
	ssize_t n;
	int rc = -1;

	*fd = *pidfd = -1;
	*pid = -1;
	pthread_mutex_lock(&spawner_lock);
	if (spawner_fd >= 0 && send(spawner_fd, where, strlen(where), MSG_NOSIGNAL) >= 0) {
		do
			n = recvmsg(spawner_fd, &msg, MSG_CMSG_CLOEXEC);
		while (n < 0 && errno == EINTR);
		c = n == (ssize_t)sizeof(*pid) ? CMSG_FIRSTHDR(&msg) : NULL;
		if (c && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(2 * sizeof(int)) && *pid > 0) {
			memcpy(fd, CMSG_DATA(c), sizeof(int));
			memcpy(pidfd, CMSG_DATA(c) + sizeof(int), sizeof(int));
			setsockopt(*fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof(patience));
			setsockopt(*fd, SOL_SOCKET, SO_SNDTIMEO, &patience, sizeof(patience));
			rc = 0;
		}
	}
	pthread_mutex_unlock(&spawner_lock);
	return rc;
}

int wl_builder_process_main(const char *where)
{
	static struct wl_cuda_devices cuda;
	static struct wl_nvrtc nv;
	const char *tmp = getenv("TMPDIR");
	struct wl_confine_paths paths = { .store_dir = tmp };
	int is_cuda = strncmp(where, "cuda\n", 5) == 0, is_opencl = strncmp(where, "opencl\n", 7) == 0;
	char why[256], what[256];

	wl_log_init("warplab-runner[builder]");
	if (!is_cuda && !is_opencl) {
		wl_log_error("--builder: '%.40s' is neither \"opencl\\n...\" nor \"cuda\\n...\"", where);
		return 1;
	}
	/* Loaded before the confinement, which would not let them be read:
	 * NVRTC for CUDA; for OpenCL the CUDA driver, on which NVIDIA's OpenCL
	 * stands and which opens files the confinement does not list, loaded
	 * as the worker loads it. */
	if (is_cuda)
		wl_nvrtc_open(NULL, &nv, why, sizeof(why));
	else
		wl_cuda_devices_load(WL_CUDA_DRIVER_LIB, &cuda, why, sizeof(why));
	if (wl_confine(&paths, what, sizeof(what)) < 0) {
		wl_log_error("--builder: not confined (%s): builds nothing", what);
		return 1;
	}
	return is_cuda ? wl_cuda_builder_main(&nv, where + 5) : wl_cl_builder_main(where + 7);
}
