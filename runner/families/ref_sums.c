/* The references of the experiments that sum: "sum" (kernels/reduction.cl,
 * one partial sum a work-group) and "dot" (kernels/dot.cl, seed 004: one
 * partial a work-item, or a work-group where the variant's host.output is
 * "per_group"). The inputs are small nonzero integers as floats
 * ("nonzero_int:8"): the device's partials added on the host in double must
 * equal the CPU's sum exactly (WL_SUM_TOLERANCE). The CPU's sum is formed
 * from the generators on a thread of its own while the device fills the
 * inputs and times the first variant; the partials are not timed. */
#include <stdio.h>
#include <stdlib.h>

#include "host_job.h"
#include "references.h"

struct sums_ref {
	const struct wl_ref_buffer *a, *b;	/* b: NULL for a sum */
	size_t n, room;				/* lanes summed; partials the output holds */
	size_t count;				/* partials the variant being measured writes */
	struct wl_host_job summing;		/* want being computed: wait before reading it */
	double want;
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

/* The sum or the dot product, each element from its index. */
static void make_want(void *ctx)
{
	struct sums_ref *s = ctx;
	const struct wl_lane_gen b = s->b ? wl_lane_gen(s->b->def, &s->b->at) : (struct wl_lane_gen){ 0 };

	s->want = wl_lanes_sum(wl_lane_gen(s->a->def, &s->a->at), s->b ? &b : NULL, s->n);
}

static void sums_release(void *ctx)
{
	struct sums_ref *s = ctx;

	if (s)
		wl_host_job_wait(&s->summing);
	free(s);
}

static int prepare(const struct wl_ref_point *in, int dot, void **ctx, struct wl_error *err)
{
	const char *name = dot ? "dot" : "sum";
	struct sums_ref *s = calloc(1, sizeof(*s));

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (!(s->a = wl_ref_input(in, 0, name, err)) || (dot && !(s->b = wl_ref_input(in, 1, name, err))) ||
	    wl_ref_floats(in, name, err) < 0) {
		free(s);
		return -1;
	}
	s->n = s->a->count * (size_t)s->a->def->type.lanes;
	if (s->b && s->b->count != s->a->count) {
		wl_error_set(err, WL_ERR_CONFIG, "reference 'dot': '%s' and '%s' must be of one length",
			     s->a->def->name, s->b->def->name);
		free(s);
		return -1;
	}
	s->room = in->output->count;
	wl_host_job_start(&s->summing, make_want, s);
	*ctx = s;
	return 0;
}

static int sum_prepare(const struct wl_ref_point *in, void **ctx, struct wl_error *err)
{
	return prepare(in, 0, ctx, err);
}

static int dot_prepare(const struct wl_ref_point *in, void **ctx, struct wl_error *err)
{
	return prepare(in, 1, ctx, err);
}

/* How many partials the 1-D launch l writes: one a work-group (a
 * reduction's, or a dot's "per_group"), else one a work-item. */
static size_t partials(const struct wl_launch *l, int per_group)
{
	if (!per_group)
		return l->global[0];
	return l->local[0] ? l->global[0] / l->local[0] : 0;
}

static int sum_extent(void *ctx, const struct wl_variant_def *v, const struct wl_launch *l, size_t *bytes,
		      struct wl_measurement *res, struct wl_error *err)
{
	struct sums_ref *s = ctx;
	size_t groups = partials(l, 1);

	if (groups == 0 || groups > s->room) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "variant '%s': its declared launch makes %zu work-groups; a reduction writes 1 to %zu partial sums",
			     v->id, groups, s->room);
		return -1;
	}
	/* A persistent grid's size is the device's: said where it is read. */
	if (v->host.has_fill)
		snprintf(res->note, sizeof(res->note), "%zu work-groups of %zu", groups, l->local[0]);
	*bytes = groups * sizeof(float);
	s->count = groups;
	return 0;
}

/* A dot's variants poison and read every slot; one per work-group fills the
 * first items / local of them. */
static int dot_extent(void *ctx, const struct wl_variant_def *v, const struct wl_launch *l, size_t *bytes,
		      struct wl_measurement *res, struct wl_error *err)
{
	struct sums_ref *s = ctx;
	size_t written = partials(l, wl_launch_decl_output_is(&v->host, "per_group"));

	(void)res;
	if (written == 0 || written > s->room) {
		wl_error_set(err, WL_ERR_CONFIG, "variant '%s': its declared launch writes %zu partials; room for 1 to %zu",
			     v->id, written, s->room);
		return -1;
	}
	*bytes = s->room * sizeof(float);
	s->count = written;
	return 0;
}

/* The partials the extent counted, added in double against the CPU's. */
static void sums_check(void *ctx, const struct wl_point *pt, const struct wl_variant_def *v, const void *got,
		       struct wl_measurement *res)
{
	struct sums_ref *s = ctx;

	(void)pt;
	(void)v;
	wl_host_job_wait(&s->summing);
	res->verified = wl_verify_partial_sums(got, s->count, s->want, res);
}

static const char *const sum_outputs[] = { "per_group", NULL };
static const char *const dot_outputs[] = { "per_item", "per_group", NULL };

/* What prepare reads of its point: nothing but its buffers. */
static const char *const sums_reads[] = { NULL };

const struct wl_reference wl_ref_sum = {
	.name = "sum",
	.outputs = sum_outputs,
	.prepare = sum_prepare,
	.extent = sum_extent,
	.check = sums_check,
	.release = sums_release,
	.reads = sums_reads,
};

const struct wl_reference wl_ref_dot = {
	.name = "dot",
	.outputs = dot_outputs,
	.prepare = dot_prepare,
	.extent = dot_extent,
	.check = sums_check,
	.release = sums_release,
	.reads = sums_reads,
};
