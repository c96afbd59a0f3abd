/* bench/cl-build-procs.c — whether an OpenCL driver's compiler builds in
 * parallel across processes where it does not across threads, and what
 * loading the binaries costs after: COUNT programs of FILE, each with its
 * own defines (-D tx, ty, rows, pad as bench/plans/tuning-own.json's tiled
 * transpose spans them), built by PROCS forked processes (each opens the
 * first GPU, else the first device, and builds every PROCS-th), their
 * binaries written under DIR; then this process opens the device and builds
 * every one from its binary. Prints the wall times.
 *   cl-build-procs FILE PROCS COUNT DIR */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	s = calloc(1, *len + 1);
	if (fread(s, 1, *len, f) != *len)
		*len = 0;
	fclose(f);
	return s;
}

static int open_device(cl_context *ctx, cl_device_id *dev)
{
	cl_platform_id plats[8];
	cl_uint np = 0;

	if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS)
		return -1;
	for (int gpu = 1; gpu >= 0; gpu--)
		for (cl_uint p = 0; p < np; p++)
			if (clGetDeviceIDs(plats[p], gpu ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL, 1, dev, NULL) ==
			    CL_SUCCESS) {
				*ctx = clCreateContext(NULL, 1, dev, NULL, NULL, NULL);
				return *ctx ? 0 : -1;
			}
	return -1;
}

/* The i-th configuration's options, in the space's order. */
static void options_of(int i, char *buf, size_t len)
{
	static const int tx[] = { 4, 8, 16, 32, 64, 128 }, ty[] = { 4, 8, 16, 32, 64 }, rows[] = { 1, 2, 4, 8, 16 };

	snprintf(buf, len, "-D tx=%d -D ty=%d -D rows=%d -D pad=%d", tx[i % 6], ty[(i / 6) % 5], rows[(i / 30) % 5],
		 (i / 150) % 6);
}

static int build_share(const char *src, int procs, int me, int count, const char *dir)
{
	cl_context ctx;
	cl_device_id dev;

	if (open_device(&ctx, &dev) < 0)
		return 1;
	for (int i = me; i < count; i += procs) {
		char opts[256], path[4096];
		cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, NULL);
		size_t blen = 0;
		unsigned char *bin;
		FILE *f;

		options_of(i, opts, sizeof(opts));
		if (clBuildProgram(p, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
			fprintf(stderr, "%d (%s) did not build\n", i, opts);
			clReleaseProgram(p);
			continue;
		}
		clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(blen), &blen, NULL);
		bin = malloc(blen);
		clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL);
		snprintf(path, sizeof(path), "%s/%d.bin", dir, i);
		if ((f = fopen(path, "wb"))) {
			fwrite(bin, 1, blen, f);
			fclose(f);
		}
		free(bin);
		clReleaseProgram(p);
	}
	clReleaseContext(ctx);
	return 0;
}

int main(int argc, char **argv)
{
	size_t len;
	char *src;
	int procs, count, loaded = 0;
	double t0, t1;
	cl_context ctx;
	cl_device_id dev;

	if (argc != 5 || !(src = slurp(argv[1], &len))) {
		fprintf(stderr, "usage: cl-build-procs FILE PROCS COUNT DIR\n");
		return 2;
	}
	procs = atoi(argv[2]);
	count = atoi(argv[3]);
	t0 = now_ms();
	for (int c = 0; c < procs; c++)
		if (fork() == 0)
			_exit(build_share(src, procs, c, count, argv[4]));
	while (wait(NULL) > 0)
		;
	t1 = now_ms();
	printf("built %d programs in %d processes: %.0f ms (%.1f ms a program)\n", count, procs, t1 - t0,
	       (t1 - t0) / count);
	if (open_device(&ctx, &dev) < 0)
		return 1;
	t0 = now_ms();
	for (int i = 0; i < count; i++) {
		char path[4096];
		size_t blen;
		unsigned char *bin = (unsigned char *)slurp((snprintf(path, sizeof(path), "%s/%d.bin", argv[4], i), path),
							  &blen);
		const unsigned char *b = bin;
		cl_program p;

		if (!bin)
			continue;
		p = clCreateProgramWithBinary(ctx, 1, &dev, &blen, &b, NULL, NULL);
		if (p && clBuildProgram(p, 1, &dev, "", NULL, NULL) == CL_SUCCESS)
			loaded++;
		if (p)
			clReleaseProgram(p);
		free(bin);
	}
	t1 = now_ms();
	printf("loaded %d from their binaries in one process: %.0f ms (%.2f ms a program)\n", loaded, t1 - t0,
	       (t1 - t0) / count);
	return 0;
}
