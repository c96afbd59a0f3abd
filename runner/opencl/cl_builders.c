/* Builders: a run's programs built in processes of their own (see
 * cl_builders.h). Both sides are here, since they share the frames they
 * speak: a 32-bit length, then that many bytes. */
#include "cl_builders.h"

#include <errno.h>
#include <omp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log.h"

/* The most a frame may hold: a source, a log or a binary. */
#define FRAME_MAX (64u << 20)
#define BUILDERS_MAX 8

static int put_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len > 0) {
		ssize_t w = write(fd, c, len);

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

int wl_cl_builders_for(size_t n)
{
	/* The worker's share of the host's cores (each device's worker has
	 * one), or OMP_NUM_THREADS. */
	long cores = omp_get_max_threads();
	long procs = cores / 4 < BUILDERS_MAX ? cores / 4 : BUILDERS_MAX;

	if (procs < 1)
		procs = 1;
	return (size_t)procs < n ? (int)procs : (int)(n ? n : 1);
}

/* The k-th device named name of the platform named platform, or NULL. */
static cl_device_id device_named(const char *platform, const char *name, unsigned k)
{
	cl_platform_id plats[16];
	cl_device_id devs[64];
	cl_uint np = 0, nd = 0;
	char text[256];

	if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
		return NULL;
	for (cl_uint p = 0; p < np && p < 16; p++) {
		if (clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof(text), text, NULL) != CL_SUCCESS ||
		    strcmp(text, platform) != 0 || clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
			continue;
		for (cl_uint d = 0; d < nd && d < 64; d++)
			if (clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof(text), text, NULL) == CL_SUCCESS &&
			    strcmp(text, name) == 0 && k-- == 0)
				return devs[d];
	}
	return NULL;
}

/* dev as the builder finds it, by names (a process's list of platforms need
 * not be in another's order): "PLATFORM\nDEVICE\nK", the K-th device of
 * that name on that platform, into out; -1 where OpenCL does not list it. */
static int device_place(const struct wl_device *dev, char *out, size_t len)
{
	const struct wl_cl_device *cl = wl_cl_of(dev);
	char platform[256], name[256];

	if (!cl || clGetPlatformInfo(cl->platform, CL_PLATFORM_NAME, sizeof(platform), platform, NULL) != CL_SUCCESS ||
	    clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof(name), name, NULL) != CL_SUCCESS)
		return -1;
	for (unsigned k = 0; k < 64; k++) {
		cl_device_id d = device_named(platform, name, k);

		if (!d)
			return -1;
		if (d == cl->device) {
			snprintf(out, len, "%s\n%s\n%u", platform, name, k);
			return 0;
		}
	}
	return -1;
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

static void hand_back(struct farm *f, size_t i, const unsigned char *binary, size_t len, const char *log)
{
	f->done(f->ctx, i, binary, len, log);
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
		hand_back(f, (size_t)b->job, NULL, 0, NULL);
		builder_end(b, 1);
		b->job = -1;
	}
}

/* b's answer: its program handed back, and the next one given; a builder
 * that died is ended, its program handed back unbuilt (the point that needs
 * it builds it itself, and says why). */
static void builder_answer(struct farm *f, struct builder *b)
{
	char *log = NULL, *binary = NULL;
	size_t log_len, len = 0;

	if (get_frame(b->fd, &log, &log_len) < 0 || get_frame(b->fd, &binary, &len) < 0) {
		hand_back(f, (size_t)b->job, NULL, 0, NULL);
		builder_end(b, 1);
		b->job = -1;
	} else {
		hand_back(f, (size_t)b->job, len ? (const unsigned char *)binary : NULL, len, log);
		builder_next(f, b);
	}
	free(log);
	free(binary);
}

