/* Building and timing the device facts' probes (see probe_kit.h). */
#include "probe_kit.h"

#include <math.h>

#include "cl_timing.h"
#include "stats.h"

int wl_probe_build(struct wl_probe *p, const char *source, const char *what)
{
	cl_int rc;

	p->program = clCreateProgramWithSource(wl_cl_of(p->dev)->context, 1, &source, NULL, &rc);
	if (!p->program || clBuildProgram(p->program, 1, &wl_cl_of(p->dev)->device, "", NULL, NULL) != CL_SUCCESS) {
		wl_error_set(p->err, WL_ERR_INTERNAL, "device facts: the %s probe kernels do not build on %s", what,
			     p->dev->id);
		return -1;
	}
	return 0;
}

cl_mem wl_probe_buffer(struct wl_probe *p, size_t bytes)
{
	cl_int rc;
	cl_uint zero = 0;
	cl_mem m = clCreateBuffer(wl_cl_of(p->dev)->context, CL_MEM_READ_WRITE, bytes, NULL, &rc);

	if (m && clEnqueueFillBuffer(wl_cl_of(p->dev)->queue, m, &zero, sizeof(zero), 0, bytes, 0, NULL, NULL) == CL_SUCCESS)
		return m;
	if (m)
		clReleaseMemObject(m);
	wl_error_set(p->err, WL_ERR_INTERNAL, "device facts: cannot allocate %zu bytes on %s", bytes, p->dev->id);
	return NULL;
}

double wl_probe_usable(double v)
{
	return isfinite(v) && v > 0 ? v : NAN;
}

double wl_probe_time(struct wl_probe *p, const char *name, int dims, const size_t *global, const size_t *local,
		     int nargs, const size_t *sizes, const void *const *values, int n, int fastest)
{
	cl_int rc;
	cl_kernel k = clCreateKernel(p->program, name, &rc);
	struct wl_launch l = { .handle = k, .dims = dims };
	double samples[WL_PROBE_TIMED_MAX], ms = -1;
	struct wl_stats s;

	if (!k) {
		wl_error_set(p->err, WL_ERR_INTERNAL, "device facts: no kernel %s", name);
		return -1;
	}
	if (n > WL_PROBE_TIMED_MAX)
		n = WL_PROBE_TIMED_MAX;
	for (int d = 0; d < dims && d < 2; d++) {
		l.global[d] = global[d];
		l.local[d] = local[d];
	}
	for (int i = 0; i < nargs; i++)
		clSetKernelArg(k, (cl_uint)i, sizes[i], values[i]);
	if (wl_time_launches(wl_cl_of(p->dev)->queue, &l, 5, n, NULL, samples, &rc, p->err) == 0 &&
	    wl_stats_summary(samples, (size_t)n, &s) == 0)
		ms = fastest ? s.q1 : s.median;
	clReleaseKernel(k);
	return ms;
}

void wl_probe_release(struct wl_probe *p)
{
	if (p->program)
		clReleaseProgram(p->program);
	p->program = NULL;
}
