/* The reference of the transpose experiment (kernels/transpose.cl, seed
 * 003): an n x n matrix transposed, compared bit for bit with the CPU's
 * transpose, computed once a point from the input's generator (the input is
 * never on the host); a variant whose host.output is "copied" (the copy
 * baseline) is compared with the input itself, element by element. */
#include <stdlib.h>

#include "references.h"

struct transpose_ref {
	const struct wl_ref_buffer *input;
	struct wl_lane_gen gen;		/* the input's values */
	size_t n;
	float *expected;	/* the input transposed, shared by the variants */
};

static float copied_expected(const void *ctx, size_t o)
{
	const struct transpose_ref *t = ctx;

	return (float)wl_lane_at(t->gen, o);
}

static void transpose_release(void *ctx)
{
	struct transpose_ref *t = ctx;

	if (t)
		free(t->expected);
	free(t);
}

/* out[y][x] = in[x][y], each input element from its index: written in
 * order, nothing read. */
static void transpose_expected(const struct wl_lane_gen gen, size_t n, float *out)
{
	#pragma omp parallel for schedule(static) if (n > 256)
	for (size_t y = 0; y < n; y++)
		wl_lanes_float(gen, y, n, n, out + y * n);
}

static int transpose_prepare(const struct wl_ref_point *in, void **ctx, struct wl_error *err)
{
	struct transpose_ref *t = calloc(1, sizeof(*t));
	size_t count;

	if (!t) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (!(t->input = wl_ref_input(in, 0, "transpose", err)) || wl_ref_floats(in, "transpose", err) < 0)
		goto fail;
	count = in->output->count;
	t->n = (size_t)wl_point_value(in->pt, "n");
	if (t->n * t->n != count || t->input->count != count) {
		wl_error_set(err, WL_ERR_CONFIG, "reference 'transpose': the input and output must be n x n (n = %zu)", t->n);
		goto fail;
	}
	if (!(t->expected = malloc(count * sizeof(float)))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory for a %zu x %zu matrix", t->n, t->n);
		goto fail;
	}
	t->gen = wl_lane_gen(t->input->def, &t->input->at);
	transpose_expected(t->gen, t->n, t->expected);
	*ctx = t;
	return 0;
fail:
	transpose_release(t);
	return -1;
}

static void transpose_check(void *ctx, const struct wl_point *pt, const struct wl_variant_def *v, const void *got,
			    struct wl_measurement *res)
{
	const struct transpose_ref *t = ctx;
	struct wl_exact_check job = { .got = got, .n = t->n * t->n, .row_len = t->n };

	if (wl_launch_decl_output_is(&v->host, "copied")) {
		job.want = copied_expected;
		job.ctx = t;
	} else {
		job.array = t->expected;
	}
	wl_point_verify(pt, &job, res);
}

static const char *const transpose_outputs[] = { "transposed", "copied", NULL };

/* What prepare reads of its point. */
static const char *const transpose_reads[] = { "n", NULL };

const struct wl_reference wl_ref_transpose = {
	.name = "transpose",
	.outputs = transpose_outputs,
	.prepare = transpose_prepare,
	.check = transpose_check,
	.release = transpose_release,
	.reads = transpose_reads,
};
