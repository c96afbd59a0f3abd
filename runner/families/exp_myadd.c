/* Host side of the myadd experiment (kernels/myadd.cl, seed 000): an N x N
 * matrix A of random nonzero values, each variant writing C with even rows (or,
 * for the _col variants, even columns) 2A and odd ones A - A = 0, compared bit
 * for bit. In double where the device has fp64, else in float with a note and
 * half the bytes. Bytes: A read and C written once ("16*n*n" in double). The
 * work-group size is left to the driver, as in the seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "rng.h"

struct myadd_state {
	size_t n, elem;
	int fp64;
	void *a, *expected_rows, *expected_cols;
	const void *output;	/* the last read-back, in the device's staging memory */
	struct wl_buf da, db, dc;
};

void wl_myadd_reference(const double *a, double *out, size_t n, int by_column)
{
#pragma omp parallel for schedule(static) if (n > 256)
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			size_t k = i * n + j;

			out[k] = (by_column ? j : i) % 2 == 0 ? a[k] + a[k] : a[k] - a[k];
		}
}

static void myadd_teardown(void *state)
{
	struct myadd_state *s = state;

	if (!s)
		return;
	wl_buf_release(&s->da);
	wl_buf_release(&s->db);
	wl_buf_release(&s->dc);
	free(s->a);
	free(s->expected_rows);
	free(s->expected_cols);
	free(s);
}

/* Element i of buffer p, as a double whatever the element size. */
static double get(const struct myadd_state *s, const void *p, size_t i)
{
	return s->fp64 ? ((const double *)p)[i] : ((const float *)p)[i];
}

static void set(const struct myadd_state *s, void *p, size_t i, double v)
{
	if (s->fp64)
		((double *)p)[i] = v;
	else
		((float *)p)[i] = (float)v;
}

static int myadd_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct myadd_state *s = calloc(1, sizeof(*s));
	struct wl_rng rng;
	size_t count, bytes;
	double *values = NULL, *result = NULL;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->n = (size_t)wl_point_value(pt, "n");
	s->fp64 = pt->dev->fp64;
	s->elem = s->fp64 ? sizeof(double) : sizeof(float);
	count = s->n * s->n;
	bytes = count * s->elem;
	s->a = malloc(bytes);
	s->expected_rows = malloc(bytes);
	s->expected_cols = malloc(bytes);
	values = malloc(count * sizeof(double));
	if (!s->a || !s->expected_rows || !s->expected_cols || !values) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory for a %zu x %zu matrix", s->n, s->n);
		goto fail;
	}
	wl_rng_seed(&rng, pt->seed);
	wl_rng_fill_double(&rng, values, count);
	/* In float, the inputs are first rounded to float: a + a and a - a are
	 * exact either way, so the reference in double converts exactly. */
#pragma omp parallel for schedule(static) if (count > 65536)
	for (size_t k = 0; k < count; k++) {
		set(s, s->a, k, values[k]);
		values[k] = get(s, s->a, k);
	}
	if (!(result = malloc(count * sizeof(double)))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory");
		goto fail;
	}
	wl_myadd_reference(values, result, s->n, 0);
#pragma omp parallel for schedule(static) if (count > 65536)
	for (size_t k = 0; k < count; k++)
		set(s, s->expected_rows, k, result[k]);
	wl_myadd_reference(values, result, s->n, 1);
#pragma omp parallel for schedule(static) if (count > 65536)
	for (size_t k = 0; k < count; k++)
		set(s, s->expected_cols, k, result[k]);
	free(values);
	free(result);
	values = result = NULL;
	/* B is in the seed's signature but never read: allocated, not filled. */
	if (wl_point_buffer(pt, WL_BUF_IN, bytes, s->a, &s->da, err) < 0 ||
	    wl_point_buffer(pt, WL_BUF_IN, bytes, NULL, &s->db, err) < 0 ||
	    wl_point_buffer(pt, WL_BUF_OUT, bytes, NULL, &s->dc, err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	free(values);
	free(result);
	myadd_teardown(s);
	return -1;
}


/* In double where the device has fp64. */
static void myadd_options(const struct wl_point *pt, char *out, size_t len)
{
	snprintf(out, len, "%s", pt->dev->fp64 ? "-D WL_FP64" : "");
}
static int myadd_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			 struct wl_measurement *res, struct wl_error *err)
{
	struct myadd_state *s = state;
	size_t count = s->n * s->n, bytes = count * s->elem, bad = 0, first = 0;
	const struct wl_arg_buffer buffers[] = { { .name = "A", .mem = &s->da }, { .name = "B", .mem = &s->db }, { .name = "C", .mem = &s->dc } };
	const void *want = wl_launch_decl_output_is(&v->host, "columns") ? s->expected_cols :
									     s->expected_rows;
	struct wl_launch l = { 0 };
	char options[32];
	int rc = -1;

	/* 1-D kernels take N work-items, 2-D ones N x N (host.global); the driver
	 * chooses the work-group, as in the seed. */
	myadd_options(pt, options, sizeof(options));
	if (wl_point_prepare(pt, v, options, buffers, 3, &l, err) < 0)
		return -1;
	if (!s->fp64) {
		snprintf(res->note, sizeof(res->note), "ran in float: %s has no fp64", pt->dev->id);
		res->bytes = 2.0 * (double)bytes;
	}
	rc = wl_point_run(pt, &l, &s->dc, bytes, &s->output, res, err);
	if (rc <= 0)
		goto out;
	first = count;
#pragma omp parallel for reduction(+ : bad) reduction(min : first) schedule(static) if (count > 65536)
	for (size_t k = 0; k < count; k++) {
		if (memcmp((const char *)s->output + k * s->elem, (const char *)want + k * s->elem,
			   s->elem) != 0) {
			bad++;
			first = k < first ? k : first;
		}
	}
	res->verified = bad == 0;
	if (bad)
		snprintf(res->error, sizeof(res->error),
			 "verification failed: %zu of %zu elements differ; first at [%zu][%zu]: got %.17g, expected %.17g",
			 bad, count, first / s->n, first % s->n, get(s, s->output, first),
			 get(s, want, first));
out:
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

static const char *const myadd_buffers[] = { "A", "B", "C", NULL };
static const char *const myadd_outputs[] = { "rows", "columns", NULL };

const struct wl_experiment_ops wl_exp_myadd = {
	.id = "myadd",
	.buffers = myadd_buffers,
	.outputs = myadd_outputs,
	.setup = myadd_setup,
	.measure = myadd_measure,
	.teardown = myadd_teardown,
	.options = myadd_options,
};
