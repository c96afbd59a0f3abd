/* Host side of the dot experiment (kernels/dot.cl, seed 004): two vectors of
 * small integers as floats, items work-items, the partial sums added on the
 * host in double and compared exactly with the CPU's double dot product
 * (WL_SUM_TOLERANCE), which multiplies the generator's values from their
 * indices on a thread of its own while the device fills the inputs and times
 * the first variant: the vectors are never on the host. Bytes: both vectors read once ("8*n"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "host_job.h"
#include "rng.h"

struct dot_state {
	size_t n, items, local;
	uint64_t base1, base2;	/* the vectors' generator states */
	struct wl_host_job multiplying;	/* dot being computed: wait before reading it */
	const float *partials;	/* the last read-back, in the device's staging memory */
	double dot;
	struct wl_buf d1, d2, resps, nn, kk;
};

double wl_dot_reference(const float *a, const float *b, size_t n)
{
	double dot = 0;

	/* The inputs are small integers: every partial sum is exact in double,
	 * so the threads' order of additions cannot change the result. */
#pragma omp parallel for reduction(+ : dot) schedule(static) if (n > 65536)
	for (size_t i = 0; i < n; i++)
		dot += (double)a[i] * b[i];
	return dot;
}

static void dot_teardown(void *state)
{
	struct dot_state *s = state;

	if (!s)
		return;
	wl_host_job_wait(&s->multiplying);
	wl_buf_release(&s->d1);
	wl_buf_release(&s->d2);
	wl_buf_release(&s->resps);
	wl_buf_release(&s->nn);
	wl_buf_release(&s->kk);
	free(s);
}

/* The vectors' dot product, each element from its index: exact in double
 * for the small integers the runs use. */
static void make_dot(void *ctx)
{
	struct dot_state *s = ctx;
	double dot = 0;

#pragma omp parallel for reduction(+ : dot) schedule(static) if (s->n > 65536)
	for (size_t i = 0; i < s->n; i++)
		dot += (double)wl_rng_small_int_at(s->base1, i, 8) * wl_rng_small_int_at(s->base2, i, 8);
	s->dot = dot;
}

static int dot_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct dot_state *s = calloc(1, sizeof(*s));
	struct wl_rng rng;
	int32_t nn, kk;	/* the kernel's int, 32 bits in either language */

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->n = (size_t)wl_point_value(pt, "n");
	s->items = (size_t)wl_point_value(pt, "items");
	s->local = (size_t)wl_point_value(pt, "local");
	nn = (int32_t)s->n;
	kk = (int32_t)(s->n / s->items);
	wl_rng_seed(&rng, pt->seed);
	s->base1 = rng.state;
	s->base2 = rng.state + (uint64_t)s->n * WL_RNG_GAMMA;
	wl_host_job_start(&s->multiplying, make_dot, s);
	if (wl_point_random(pt, &rng, s->n, 8, NULL, WL_BUF_IN, &s->d1, err) < 0 ||
	    wl_point_random(pt, &rng, s->n, 8, NULL, WL_BUF_IN, &s->d2, err) < 0)
		goto fail;
	if (wl_point_buffer(pt, WL_BUF_SCRATCH, s->items * sizeof(float), NULL, &s->resps, err) < 0 ||
	    wl_point_buffer(pt, WL_BUF_IN, sizeof(nn), &nn, &s->nn, err) < 0 ||
	    wl_point_buffer(pt, WL_BUF_IN, sizeof(kk), &kk, &s->kk, err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	dot_teardown(s);
	return -1;
}

/* The work-group size is a compile-time constant of the kernels. */
static void dot_options(const struct wl_point *pt, char *out, size_t len)
{
	snprintf(out, len, "-D LOCAL_SIZE=%zu", (size_t)wl_point_value(pt, "local"));
}

static int dot_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
		       struct wl_measurement *res, struct wl_error *err)
{
	struct dot_state *s = state;
	const struct wl_arg_buffer buffers[] = { { .name = "v1", .mem = &s->d1 }, { .name = "v2", .mem = &s->d2 },
						 { .name = "resps", .mem = &s->resps }, { .name = "NN", .mem = &s->nn },
						 { .name = "KK", .mem = &s->kk } };
	struct wl_launch l = { 0 };
	size_t partials;
	char options[64];
	int rc = -1;

	dot_options(pt, options, sizeof(options));
	if (wl_point_prepare(pt, v, options, buffers, 5, &l, err) < 0)
		return -1;
	/* All items slots are poisoned and read back; a variant that writes one
	 * partial per work-group fills the first items / local of them. */
	partials = wl_launch_decl_output_is(&v->host, "per_group") ? s->items / s->local : s->items;
	rc = wl_point_run(pt, &l, &s->resps, s->items * sizeof(float), (const void **)&s->partials, res, err);
	if (rc > 0) {
		wl_host_job_wait(&s->multiplying);
		res->verified = wl_verify_partial_sums(s->partials, partials, s->dot, res);
	}
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

static const char *const dot_buffers[] = { "v1", "v2", "resps", "NN", "KK", NULL };
static const char *const dot_outputs[] = { "per_item", "per_group", NULL };

const struct wl_experiment_ops wl_exp_dot = {
	.id = "dot",
	.buffers = dot_buffers,
	.outputs = dot_outputs,
	.setup = dot_setup,
	.measure = dot_measure,
	.teardown = dot_teardown,
	.options = dot_options,
};
