#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
static const char *src = "__kernel void e(__global uint *o) { }\n"
"__kernel void w(__global uint *o) { if (get_global_id(0) == 0) o[0] = 1; }\n";
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(void) {
	cl_platform_id p[4]; cl_uint np; cl_device_id d = NULL; cl_int rc;
	clGetPlatformIDs(4, p, &np);
	for (cl_uint i = 0; i < np && !d; i++) clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL);
	cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &rc);
	cl_command_queue q = clCreateCommandQueue(c, d, CL_QUEUE_PROFILING_ENABLE, &rc);
	cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &rc);
	clBuildProgram(pr, 1, &d, "", NULL, NULL);
	cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, 4096, NULL, &rc);
	const char *names[] = { "e", "w" };
	size_t globals[] = { 1, 256, 16384, 262144, 4194304 };
	int warms[] = { 1, 50 };
	for (int k = 0; k < 2; k++) for (int g = 0; g < 5; g++) for (int wi = 0; wi < 2; wi++) {
		cl_kernel kk = clCreateKernel(pr, names[k], &rc);
		clSetKernelArg(kk, 0, sizeof(b), &b);
		size_t gl = globals[g], lo = gl < 256 ? gl : 256;
		for (int i = 0; i < warms[wi]; i++) clEnqueueNDRangeKernel(q, kk, 1, NULL, &gl, &lo, 0, NULL, NULL);
		cl_event ev[20]; double t[20];
		for (int i = 0; i < 20; i++) clEnqueueNDRangeKernel(q, kk, 1, NULL, &gl, &lo, 0, NULL, &ev[i]);
		clFinish(q);
		for (int i = 0; i < 20; i++) { cl_ulong s, e; clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, 8, &s, NULL); clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, 8, &e, NULL); t[i] = (e - s) / 1000.0; clReleaseEvent(ev[i]); }
		qsort(t, 20, sizeof(double), cmp);
		printf("%s global %zu warm %d: min %.2f median %.2f max %.2f us\n", names[k], gl, warms[wi], t[0], t[10], t[19]);
		clReleaseKernel(kk);
	}
	return 0;
}
