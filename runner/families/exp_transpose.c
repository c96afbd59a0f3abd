/* Host side of the transpose experiment (kernels/transpose.cl): an n x n matrix
 * of random floats made on the device, transposed by each variant and compared
 * bit for bit with the CPU's transpose, computed once per point from the
 * generator (the input itself is never on the host; the "copy" baseline is
 * compared with it element by element, each evaluated from its index). Tile
 * side and rows are compile-time constants of the kernels, as in seed 003.
 * Bytes counted: the matrix read once and written once (the catalog's "8*n*n"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "rng.h"

struct transpose_state {
	size_t n, tile, rows;
	uint64_t base;		/* the input's generator state */
	float *expected;	/* the input transposed, shared by the variants */
	const float *output;	/* the last read-back, in the device's staging memory */
	struct wl_buf idata, odata;
};

static float copied_expected(const void *ctx, size_t o)
{
	return wl_rng_float_at(((const struct transpose_state *)ctx)->base, o);
}

static void transpose_teardown(void *state)
{
	struct transpose_state *s = state;

	if (!s)
		return;
	wl_buf_release(&s->idata);
	wl_buf_release(&s->odata);
	free(s->expected);
	free(s);
}

static int transpose_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct transpose_state *s = calloc(1, sizeof(*s));
	struct wl_rng rng;
	size_t elems;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->n = (size_t)wl_point_value(pt, "n");
	s->tile = (size_t)wl_point_value(pt, "tile");
	s->rows = (size_t)wl_point_value(pt, "rows");
	elems = s->n * s->n;
	s->expected = malloc(elems * sizeof(float));
	if (!s->expected) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory for a %zu x %zu matrix", s->n, s->n);
		goto fail;
	}
	wl_rng_seed(&rng, pt->seed);
	s->base = rng.state;
	if (wl_point_random(pt, &rng, elems, 0, NULL, WL_BUF_IN, &s->idata, err) < 0)
		goto fail;
	/* out[y][x] = in[x][y], each input element from its index: written in
	 * order, nothing read. */
#pragma omp parallel for schedule(static) if (s->n > 256)
	for (size_t y = 0; y < s->n; y++)
		for (size_t x = 0; x < s->n; x++)
			s->expected[y * s->n + x] = wl_rng_float_at(s->base, x * s->n + y);
	if (wl_point_buffer(pt, WL_BUF_OUT, elems * sizeof(float), NULL, &s->odata, err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	transpose_teardown(s);
	return -1;
}

/* Tile side and rows are compile-time constants of the kernels, as in seed 003. */
static void transpose_options(const struct wl_point *pt, char *out, size_t len)
{
	snprintf(out, len, "-D TILE_DIM=%lld -D BLOCK_ROWS=%lld", wl_point_value(pt, "tile"),
		 wl_point_value(pt, "rows"));
}

static int transpose_measure(const struct wl_point *pt, void *state,
			     const struct wl_variant_def *v, struct wl_measurement *res,
			     struct wl_error *err)
{
	struct transpose_state *s = state;
	const struct wl_arg_buffer buffers[] = { { .name = "odata", .mem = &s->odata }, { .name = "idata", .mem = &s->idata } };
	size_t bytes = s->n * s->n * sizeof(float);
	struct wl_launch l = { 0 };
	char options[96];
	int rc = -1;

	transpose_options(pt, options, sizeof(options));
	/* tile x rows work-items per group; the tiled kernels loop over the tile's
	 * rows, the seed's naive kernel handles one element per work-item: the
	 * catalog's host.global says which. */
	if (wl_point_prepare(pt, v, options, buffers, 2, &l, err) < 0)
		return -1;
	rc = wl_point_run(pt, &l, &s->odata, bytes, (const void **)&s->output, res, err);
	if (rc > 0) {
		struct wl_exact_check job = { .got = s->output, .n = s->n * s->n, .row_len = s->n };

		if (wl_launch_decl_output_is(&v->host, "copied")) {
			job.want = copied_expected;
			job.ctx = s;
		} else {
			job.array = s->expected;
		}
		wl_point_verify(pt, &job, res);
	}
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

static const char *const transpose_buffers[] = { "odata", "idata", NULL };
static const char *const transpose_outputs[] = { "transposed", "copied", NULL };

const struct wl_experiment_ops wl_exp_transpose = {
	.id = "transpose",
	.buffers = transpose_buffers,
	.outputs = transpose_outputs,
	.setup = transpose_setup,
	.measure = transpose_measure,
	.teardown = transpose_teardown,
	.options = transpose_options,
};
