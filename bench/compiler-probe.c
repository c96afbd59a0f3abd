/* bench/compiler-probe.c — what an OpenCL driver tells about a built program:
 * for each FILE OPTIONS pair on the command line, build it on the first GPU
 * (else the first device) with the given options plus each of the extra flag
 * sets below, and write the build log, CL_PROGRAM_BINARIES (PTX on NVIDIA)
 * and each kernel's clGetKernelWorkGroupInfo under DIR. Also rebuilds from the
 * binary to show whether the log is given again. Used to record the fixtures
 * of tests/fixtures/nvidia-* and to check what the runner relies on.
 *   compiler-probe DIR FILE "OPTIONS" [FILE "OPTIONS"...] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void put(const char *dir, const char *name, const char *suffix, const void *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, suffix);
	f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

static void log_of(cl_program p, cl_device_id d, const char *dir, const char *name, const char *suffix)
{
	size_t n = 0;
	char *log;

	clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
	log = calloc(1, n + 1);
	clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, log, NULL);
	put(dir, name, suffix, log, strlen(log));
	free(log);
}

static void kernels_of(cl_program p, cl_device_id d, const char *dir, const char *name)
{
	cl_kernel ks[64];
	cl_uint n = 0;
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.kernels.txt", dir, name);
	f = fopen(path, "w");
	clCreateKernelsInProgram(p, 64, ks, &n);
	for (cl_uint i = 0; i < n && f; i++) {
		char kname[256] = "";
		cl_ulong local = 0, priv = 0;
		size_t wg = 0, mult = 0, req[3] = { 0 };

		clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof(kname), kname, NULL);
		clGetKernelWorkGroupInfo(ks[i], d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local), &local, NULL);
		clGetKernelWorkGroupInfo(ks[i], d, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv), &priv, NULL);
		clGetKernelWorkGroupInfo(ks[i], d, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL);
		clGetKernelWorkGroupInfo(ks[i], d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
					 sizeof(mult), &mult, NULL);
		clGetKernelWorkGroupInfo(ks[i], d, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(req), req, NULL);
		fprintf(f, "%s local=%llu private=%llu work_group=%zu multiple=%zu reqd=%zux%zux%zu\n", kname,
			(unsigned long long)local, (unsigned long long)priv, wg, mult, req[0], req[1], req[2]);
		clReleaseKernel(ks[i]);
	}
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	static const char *extras[] = { "", "-cl-nv-verbose", "-cl-nv-verbose -nv-line-info" };
	cl_platform_id plats[8];
	cl_uint np = 0;
	cl_device_id dev = NULL;
	cl_context ctx;
	const char *dir = argv[1];

	clGetPlatformIDs(8, plats, &np);
	for (cl_uint i = 0; i < np && !dev; i++)
		clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
	for (cl_uint i = 0; i < np && !dev; i++)
		clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
	if (!dev || argc < 4)
		return 1;
	{
		cl_uint v[6] = { 0 };
		char name[256] = "";
		FILE *f;
		char path[4096];

		clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
		for (int a = 0; a < 6; a++)
			clGetDeviceInfo(dev, 0x4000 + a, sizeof(v[a]), &v[a], NULL);
		snprintf(path, sizeof(path), "%s/device.txt", dir);
		f = fopen(path, "w");
		fprintf(f, "%s cc=%u.%u regs_per_block=%u warp=%u gpu_overlap=%u exec_timeout=%u\n", name, v[0], v[1],
			v[2], v[3], v[4], v[5]);
		fclose(f);
	}
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
	for (int a = 2; a + 1 < argc; a += 2) {
		size_t len = 0;
		char *src = slurp(argv[a], &len);
		const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];

		for (size_t e = 0; src && e < sizeof(extras) / sizeof(extras[0]); e++) {
			char opts[1024], name[512];
			const char *text = src;
			cl_program p = clCreateProgramWithSource(ctx, 1, &text, &len, NULL);
			size_t blen = 0;
			unsigned char *bin;
			cl_int rc;

			snprintf(opts, sizeof(opts), "%s %s", argv[a + 1], extras[e]);
			snprintf(name, sizeof(name), "%s.%zu", base, e);
			rc = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
			printf("%s [%s]: %d\n", base, opts, rc);
			log_of(p, dev, dir, name, ".log");
			if (rc != CL_SUCCESS)
				continue;
			kernels_of(p, dev, dir, name);
			clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(blen), &blen, NULL);
			bin = malloc(blen);
			clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL);
			put(dir, name, ".bin", bin, blen);
			{
				const unsigned char *cb = bin;
				cl_program q = clCreateProgramWithBinary(ctx, 1, &dev, &blen, &cb, NULL, NULL);

				rc = clBuildProgram(q, 1, &dev, opts, NULL, NULL);
				printf("  from binary: %d\n", rc);
				log_of(q, dev, dir, name, ".from-binary.log");
				clReleaseProgram(q);
			}
			free(bin);
			clReleaseProgram(p);
		}
		free(src);
	}
	return 0;
}
