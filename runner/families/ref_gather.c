/* The references of the data-movement experiments that read one input
 * element for each output element: "copy" (out[i] = in[i], kernels/copy.cl
 * in 1-, 2- and 4-wide elements) and "gather" (out[i] = in[i * stride +
 * offset], kernels/strided.cl and offset.cl; stride and offset the point's
 * params of those names, 1 and 0 where it has none). Compared bit for bit:
 * data movement must not change a value. Each expected element is
 * evaluated from its index where it is compared, so neither input nor
 * reference is held on the host. */
#include <stdlib.h>

#include "references.h"

struct gather_ref {
	const struct wl_ref_buffer *input;
	struct wl_lane_gen gen;		/* the input's values */
	size_t n, stride, offset;
};

static float gather_expected(const void *ctx, size_t i)
{
	const struct gather_ref *g = ctx;

	return (float)wl_lane_at(g->gen, wl_gather_source(i, g->stride, g->offset));
}

/* A param of pt's, or fallback where its experiment has none. */
static size_t param_or(const struct wl_point *pt, const char *name, size_t fallback)
{
	return wl_experiment_param(pt->exp, name) >= 0 ? (size_t)wl_point_value(pt, name) : fallback;
}

static int prepare(const struct wl_ref_point *in, int gather, void **ctx, struct wl_error *err)
{
	struct gather_ref *g = calloc(1, sizeof(*g));

	if (!g) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (!(g->input = wl_ref_input(in, 0, gather ? "gather" : "copy", err)) ||
	    wl_ref_floats(in, gather ? "gather" : "copy", err) < 0) {
		free(g);
		return -1;
	}
	g->gen = wl_lane_gen(g->input->def, &g->input->at);
	g->n = in->output->count * (size_t)in->output->def->type.lanes;
	g->stride = gather ? param_or(in->pt, "stride", 1) : 1;
	g->offset = gather ? param_or(in->pt, "offset", 0) : 0;
	*ctx = g;
	return 0;
}

static int copy_prepare(const struct wl_ref_point *in, void **ctx, struct wl_error *err)
{
	return prepare(in, 0, ctx, err);
}

static int gather_prepare(const struct wl_ref_point *in, void **ctx, struct wl_error *err)
{
	return prepare(in, 1, ctx, err);
}

static void gather_check(void *ctx, const struct wl_point *pt, const struct wl_variant_def *v, const void *got,
			 struct wl_measurement *res)
{
	const struct gather_ref *g = ctx;

	(void)v;
	wl_point_verify(pt, &(struct wl_exact_check){ .got = got, .want = gather_expected, .ctx = g, .n = g->n }, res);
}

/* What prepare reads of its point: the copy nothing, the gather its
 * pattern. */
static const char *const copy_reads[] = { NULL };
static const char *const gather_reads[] = { "stride", "offset", NULL };

const struct wl_reference wl_ref_copy = {
	.name = "copy",
	.prepare = copy_prepare,
	.check = gather_check,
	.release = free,
	.reads = copy_reads,
};

const struct wl_reference wl_ref_gather = {
	.name = "gather",
	.prepare = gather_prepare,
	.check = gather_check,
	.release = free,
	.reads = gather_reads,
};
