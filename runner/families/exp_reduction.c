/* Host side of the reduction experiment (kernels/reduction.cl): n small
 * integers as floats summed on the device into one partial sum per work-group,
 * the partials added on the host in double and compared exactly with the CPU's
 * sum (WL_SUM_TOLERANCE), which adds the generator's values from their indices
 * on a thread of its own while the device fills the input and times the first
 * variant: the input is never on the host. The partials are not timed. Bytes: the n floats read
 * ("4*n"); the partials are a rounding error beside them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "host_job.h"
#include "rng.h"

struct reduction_state {
	size_t n, local, max_groups;
	uint64_t base;		/* the input's generator state */
	struct wl_host_job summing;	/* sum being computed: wait before reading it */
	const float *partials;	/* the last read-back, in the device's staging memory */
	double sum;
	struct wl_buf in, partial;
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
	wl_host_job_wait(&s->summing);
	wl_buf_release(&s->in);
	wl_buf_release(&s->partial);
	free(s);
}

/* The input's sum, each element from its index. Exact in any order for the
 * small integers the runs use. */
static void make_sum(void *ctx)
{
	struct reduction_state *s = ctx;
	double sum = 0;

#pragma omp parallel for reduction(+ : sum) schedule(static) if (s->n > 65536)
	for (size_t i = 0; i < s->n; i++)
		sum += wl_rng_small_int_at(s->base, i, 8);
	s->sum = sum;
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
	wl_rng_seed(&rng, pt->seed);
	s->base = rng.state;
	wl_host_job_start(&s->summing, make_sum, s);
	if (wl_point_random(pt, &rng, s->n, 8, NULL, WL_BUF_IN, &s->in, err) < 0)
		goto fail;
	if (wl_point_buffer(pt, WL_BUF_OUT, s->max_groups * sizeof(float), NULL, &s->partial,
			    err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	reduction_teardown(s);
	return -1;
}

/* The work-group size is a compile-time constant of the kernels. */
static void reduction_options(const struct wl_point *pt, char *out, size_t len)
{
	snprintf(out, len, "-D TILE_SIZE=%zu", (size_t)wl_point_value(pt, "local"));
}

static int reduction_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			     struct wl_measurement *res, struct wl_error *err)
{
	struct reduction_state *s = state;
	const struct wl_arg_buffer buffers[] = { { .name = "data", .mem = &s->in }, { .name = "partial", .mem = &s->partial } };
	struct wl_launch l = { 0 };
	size_t groups;
	char options[64];
	int rc = -1;

	reduction_options(pt, options, sizeof(options));
	if (wl_point_prepare(pt, v, options, buffers, 2, &l, err) < 0)
		return -1;
	/* Each work-group writes one partial sum, into room for max_groups. */
	groups = l.local[0] ? l.global[0] / l.local[0] : 0;
	if (groups == 0 || groups > s->max_groups) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "variant '%s': its declared launch makes %zu work-groups; a reduction writes 1 to n / local partial sums",
			     v->id, groups);
		wl_launch_release(&l);
		return -1;
	}
	if (v->host.has_fill)
		snprintf(res->note, sizeof(res->note), "%zu work-groups of %zu", groups, l.local[0]);
	rc = wl_point_run(pt, &l, &s->partial, groups * sizeof(float), (const void **)&s->partials, res, err);
	if (rc > 0) {
		wl_host_job_wait(&s->summing);
		res->verified = wl_verify_partial_sums(s->partials, groups, s->sum, res);
	}
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

static const char *const reduction_buffers[] = { "data", "partial", NULL };
static const char *const reduction_outputs[] = { "per_group", NULL };

const struct wl_experiment_ops wl_exp_reduction = {
	.id = "reduction",
	.buffers = reduction_buffers,
	.outputs = reduction_outputs,
	.setup = reduction_setup,
	.measure = reduction_measure,
	.teardown = reduction_teardown,
	.options = reduction_options,
};