void wl_cl_builders_run(const struct wl_device *dev, const char *text, size_t len, char *const *full_options,
			size_t n, int procs, wl_builder_spawn spawn, const volatile int *stop, wl_builder_done done,
			void *ctx)
{
	struct farm f = { .options = full_options, .n = n, .stop = stop, .done = done, .ctx = ctx };
	struct builder b[BUILDERS_MAX] = { 0 };
	struct pollfd fds[BUILDERS_MAX];
	char where[600];
	int count = procs < BUILDERS_MAX ? procs : BUILDERS_MAX, started = 0;

	if ((size_t)count > n)
		count = (int)n;

	if (spawn && device_place(dev, where, sizeof(where)) == 0)
		for (int k = 0; k < count; k++) {
			b[k].job = -1;
			if (spawn(where, &b[k].fd, &b[k].pidfd, &b[k].pid) < 0) {
				b[k].pid = 0;
				continue;
			}
			started++;
			wl_log_info("builder process %d started for %s", (int)b[k].pid, dev->id);
			if (put_frame(b[k].fd, text, len) < 0)
				builder_end(&b[k], 1);
			else
				builder_next(&f, &b[k]);
		}
	if (!started)
		wl_log_warn("no builder process started for %s: its programs are built at their points", dev->id);
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
			hand_back(&f, (size_t)b[i].job, NULL, 0, NULL);
		builder_end(&b[i], 0);
	}
	while (f.next < n)
		hand_back(&f, f.next++, NULL, 0, NULL);
}

/* The builder's device, by where (device_place's), with a context. */
static int builder_device(const char *where, cl_device_id *dev, cl_context *ctx)
{
	char platform[256], name[256];
	unsigned k;

	if (sscanf(where, "%255[^\n]\n%255[^\n]\n%u", platform, name, &k) != 3 ||
	    !(*dev = device_named(platform, name, k)))
		return -1;
	*ctx = clCreateContext(NULL, 1, dev, NULL, NULL, NULL);
	return *ctx ? 0 : -1;
}

/* One program built from text with options: its log and binary sent back
 * (an empty binary where it did not build). -1 where stdout is gone. */
static int builder_build(cl_context ctx, cl_device_id dev, const char *text, size_t len, const char *options)
{
	cl_program program = clCreateProgramWithSource(ctx, 1, &text, &len, NULL);
	unsigned char *binary = NULL;
	size_t log_len = 0, bin_len = 0;
	char *log = NULL;
	int rc;

	if (program && clBuildProgram(program, 1, &dev, options, NULL, NULL) == CL_SUCCESS &&
	    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(bin_len), &bin_len, NULL) == CL_SUCCESS &&
	    bin_len > 0 && (binary = malloc(bin_len)) &&
	    clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binary), &binary, NULL) != CL_SUCCESS)
		bin_len = 0;
	if (!binary)
		bin_len = 0;
	if (program && clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len) == CL_SUCCESS &&
	    log_len > 0 && (log = calloc(1, log_len + 1)) &&
	    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, log_len, log, NULL) != CL_SUCCESS)
		log[0] = '\0';
	rc = put_frame(WL_BUILDER_FD, log ? log : "", log ? strlen(log) : 0) < 0 ||
	     put_frame(WL_BUILDER_FD, binary, bin_len) < 0 ? -1 : 0;
	free(log);
	free(binary);
	if (program)
		clReleaseProgram(program);
	return rc;
}

int wl_cl_builder_main(const char *where)
{
	cl_device_id dev;
	cl_context ctx;
	char *text, *options;
	size_t len, olen;

	if (builder_device(where, &dev, &ctx) < 0) {
		wl_log_error("--cl-builder %s: no such OpenCL device", where);
		return 1;
	}
	if (get_frame(WL_BUILDER_FD, &text, &len) == 0) {
		while (get_frame(WL_BUILDER_FD, &options, &olen) == 0) {
			int rc = builder_build(ctx, dev, text, len, options);

			free(options);
			if (rc < 0)
				break;
		}
		free(text);
	}
	clReleaseContext(ctx);
	return 0;
}
