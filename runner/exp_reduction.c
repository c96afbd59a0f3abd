/* Host side of the reduction experiment (kernels/reduction.cl): n small
 * integers as floats summed on the device into one partial sum per work-group,
 * the partials added on the host in double and compared exactly with the CPU's
 * sum (WL_SUM_TOLERANCE). The partials are not timed. Bytes: the n floats read
 * ("4*n"); the partials are a rounding error beside them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "rng.h"

struct reduction_state {
	size_t n, local, max_groups;
	float *input;
	const float *partials;	/* the last read-back, in the device's staging memory */
	double sum;
	cl_mem in, partial;
};

double wl_sum_reference(const float *v, size_t n)
{
	double sum = 0;

	/* Exact in any order for the small integers the runs use. */
#pragma omp parallel for reduction(+ : sum) schedule(static) if (n > 65536)
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

static void reduction_teardown(void *state)
{
	struct reduction_state *s = state;

	if (!s)
		return;
	wl_mem_release(&s->in);
	wl_mem_release(&s->partial);
	free(s->input);
	free(s);
}

static int reduction_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct reduction_state *s = calloc(1, sizeof(*s));
	struct wl_rng rng;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->n = (size_t)wl_point_value(pt, "n");
	s->local = (size_t)wl_point_value(pt, "local");
	s->max_groups = s->n / s->local;	/* the one-element-per-work-item kernels */
	s->input = malloc(s->n * sizeof(float));
	if (!s->input) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory for %zu floats", s->n);
		goto fail;
	}
	wl_rng_seed(&rng, pt->seed);
	if (wl_point_random(pt, &rng, s->n, 8, s->input, CL_MEM_READ_ONLY, &s->in, err) < 0)
		goto fail;
	s->sum = wl_sum_reference(s->input, s->n);
	if (wl_point_buffer(pt, CL_MEM_WRITE_ONLY, s->max_groups * sizeof(float), NULL, &s->partial,
			    err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	reduction_teardown(s);
	return -1;
}

/* Work-groups of the grid-stride variant: as many as the device keeps resident
 * (about 2048 work-items per compute unit), fewer for small inputs. */
static size_t grid_stride_groups(const struct wl_point *pt, const struct reduction_state *s)
{
	size_t per_cu = s->local >= 2048 ? 1 : 2048 / s->local;
	size_t groups = pt->dev->compute_units * per_cu;
	size_t most = s->n / 4 / s->local;

	if (groups > most)
		groups = most;
	return groups ? groups : 1;
}

static int reduction_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			     struct wl_measurement *res, struct wl_error *err)
{
	struct reduction_state *s = state;
	struct wl_launch l = { .dims = 1, .local = { s->local } };
	cl_uint n4 = (cl_uint)(s->n / 4);
	size_t groups;
	char options[64];
	int rc = -1;

	snprintf(options, sizeof(options), "-D TILE_SIZE=%zu", s->local);
	if (wl_point_kernel(pt, options, v->kernel, &l.kernel, err) < 0)
		return -1;
	clSetKernelArg(l.kernel, 0, sizeof(cl_mem), &s->in);
	clSetKernelArg(l.kernel, 1, sizeof(cl_mem), &s->partial);
	if (strcmp(v->id, "grid_stride") == 0) {
		groups = grid_stride_groups(pt, s);
		clSetKernelArg(l.kernel, 2, sizeof(cl_uint), &n4);
		snprintf(res->note, sizeof(res->note), "%zu work-groups of %zu", groups, s->local);
	} else if (strcmp(v->id, "first_add") == 0) {
		groups = s->n / (2 * s->local);
	} else {
		groups = s->n / s->local;
	}
	l.global[0] = groups * s->local;
	rc = wl_point_run(pt, &l, s->partial, groups * sizeof(float), (const void **)&s->partials, res, err);
	if (rc > 0)
		res->verified = wl_verify_partial_sums(s->partials, groups, s->sum, res);
	clReleaseKernel(l.kernel);
	return rc < 0 ? -1 : 0;
}

const struct wl_experiment_ops wl_exp_reduction = {
	.id = "reduction",
	.setup = reduction_setup,
	.measure = reduction_measure,
	.teardown = reduction_teardown,
};
