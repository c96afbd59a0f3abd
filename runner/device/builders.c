/* Builders, both sides (see builders.h): the worker's farm of builder
 * processes and the frames a builder reads and answers with. */
#include "builders.h"

#include <errno.h>
#include <omp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log.h"

/* The most a frame may hold: a source, a log or a binary. */
#define FRAME_MAX (64u << 20)
#define BUILDERS_MAX 8

/* Both ends are sockets: one whose reader is gone says so with EPIPE,
 * never with a SIGPIPE that would end this process. */
static int put_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len > 0) {
		ssize_t w = send(fd, c, len, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

static int get_all(int fd, void *p, size_t len)
{
	char *c = p;

	while (len > 0) {
		ssize_t r = read(fd, c, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		len -= (size_t)r;
	}
	return 0;
}

static int put_frame(int fd, const void *p, size_t len)
{
	uint32_t n = (uint32_t)len;

	return len > FRAME_MAX || put_all(fd, &n, sizeof(n)) < 0 || put_all(fd, p, len) < 0 ? -1 : 0;
}

/* A frame into *out (NUL-terminated, the caller frees; *len its length):
 * 0, or -1 at the end of the input, a frame too long or no memory. */
static int get_frame(int fd, char **out, size_t *len)
{
	uint32_t n;

	*out = NULL;
	if (get_all(fd, &n, sizeof(n)) < 0 || n > FRAME_MAX || !(*out = malloc((size_t)n + 1)))
		return -1;
	if (get_all(fd, *out, n) < 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	(*out)[n] = '\0';
	*len = n;
	return 0;
}

int wl_builders_for(size_t n, int cores_each)
{
	/* The worker's share of the host's cores (each device's worker has
	 * one), or OMP_NUM_THREADS. */
	long cores = omp_get_max_threads() / (cores_each > 0 ? cores_each : 1);
	long procs = cores < BUILDERS_MAX ? cores : BUILDERS_MAX;

	if (procs < 1)
		procs = 1;
	return (size_t)procs < n ? (int)procs : (int)(n ? n : 1);
}

struct builder {
	pid_t pid;		/* 0: none (never started, or gone) */
	int fd;			/* its socket */
	int pidfd;		/* to kill it with, though the spawner reaps it */
	long job;		/* the program it builds, or -1 */
};

/* End b: its socket closed, which ends a builder waiting for work; one
 * still building (a compiler may hang) or no longer answering is killed
 * through its pidfd, which names it and no later process of its pid (the
 * spawner reaps it). */
static void builder_end(struct builder *b, int died)
{
	if (!b->pid)
		return;
	close(b->fd);
	if (died)
		wl_log_warn("builder process %d died or went silent: its program is built at its point", (int)b->pid);
	if (died || b->job >= 0)
		syscall(SYS_pidfd_send_signal, b->pidfd, SIGKILL, NULL, 0);
	close(b->pidfd);
	b->pid = 0;
}

struct farm {
	char *const *options;
	size_t n, next, finished;
	const volatile int *stop;
	wl_builder_done done;
	void *ctx;
};

static void hand_back(struct farm *f, size_t i, const unsigned char *binary, size_t len, const char *log,
		      const char *beside)
{
	f->done(f->ctx, i, binary, len, log, beside ? beside : "");
	f->finished++;
}

/* Give b the next program, or end it when there is none; a builder that
 * cannot be written to is ended, its program handed back unbuilt. */
static void builder_next(struct farm *f, struct builder *b)
{
	b->job = -1;
	if (f->next >= f->n || *f->stop) {
		builder_end(b, 0);
		return;
	}
	b->job = (long)f->next++;
	if (put_frame(b->fd, f->options[b->job], strlen(f->options[b->job])) < 0) {
		hand_back(f, (size_t)b->job, NULL, 0, NULL, NULL);
		builder_end(b, 1);
		b->job = -1;
	}
}

/* b's answer: its program handed back, and the next one given; a builder
 * that died is ended, its program handed back unbuilt (the point that needs
 * it builds it itself, and says why). */
static void builder_answer(struct farm *f, struct builder *b)
{
	char *log = NULL, *binary = NULL, *beside = NULL;
	size_t log_len, len = 0, beside_len;

	if (get_frame(b->fd, &log, &log_len) < 0 || get_frame(b->fd, &binary, &len) < 0 ||
	    get_frame(b->fd, &beside, &beside_len) < 0) {
		hand_back(f, (size_t)b->job, NULL, 0, NULL, NULL);
		builder_end(b, 1);
		b->job = -1;
	} else {
		/* The builder gets its next job first: making a program from its
		 * binary may take the worker a while (NVIDIA's OpenCL compiles the
		 * PTX for the device then), and the builder need not wait. */
		size_t job = (size_t)b->job;

		builder_next(f, b);
		hand_back(f, job, len ? (const unsigned char *)binary : NULL, len, log, beside);
	}
	free(log);
	free(binary);
	free(beside);
}

void wl_builders_run(const char *where, const char *for_, const char *text, size_t len, char *const *options,
		     size_t n, int procs, wl_builder_spawn spawn, const volatile int *stop, wl_builder_done done,
		     void *ctx)
{
	struct farm f = { .options = options, .n = n, .stop = stop, .done = done, .ctx = ctx };
	struct builder b[BUILDERS_MAX] = { 0 };
	struct pollfd fds[BUILDERS_MAX];
	int count = procs < BUILDERS_MAX ? procs : BUILDERS_MAX, started = 0;

	if ((size_t)count > n)
		count = (int)n;

	if (spawn && where)
		for (int k = 0; k < count; k++) {
			b[k].job = -1;
			if (spawn(where, &b[k].fd, &b[k].pidfd, &b[k].pid) < 0) {
				b[k].pid = 0;
				continue;
			}
			started++;
			wl_log_info("builder process %d started for %s", (int)b[k].pid, for_);
			if (put_frame(b[k].fd, text, len) < 0)
				builder_end(&b[k], 1);
			else
				builder_next(&f, &b[k]);
		}
	if (!started)
		wl_log_warn("no builder process started for %s: its programs are built at their points", for_);
	while (f.finished < n && !*stop) {
		nfds_t nfds = 0;
		int k[BUILDERS_MAX];

		for (int i = 0; i < count; i++)
			if (b[i].pid && b[i].job >= 0) {
				fds[nfds] = (struct pollfd){ .fd = b[i].fd, .events = POLLIN };
				k[nfds++] = i;
			}
		if (!nfds)
			break;
		/* Awake now and then to see whether the run has ended. */
		if (poll(fds, nfds, 100) < 0 && errno != EINTR)
			break;
		for (nfds_t i = 0; i < nfds; i++)
			if (fds[i].revents)
				builder_answer(&f, &b[k[i]]);
	}
	for (int i = 0; i < count; i++) {
		if (b[i].pid && b[i].job >= 0)
			hand_back(&f, (size_t)b[i].job, NULL, 0, NULL, NULL);
		builder_end(&b[i], 0);
	}
	while (f.next < n)
		hand_back(&f, f.next++, NULL, 0, NULL, NULL);
}

void wl_builder_serve(int (*build)(void *ctx, const char *text, size_t len, const char *options), void *ctx)
{
	char *text, *options;
	size_t len, olen;

	if (get_frame(WL_BUILDER_FD, &text, &len) < 0)
		return;
	while (get_frame(WL_BUILDER_FD, &options, &olen) == 0) {
		int rc = build(ctx, text, len, options);

		free(options);
		if (rc < 0)
			break;
	}
	free(text);
}

int wl_builder_answer(const char *log, const void *binary, size_t len, const char *beside)
{
	return put_frame(WL_BUILDER_FD, log ? log : "", log ? strlen(log) : 0) < 0 ||
	       put_frame(WL_BUILDER_FD, binary, binary ? len : 0) < 0 ||
	       put_frame(WL_BUILDER_FD, beside ? beside : "", beside ? strlen(beside) : 0) < 0 ? -1 : 0;
}
