/* Host side of the minplus experiment (kernels/minplus.cl, seed 002): a random
 * n x n matrix d, each variant computing r[i][j] = min_k d[i][k] + d[k][j]. The
 * CPU reference costs n^3: it is computed in full up to n = MINPLUS_FULL_CHECK and
 * for MINPLUS_SAMPLES random entries above, in float like the kernels (x + y and
 * min are exact operations, so the results agree bit for bit); every entry must
 * have been written. Operations: an add and a min per k ("2*n*n*n"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "rng.h"

#define MINPLUS_FULL_CHECK 512
#define MINPLUS_SAMPLES 16384

struct minplus_state {
	size_t n, nchecks;
	float *d, *t;
	const float *output;	/* the last read-back, in the device's staging memory */
	size_t *check_at;	/* flat indexes checked against the reference */
	float *check_want;
	struct wl_buf dd, dt, dr;
};

void wl_minplus_reference_entry(const float *d, size_t n, size_t i, size_t j, float *out)
{
	float v = INFINITY;

	for (size_t k = 0; k < n; k++) {
		float z = d[n * i + k] + d[n * k + j];

		v = z < v ? z : v;
	}
	*out = v;
}

static void minplus_teardown(void *state)
{
	struct minplus_state *s = state;

	if (!s)
		return;
	wl_buf_release(&s->dd);
	wl_buf_release(&s->dt);
	wl_buf_release(&s->dr);
	free(s->d);
	free(s->t);
	free(s->check_at);
	free(s->check_want);
	free(s);
}

static int minplus_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct minplus_state *s = calloc(1, sizeof(*s));
	struct wl_rng rng;
	size_t count;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->n = (size_t)wl_point_value(pt, "n");
	count = s->n * s->n;
	s->nchecks = s->n <= MINPLUS_FULL_CHECK ? count : MINPLUS_SAMPLES;
	s->d = malloc(count * sizeof(float));
	s->t = malloc(count * sizeof(float));
	s->check_at = malloc(s->nchecks * sizeof(size_t));
	s->check_want = malloc(s->nchecks * sizeof(float));
	if (!s->d || !s->t || !s->check_at || !s->check_want) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory for a %zu x %zu matrix", s->n, s->n);
		goto fail;
	}
	wl_rng_seed(&rng, pt->seed);
	wl_rng_fill_float(&rng, s->d, count);
#pragma omp parallel for schedule(static) if (count > 65536)
	for (size_t o = 0; o < count; o++)
		s->t[o] = s->d[wl_transpose_source(o, s->n)];
	for (size_t c = 0; c < s->nchecks; c++)
		s->check_at[c] = s->nchecks == count ? c : (size_t)(wl_rng_next(&rng) % count);
	/* Each entry reads a row and a column of d: on every core. */
#pragma omp parallel for schedule(dynamic, 64)
	for (size_t c = 0; c < s->nchecks; c++)
		wl_minplus_reference_entry(s->d, s->n, s->check_at[c] / s->n, s->check_at[c] % s->n,
					   &s->check_want[c]);
	if (wl_point_buffer(pt, WL_BUF_IN, count * sizeof(float), s->d, &s->dd, err) < 0 ||
	    wl_point_buffer(pt, WL_BUF_OUT, count * sizeof(float), NULL, &s->dr, err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	minplus_teardown(s);
	return -1;
}

static void minplus_verify(const struct minplus_state *s, struct wl_measurement *res)
{
	size_t count = s->n * s->n, unwritten = 0, bad = 0, first = 0;
	const uint32_t poison = 0xFFFFFFFFu;

	for (size_t k = 0; k < count; k++)
		unwritten += memcmp(&s->output[k], &poison, sizeof(poison)) == 0;
	for (size_t c = 0; c < s->nchecks; c++) {
		size_t k = s->check_at[c];

		if (memcmp(&s->output[k], &s->check_want[c], sizeof(float)) != 0 && bad++ == 0)
			first = c;
	}
	if (unwritten) {
		snprintf(res->error, sizeof(res->error),
			 "verification failed: %zu of %zu entries were never written", unwritten, count);
	} else if (bad) {
		size_t k = s->check_at[first];

		snprintf(res->error, sizeof(res->error),
			 "verification failed: %zu of %zu checked entries differ; first r[%zu][%zu] = %.9g, expected %.9g",
			 bad, s->nchecks, k / s->n, k % s->n, (double)s->output[k],
			 (double)s->check_want[first]);
	} else if (s->nchecks < count) {
		snprintf(res->note, sizeof(res->note),
			 "checked %zu random entries of %zu against the CPU, all written", s->nchecks, count);
	}
	res->verified = !unwritten && !bad;
}

static int minplus_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			   struct wl_measurement *res, struct wl_error *err)
{
	struct minplus_state *s = state;
	const struct wl_arg_buffer buffers[] = { { .name = "r", .mem = &s->dr }, { .name = "d", .mem = &s->dd }, { .name = "t", .mem = &s->dt } };
	size_t count = s->n * s->n;
	struct wl_launch l = { 0 };
	int rc = -1;

	/* The transposed copy is made (untimed) only for a variant that reads it. */
	if (wl_launch_decl_reads(&v->host, "t") && !wl_buf_made(&s->dt) &&
	    wl_point_buffer(pt, WL_BUF_IN, count * sizeof(float), s->t, &s->dt, err) < 0)
		return -1;
	if (wl_point_prepare(pt, v, "", buffers, 3, &l, err) < 0)
		return -1;
	rc = wl_point_run(pt, &l, &s->dr, count * sizeof(float), (const void **)&s->output, res, err);
	if (rc > 0)
		minplus_verify(s, res);
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

static const char *const minplus_buffers[] = { "r", "d", "t", NULL };

const struct wl_experiment_ops wl_exp_minplus = {
	.id = "minplus",
	.buffers = minplus_buffers,
	.setup = minplus_setup,
	.measure = minplus_measure,
	.teardown = minplus_teardown,
};
