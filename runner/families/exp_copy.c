/* Host side of the copy experiment (kernels/copy.cl): n random floats made on
 * the device, copied with 1-, 2- and 4-wide elements; the output must equal the
 * input bit for bit, each element evaluated on the CPU from its index. Bytes
 * counted: n floats read plus n written (the catalog's "8*n"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "rng.h"

struct copy_state {
	size_t n, local;
	uint64_t base;		/* the input's generator state */
	const float *output;	/* the last read-back, in the device's staging memory */
	struct wl_buf in, out;
};

static float copy_expected(const void *ctx, size_t i)
{
	return wl_rng_float_at(((const struct copy_state *)ctx)->base, i);
}

static void copy_teardown(void *state)
{
	struct copy_state *s = state;

	if (!s)
		return;
	wl_buf_release(&s->in);
	wl_buf_release(&s->out);
	free(s);
}

static int copy_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct copy_state *s = calloc(1, sizeof(*s));
	struct wl_rng rng;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->n = (size_t)wl_point_value(pt, "n");
	s->local = (size_t)wl_point_value(pt, "local");
	wl_rng_seed(&rng, pt->seed);
	s->base = rng.state;
	if (wl_point_random(pt, &rng, s->n, 0, NULL, WL_BUF_IN, &s->in, err) < 0 ||
	    wl_point_buffer(pt, WL_BUF_OUT, s->n * sizeof(float), NULL, &s->out, err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	copy_teardown(s);
	return -1;
}

static const char *const copy_buffers[] = { "in", "out", NULL };

/* The work-group size is a compile-time constant of the kernels. */
static void copy_options(const struct wl_point *pt, char *out, size_t len)
{
	snprintf(out, len, "-D LOCAL_SIZE=%zu", (size_t)wl_point_value(pt, "local"));
}

static int copy_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			struct wl_measurement *res, struct wl_error *err)
{
	struct copy_state *s = state;
	const struct wl_arg_buffer buffers[] = { { .name = "in", .mem = &s->in }, { .name = "out", .mem = &s->out } };
	size_t bytes = s->n * sizeof(float);
	struct wl_launch l = { 0 };
	char options[64];
	int rc = -1;

	copy_options(pt, options, sizeof(options));
	if (wl_point_prepare(pt, v, options, buffers, 2, &l, err) < 0)
		return -1;
	rc = wl_point_run(pt, &l, &s->out, bytes, (const void **)&s->output, res, err);
	if (rc > 0)
		wl_point_verify(pt, &(struct wl_exact_check){ .got = s->output, .want = copy_expected,
							      .ctx = s, .n = s->n }, res);
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

const struct wl_experiment_ops wl_exp_copy = {
	.id = "copy",
	.buffers = copy_buffers,
	.setup = copy_setup,
	.measure = copy_measure,
	.teardown = copy_teardown,
	.options = copy_options,
};
