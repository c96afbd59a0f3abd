/* The references the catalog's experiments name ("check": {"reference":
 * "transpose"}, catalog/exp_data.h): what a variant's output must hold,
 * computed on the host's cores from the inputs' generators, so an input
 * never has to be read back and a 4 GiB one never exists on the host. The
 * experiment's buffers, inputs and launch are data (exp_declared.c makes
 * them); a reference is the part that needs code: a transpose, a sum, a
 * min-plus product, MyAdd in double. One output each: the buffer declared
 * "output". */
#ifndef WL_REFERENCES_H
#define WL_REFERENCES_H

#include <stddef.h>

#include "declared_fill.h"
#include "experiment.h"

/* A buffer as a reference sees it: its declaration (its type the one the
 * device holds), elements, and how its values are made (an addressable
 * input's lanes are wl_declared_value_at(def, &at, i)). */
struct wl_ref_buffer {
	const struct wl_buffer_def *def;
	size_t count;
	struct wl_fill_at at;
};

/* What a reference is prepared with at a point. */
struct wl_ref_point {
	const struct wl_point *pt;
	const struct wl_ref_buffer *bufs;
	size_t nbufs;
	const struct wl_ref_buffer *output;	/* the one the variants write */
};

struct wl_reference {
	const char *name;
	/* The host.output kinds the variants may declare to say which result
	 * they write (NULL-terminated; NULL: none is declared). */
	const char *const *outputs;
	/* Prepare the point's reference into *ctx (a host job may go on making
	 * it); in->bufs and in->pt stay valid until release, in itself does
	 * not. -1 with err stops the run; nothing is left. */
	int (*prepare)(const struct wl_ref_point *in, void **ctx, struct wl_error *err);
	/* How much of the output variant v's launch l writes, in bytes, to be
	 * poisoned and read back (NULL: all of it); a launch the reference
	 * cannot check is -1 with err (the run stops), a note for the reader
	 * goes in res->note. */
	int (*extent)(void *ctx, const struct wl_variant_def *v, const struct wl_launch *l, size_t *bytes,
		      struct wl_measurement *res, struct wl_error *err);
	/* Check got (the output read back, valid until the executor waits for
	 * the point's checks) for variant v: res->verified and res->error, in
	 * the background where pt has a checker. */
	void (*check)(void *ctx, const struct wl_point *pt, const struct wl_variant_def *v, const void *got,
		      struct wl_measurement *res);
	/* Free ctx (after every check has been waited for); NULL ctx is fine. */
	void (*release)(void *ctx);
	/* The params prepare reads of its point (NULL-terminated), beside the
	 * buffers it is given and the point's seed: a reference made at one
	 * point serves another that agrees on them. NULL: it may read any. */
	const char *const *reads;
};

/* Whether the reference r made at point a serves point b: they agree on
 * every param r reads (on every param where r does not say). */
int wl_reference_serves(const struct wl_reference *r, const struct wl_point *a, const struct wl_point *b);

/* The reference called name, or NULL. */
const struct wl_reference *wl_reference_find(const char *name);

/* The names of every reference, "copy, gather, ..." into out (len bytes). */
void wl_reference_names(char *out, size_t len);

/* The k-th input of floating-point elements (from 0, in the order the
 * experiment declares its buffers), which must be addressable
 * (wl_declared_addressable); NULL with err naming the reference where there
 * is none such. */
const struct wl_ref_buffer *wl_ref_input(const struct wl_ref_point *in, size_t k, const char *reference,
					 struct wl_error *err);

/* 0 where in's first input and its output hold float, else -1 with err
 * naming the reference (whose comparisons are of floats). */
int wl_ref_floats(const struct wl_ref_point *in, const char *reference, struct wl_error *err);

/* The CPU references the unit tests check on their own. */

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
