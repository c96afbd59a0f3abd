/* Host side of the access-pattern experiments, strided (kernels/strided.cl) and
 * offset (kernels/offset.cl): n random floats gathered from a[i * stride] or
 * a[i + offset] into out[i], compared bit for bit with the same gather on the
 * CPU. The input is made on the device and the CPU evaluates each expected
 * element from its index, so a 4 GiB input never exists on the host.
 * Effective bytes: the n useful words read and the n written ("8*n"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "rng.h"

#define ACCESS_LOCAL 256	/* work-group size; the catalog's "work_group" */

struct access_state {
	size_t n, in_len;
	long long k;		/* the stride or the offset */
	int strided;
	uint64_t base;		/* the input's generator state */
	const float *output;	/* the last read-back, in the device's staging memory */
	struct wl_buf in, out;
};

static float access_expected(const void *ctx, size_t i)
{
	const struct access_state *s = ctx;

	return wl_rng_float_at(s->base, s->strided ? wl_gather_source(i, (size_t)s->k, 0)
						   : wl_gather_source(i, 1, (size_t)s->k));
}

static void access_teardown(void *state)
{
	struct access_state *s = state;

	if (!s)
		return;
	wl_buf_release(&s->in);
	wl_buf_release(&s->out);
	free(s);
}

static int access_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct access_state *s = calloc(1, sizeof(*s));
	struct wl_rng rng;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->strided = strcmp(pt->exp->id, "strided") == 0;
	s->n = (size_t)wl_point_value(pt, "n");
	s->k = wl_point_value(pt, s->strided ? "stride" : "offset");
	s->in_len = s->strided ? s->n * (size_t)s->k : s->n + (size_t)s->k;
	wl_rng_seed(&rng, pt->seed);
	s->base = rng.state;
	if (wl_point_random(pt, &rng, s->in_len, 0, NULL, WL_BUF_IN, &s->in, err) < 0)
		goto fail;
	if (wl_point_buffer(pt, WL_BUF_OUT, s->n * sizeof(float), NULL, &s->out, err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	access_teardown(s);
	return -1;
}

static void access_options(const struct wl_point *pt, char *out, size_t len)
{
	(void)pt;
	snprintf(out, len, "-D LOCAL_SIZE=%d", ACCESS_LOCAL);
}

static int access_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			  struct wl_measurement *res, struct wl_error *err)
{
	struct access_state *s = state;
	const struct wl_arg_buffer buffers[] = { { .name = "a", .mem = &s->in }, { .name = "out", .mem = &s->out } };
	struct wl_launch l = { 0 };
	char options[64];
	int rc = -1;

	access_options(pt, options, sizeof(options));
	if (wl_point_prepare(pt, v, options, buffers, 2, &l, err) < 0)
		return -1;
	rc = wl_point_run(pt, &l, &s->out, s->n * sizeof(float), (const void **)&s->output, res, err);
	if (rc > 0)
		wl_point_verify(pt, &(struct wl_exact_check){ .got = s->output, .want = access_expected,
							      .ctx = s, .n = s->n }, res);
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

static const char *const access_buffers[] = { "a", "out", NULL };

const struct wl_experiment_ops wl_exp_strided = {
	.id = "strided",
	.buffers = access_buffers,
	.setup = access_setup,
	.measure = access_measure,
	.teardown = access_teardown,
	.options = access_options,
};

const struct wl_experiment_ops wl_exp_offset = {
	.id = "offset",
	.buffers = access_buffers,
	.setup = access_setup,
	.measure = access_measure,
	.teardown = access_teardown,
	.options = access_options,
};
