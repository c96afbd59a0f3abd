/* The reference of the minplus experiment (kernels/minplus.cl, seed 002):
 * r[i][j] = min over k of d[i][k] + d[k][j] for a random n x n matrix d.
 * The CPU's product costs n^3: it is computed in full up to n =
 * MINPLUS_FULL_CHECK and for MINPLUS_SAMPLES random entries above, in float
 * like the kernels (x + y and min are exact operations, so the results agree
 * bit for bit); every entry must have been written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "references.h"
#include "rng.h"

#define MINPLUS_FULL_CHECK 512
#define MINPLUS_SAMPLES 16384

struct minplus_ref {
	size_t n, nchecks;
	size_t *check_at;	/* flat indexes checked against the CPU */
	float *check_want;
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

static void minplus_release(void *ctx)
{
	struct minplus_ref *m = ctx;

	if (m) {
		free(m->check_at);
		free(m->check_want);
	}
	free(m);
}

static int minplus_prepare(const struct wl_ref_point *in, void **ctx, struct wl_error *err)
{
	struct minplus_ref *m = calloc(1, sizeof(*m));
	const struct wl_ref_buffer *input;
	float *d = NULL;
	struct wl_rng rng;
	size_t count;

	if (!m) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (!(input = wl_ref_input(in, 0, "minplus", err)) || wl_ref_floats(in, "minplus", err) < 0)
		goto fail;
	m->n = (size_t)wl_point_value(in->pt, "n");
	count = m->n * m->n;
	if (input->count != count || in->output->count != count) {
		wl_error_set(err, WL_ERR_CONFIG, "reference 'minplus': d and r must be n x n (n = %zu)", m->n);
		goto fail;
	}
	m->nchecks = m->n <= MINPLUS_FULL_CHECK ? count : MINPLUS_SAMPLES;
	d = malloc(count * sizeof(float));
	m->check_at = malloc(m->nchecks * sizeof(size_t));
	m->check_want = malloc(m->nchecks * sizeof(float));
	if (!d || !m->check_at || !m->check_want) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory for a %zu x %zu matrix", m->n, m->n);
		goto fail;
	}
	{
		const struct wl_lane_gen gen = wl_lane_gen(input->def, &input->at);

		#pragma omp parallel for schedule(static) if (m->n > 256)
		for (size_t r = 0; r < m->n; r++)
			wl_lanes_float(gen, r * m->n, 1, m->n, d + r * m->n);
	}
	/* The entries sampled: from a stream of the point's seed of their own. */
	wl_rng_seed(&rng, wl_rng_derive(in->pt->seed, 0x6d696e));
	for (size_t c = 0; c < m->nchecks; c++)
		m->check_at[c] = m->nchecks == count ? c : (size_t)(wl_rng_next(&rng) % count);
	/* Each entry reads a row and a column of d: on every core. */
	#pragma omp parallel for schedule(dynamic, 64)
	for (size_t c = 0; c < m->nchecks; c++)
		wl_minplus_reference_entry(d, m->n, m->check_at[c] / m->n, m->check_at[c] % m->n, &m->check_want[c]);
	free(d);
	*ctx = m;
	return 0;
fail:
	free(d);
	minplus_release(m);
	return -1;
}

static void minplus_check(void *ctx, const struct wl_point *pt, const struct wl_variant_def *v, const void *got,
			  struct wl_measurement *res)
{
	const struct minplus_ref *m = ctx;
	const float *output = got;
	size_t count = m->n * m->n, unwritten = 0, bad = 0, first = 0;
	const uint32_t poison = 0xFFFFFFFFu;

	(void)pt;
	(void)v;
	for (size_t k = 0; k < count; k++)
		unwritten += memcmp(&output[k], &poison, sizeof(poison)) == 0;
	for (size_t c = 0; c < m->nchecks; c++) {
		size_t k = m->check_at[c];

		if (memcmp(&output[k], &m->check_want[c], sizeof(float)) != 0 && bad++ == 0)
			first = c;
	}
	if (unwritten) {
		snprintf(res->error, sizeof(res->error), "verification failed: %zu of %zu entries were never written",
			 unwritten, count);
	} else if (bad) {
		size_t k = m->check_at[first];

		snprintf(res->error, sizeof(res->error),
			 "verification failed: %zu of %zu checked entries differ; first r[%zu][%zu] = %.9g, expected %.9g",
			 bad, m->nchecks, k / m->n, k % m->n, (double)output[k], (double)m->check_want[first]);
	} else if (m->nchecks < count) {
		snprintf(res->note, sizeof(res->note), "checked %zu random entries of %zu against the CPU, all written",
			 m->nchecks, count);
	}
	res->verified = !unwritten && !bad;
}

/* What prepare reads of its point. */
static const char *const minplus_reads[] = { "n", NULL };

const struct wl_reference wl_ref_minplus = {
	.name = "minplus",
	.prepare = minplus_prepare,
	.check = minplus_check,
	.release = minplus_release,
	.reads = minplus_reads,
};
