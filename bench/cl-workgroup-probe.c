/* A diagnostic for one device: build a trivial kernel with and without
 * reqd_work_group_size, print what the driver says the kernel's largest
 * work-group is, try launches of 256, 512 and 1024 work-items, and print the
 * start of the program binary (PTX on NVIDIA, where .maxntid/.reqntid show what
 * the compiler assumed). Built and run by hand when a driver's limits look odd:
 *   cc -O2 -o /tmp/probe bench/cl-workgroup-probe.c -lOpenCL && /tmp/probe */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
	"__kernel void plain(__global float *o) { o[get_global_id(0)] = 1.0f; }\n"
	"__kernel __attribute__((reqd_work_group_size(1024, 1, 1)))\n"
	"void fixed1024(__global float *o) { o[get_global_id(0)] = 2.0f; }\n";

int main(void)
{
	cl_platform_id plats[8];
	cl_uint np = 0;

	clGetPlatformIDs(8, plats, &np);
	for (cl_uint p = 0; p < np; p++) {
		cl_device_id dev;
		char name[256];
		cl_int rc;

		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
			continue;
		clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
		cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
		cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &rc);
		cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &rc);
		const char *opts[] = { "", "-cl-std=CL1.2", "-cl-nv-maxrregcount=64" };

		for (size_t o = 0; o < sizeof(opts) / sizeof(opts[0]); o++) {
			rc = clBuildProgram(prog, 1, &dev, opts[o], NULL, NULL);
			printf("%s, build options '%s': %d\n", name, opts[o], rc);
			if (rc != CL_SUCCESS)
				continue;
			for (int k = 0; k < 2; k++) {
				const char *kn = k ? "fixed1024" : "plain";
				cl_kernel kern = clCreateKernel(prog, kn, &rc);
				size_t wg = 0, mult = 0;
				cl_ulong priv = 0, lmem = 0;
				cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &rc);

				clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL);
				clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
							 sizeof(mult), &mult, NULL);
				clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv), &priv, NULL);
				clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL);
				printf("  %-10s CL_KERNEL_WORK_GROUP_SIZE %zu, multiple %zu, private %lu, local %lu\n",
				       kn, wg, mult, (unsigned long)priv, (unsigned long)lmem);
				clSetKernelArg(kern, 0, sizeof(buf), &buf);
				for (size_t local = 256; local <= 1024; local *= 2) {
					size_t global = 65536;

					rc = clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, &local, 0, NULL, NULL);
					if (rc == CL_SUCCESS)
						rc = clFinish(q);
					printf("    launch with %4zu work-items: %d\n", local, rc);
				}
				clReleaseMemObject(buf);
				clReleaseKernel(kern);
			}
			{
				size_t size = 0;
				unsigned char *bin;

				clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL);
				bin = calloc(1, size + 1);
				clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL);
				for (char *line = strtok((char *)bin, "\n"); line; line = strtok(NULL, "\n"))
					if (strstr(line, ".entry") || strstr(line, ".maxntid") || strstr(line, ".reqntid") ||
					    strstr(line, ".target") || strstr(line, ".version"))
						printf("    ptx: %s\n", line);
				free(bin);
			}
		}
	}
	return 0;
}
