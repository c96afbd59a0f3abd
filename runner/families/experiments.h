/* The experiment families the runner implements, and the CPU references the
 * unit tests check on their own. */
#ifndef WL_EXPERIMENTS_H
#define WL_EXPERIMENTS_H

#include <stddef.h>

#include "experiment.h"

extern const struct wl_experiment_ops wl_exp_copy;
extern const struct wl_experiment_ops wl_exp_transpose;
extern const struct wl_experiment_ops wl_exp_strided;
extern const struct wl_experiment_ops wl_exp_offset;
extern const struct wl_experiment_ops wl_exp_reduction;
extern const struct wl_experiment_ops wl_exp_dot;
extern const struct wl_experiment_ops wl_exp_myadd;
extern const struct wl_experiment_ops wl_exp_minplus;
extern const struct wl_experiment_ops wl_exp_banks;
extern const struct wl_experiment_ops wl_exp_test_spin;
/* Every experiment declared as data (exp_data.h): a request's own. */
extern const struct wl_experiment_ops wl_exp_declared;

/* The references of the data-movement experiments, as the input element each
 * output element must hold: the CPU compares output element o with input
 * element source(o), computed where it is compared (the inputs are a
 * counter-based sequence, wl_rng_float_at), so neither input nor reference is
 * ever held in host memory. */

/* Of the transpose of an n x n row-major matrix: out[x][y] = in[y][x]. */
static inline size_t wl_transpose_source(size_t o, size_t n)
{
	return (o % n) * n + o / n;
}

/* Of a gather: out[i] = in[i * stride + offset] (strided: offset 0; offset:
 * stride 1). */
static inline size_t wl_gather_source(size_t i, size_t stride, size_t offset)
{
	return i * stride + offset;
}

/* The sum of v[0..n) and the dot product of a and b, in double. */
double wl_sum_reference(const float *v, size_t n);
double wl_dot_reference(const float *a, const float *b, size_t n);

/* Seed 000's result for the N x N matrix a: a + a in even rows (by_column: even
 * columns), a - a in odd ones. */
void wl_myadd_reference(const double *a, double *out, size_t n, int by_column);

/* One entry of the min-plus product of the n x n matrix d: min over k of
 * d[i][k] + d[k][j], in float. */
void wl_minplus_reference_entry(const float *d, size_t n, size_t i, size_t j, float *out);

/* The sum each work-item of a banks variant forms (the same in every group):
 * want[lid] for lid < local. pattern is the variant's host.output: "stride",
 * "broadcast", "struct" or "soa". */
void wl_banks_reference(const char *pattern, size_t c, size_t local, size_t iters, float *want);

#endif
