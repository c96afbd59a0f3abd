/* The reference of the myadd experiment (kernels/myadd.cl, seed 000): C's
 * even rows (or, for a variant whose host.output is "columns", even
 * columns) hold A + A and the odd ones A - A, compared bit for bit, each
 * expected element formed from A's values where it is compared. In
 * double, or in float where the device has no fp64 (the experiment's
 * "fp64"): a + a and a - a are exact either way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "references.h"

struct myadd_ref {
	const struct wl_ref_buffer *a;
	size_t n;
	int fp64;
	double *values;		/* A as the device holds it: its generator's work done once */
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

static int myadd_prepare(const struct wl_ref_point *in, void **ctx, struct wl_error *err)
{
	struct myadd_ref *m = calloc(1, sizeof(*m));
	const struct wl_elem_type *out;

	if (!m) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (!(m->a = wl_ref_input(in, 0, "myadd", err))) {
		free(m);
		return -1;
	}
	out = &in->output->def->type;
	m->n = (size_t)wl_point_value(in->pt, "n");
	m->fp64 = out->base == WL_ELEM_DOUBLE;
	if (out->lanes != 1 || out->base != m->a->def->type.base || m->a->count != m->n * m->n ||
	    in->output->count != m->n * m->n) {
		wl_error_set(err, WL_ERR_CONFIG, "reference 'myadd': A and C must be n x n of one type (n = %zu)", m->n);
		free(m);
		return -1;
	}
	if (!(m->values = malloc(m->n * m->n * sizeof(double)))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory for a %zu x %zu matrix", m->n, m->n);
		free(m);
		return -1;
	}
	{
		const struct wl_lane_gen gen = wl_lane_gen(m->a->def, &m->a->at);
		const size_t count = m->n * m->n;
		const int fp64 = m->fp64;
		double *values = m->values;

		#pragma omp parallel for schedule(static) if (count > 65536)
		for (size_t k = 0; k < count; k++) {
			double v = wl_lane_at(gen, k);

			values[k] = fp64 ? v : (double)(float)v;
		}
	}
	*ctx = m;
	return 0;
}

static void myadd_release(void *ctx)
{
	struct myadd_ref *m = ctx;

	if (m)
		free(m->values);
	free(m);
}

/* Element [i][j] of the result, as the output holds it, into want. */
static void expected(const struct myadd_ref *m, size_t i, size_t j, int by_column, void *want)
{
	double v = m->values[i * m->n + j];
	int twice = (by_column ? j : i) % 2 == 0;

	if (m->fp64) {
		double a = v, r = twice ? a + a : a - a;

		memcpy(want, &r, sizeof(r));
	} else {
		float a = (float)v, r = twice ? a + a : a - a;

		memcpy(want, &r, sizeof(r));
	}
}

static double as_double(const struct myadd_ref *m, const void *p)
{
	double d;
	float f;

	if (m->fp64) {
		memcpy(&d, p, sizeof(d));
		return d;
	}
	memcpy(&f, p, sizeof(f));
	return f;
}

static void myadd_check(void *ctx, const struct wl_point *pt, const struct wl_variant_def *v, const void *got,
			struct wl_measurement *res)
{
	const struct myadd_ref *m = ctx;
	size_t count = m->n * m->n, elem = m->fp64 ? sizeof(double) : sizeof(float), bad = 0, first = count;
	int by_column = wl_launch_decl_output_is(&v->host, "columns");
	unsigned char want[sizeof(double)];

	(void)pt;
	/* Row by row: no division an element (the type's branch goes the same
	 * way for every one). */
	#pragma omp parallel for reduction(+ : bad) reduction(min : first) schedule(static) if (m->n > 256)
	for (size_t i = 0; i < m->n; i++) {
		const double *a = m->values + i * m->n;

		for (size_t j = 0; j < m->n; j++) {
			int twice = (by_column ? j : i) % 2 == 0, differs;

			if (m->fp64) {
				double r = twice ? a[j] + a[j] : a[j] - a[j];

				differs = memcmp((const double *)got + i * m->n + j, &r, sizeof(r)) != 0;
			} else {
				float x = (float)a[j], r = twice ? x + x : x - x;

				differs = memcmp((const float *)got + i * m->n + j, &r, sizeof(r)) != 0;
			}
			if (differs) {
				bad++;
				first = i * m->n + j < first ? i * m->n + j : first;
			}
		}
	}
	res->verified = bad == 0;
	if (!bad)
		return;
	expected(m, first / m->n, first % m->n, by_column, want);
	snprintf(res->error, sizeof(res->error),
		 "verification failed: %zu of %zu elements differ; first at [%zu][%zu]: got %.17g, expected %.17g", bad,
		 count, first / m->n, first % m->n, as_double(m, (const char *)got + first * elem), as_double(m, want));
}

static const char *const myadd_outputs[] = { "rows", "columns", NULL };

/* What prepare reads of its point. */
static const char *const myadd_reads[] = { "n", NULL };

const struct wl_reference wl_ref_myadd = {
	.name = "myadd",
	.outputs = myadd_outputs,
	.prepare = myadd_prepare,
	.check = myadd_check,
	.release = myadd_release,
	.reads = myadd_reads,
};
