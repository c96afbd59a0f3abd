/* A declared buffer's first contents (see declared_fill.h). */
#include "declared_fill.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

void wl_declared_store(const struct wl_elem_type *t, void *out, size_t i, double v)
{
	/* Wrapped through 64 bits first: a C cast of an out-of-range double is
	 * undefined, an integer's into a narrower type is not. */
	long long whole = isfinite(v) && fabs(v) < 9.2e18 ? (long long)v : 0;

	switch (t->base) {
	case WL_ELEM_FLOAT: ((float *)out)[i] = (float)v; break;
	case WL_ELEM_DOUBLE: ((double *)out)[i] = v; break;
	case WL_ELEM_CHAR: ((int8_t *)out)[i] = (int8_t)whole; break;
	case WL_ELEM_UCHAR: ((uint8_t *)out)[i] = (uint8_t)whole; break;
	case WL_ELEM_SHORT: ((int16_t *)out)[i] = (int16_t)whole; break;
	case WL_ELEM_USHORT: ((uint16_t *)out)[i] = (uint16_t)whole; break;
	case WL_ELEM_INT: ((int32_t *)out)[i] = (int32_t)whole; break;
	case WL_ELEM_UINT: ((uint32_t *)out)[i] = (uint32_t)whole; break;
	case WL_ELEM_LONG: ((int64_t *)out)[i] = (int64_t)whole; break;
	case WL_ELEM_ULONG: ((uint64_t *)out)[i] = (uint64_t)whole; break;
	}
}

/* A uniform draw in [0, 1) of 53 bits for lane i. */
static double unit(uint64_t seed, size_t i)
{
	return (double)(wl_rng_at(seed, i) >> 11) * 0x1p-53;
}

/* A Fisher-Yates shuffle of 0..count-1 from seed into out. */
static int permutation(const struct wl_buffer_def *b, size_t count, uint64_t seed, void *out)
{
	size_t *order = malloc(count * sizeof(*order));
	struct wl_rng r;

	if (!order)
		return -1;
	for (size_t i = 0; i < count; i++)
		order[i] = i;
	wl_rng_seed(&r, seed);
	for (size_t i = count; i > 1; i--) {
		size_t j = (size_t)(wl_rng_next(&r) % i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < count; i++)
		wl_declared_store(&b->type, out, i, (double)order[i]);
	free(order);
	return 0;
}

/* Row r's nonzeros' columns: spread evenly over a band of columns around
 * the diagonal, the band kept inside the matrix (rows x rows). */
static void csr_columns(const struct wl_buffer_def *b, long long rows, long long per_row, size_t count, void *out)
{
	long long band = b->init.band < rows ? b->init.band : rows;

	#pragma omp parallel for schedule(static)
	for (long long r = 0; r < rows; r++) {
		long long start = r - band / 2;

		if (start < 0)
			start = 0;
		if (start > rows - band)
			start = rows - band;
		for (long long j = 0; j < per_row; j++) {
			size_t at = (size_t)(r * per_row + j);

			if (at < count)
				wl_declared_store(&b->type, out, at, (double)(start + j * band / per_row));
		}
	}
}

int wl_declared_addressable(const struct wl_buffer_def *b)
{
	switch (b->init.kind) {
	case WL_INIT_ZEROS:
	case WL_INIT_INDEX:
	case WL_INIT_CONSTANT:
	case WL_INIT_RANDOM:
	case WL_INIT_RANDOM_INT:
	case WL_INIT_NONZERO_INT:
		return 1;
	default:
		return 0;
	}
}

int wl_declared_device_fill(const struct wl_buffer_def *b)
{
	if (b->output || b->type.base != WL_ELEM_FLOAT)
		return -1;
	if (wl_declared_unit_floats(b))
		return 0;
	return b->init.kind == WL_INIT_NONZERO_INT ? (int)b->init.hi : -1;
}

double wl_declared_value_at(const struct wl_buffer_def *b, const struct wl_fill_at *at, size_t i)
{
	const struct wl_buffer_init *in = &b->init;
	size_t lanes = (size_t)b->type.lanes, slots = lanes == 3 ? 4 : lanes;
	size_t element = i / slots, lane = i % slots;
	long long v = 0;
	const char *why;

	switch (in->kind) {
	case WL_INIT_INDEX:
		/* A vector of 3 fills its fourth lane too (its padding), as index. */
		return (double)(element * lanes + (lane < lanes ? lane : 0));
	case WL_INIT_CONSTANT:
		if (!in->has_expr)
			return in->value;
		/* Checked at every point before queueing (wl_exp_data_check_point). */
		return wl_expr_eval(&in->value_expr, at->values, &v, &why) == 0 ? (double)v : 0;
	case WL_INIT_RANDOM:
		if (wl_declared_unit_floats(b))
			return wl_rng_float_at(at->seed, i);
		return in->lo + (in->hi - in->lo) * unit(at->seed, i);
	case WL_INIT_RANDOM_INT:
		return in->lo + (double)(wl_rng_at(at->seed, i) % (uint64_t)(in->hi - in->lo + 1));
	case WL_INIT_NONZERO_INT:
		return wl_rng_small_int_at(at->seed, i, (int)in->hi);
	default:
		return 0;
	}
}

int wl_declared_fill(const struct wl_buffer_def *b, size_t count, const struct wl_fill_at *at, void *out)
{
	const struct wl_buffer_init *in = &b->init;
	size_t slots = b->type.lanes == 3 ? 4 : (size_t)b->type.lanes, n = count * slots;

	switch (in->kind) {
	case WL_INIT_NONE:
	case WL_INIT_ZEROS:
		memset(out, 0, count * b->type.bytes);
		return 0;
	case WL_INIT_PERMUTATION:
		return permutation(b, count, at->seed, out);
	case WL_INIT_CSR_COLS:
		memset(out, 0, count * b->type.bytes);
		csr_columns(b, at->rows, at->per_row, count, out);
		return 0;
	case WL_INIT_CSR_ROWS:
		#pragma omp parallel for schedule(static)
		for (size_t i = 0; i < n; i++)
			wl_declared_store(&b->type, out, i,
					  (double)(i < (size_t)at->rows + 1 ? i * (size_t)at->per_row : 0));
		return 0;
	case WL_INIT_TRANSPOSE: {
		/* Square and one lane, both (exp_data.c): out[y][x] = source[x][y]. */
		size_t side = (size_t)sqrt((double)count);
		struct wl_fill_at src = { .seed = at->source_seed, .values = at->values };

		while (side * side > count)
			side--;
		#pragma omp parallel for schedule(static)
		for (size_t o = 0; o < count; o++)
			wl_declared_store(&b->type, out, o,
					  wl_declared_value_at(at->source, &src, (o % side) * side + o / side));
		return 0;
	}
	default:
		break;
	}
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++)
		wl_declared_store(&b->type, out, i, wl_declared_value_at(b, at, i));
	return 0;
}

void wl_lanes_float(struct wl_lane_gen g, size_t first, size_t step, size_t count, float *out)
{
	const uint64_t seed = g.seed;
	const int max = g.max;

	switch (g.kind) {
	case WL_LANES_UNIT_FLOAT:
		for (size_t i = 0; i < count; i++)
			out[i] = wl_rng_float_at(seed, first + i * step);
		break;
	case WL_LANES_SMALL_INT_POW2:
		for (size_t i = 0; i < count; i++)
			out[i] = wl_rng_small_int_pow2_at(seed, first + i * step, max);
		break;
	default:
		for (size_t i = 0; i < count; i++)
			out[i] = (float)wl_lane_at(g, first + i * step);
		break;
	}
}

double wl_lanes_sum(struct wl_lane_gen a, const struct wl_lane_gen *b, size_t n)
{
	const uint64_t sa = a.seed, sb = b ? b->seed : 0;
	const int ma = a.max, mb = b ? b->max : 0;
	double sum = 0;

	/* The lessons' reduction and dot product: small integers of a power
	 * of two, sums exact in any order. */
	if (a.kind == WL_LANES_SMALL_INT_POW2 && !b) {
		#pragma omp parallel for reduction(+ : sum) schedule(static) if (n > 65536)
		for (size_t i = 0; i < n; i++)
			sum += wl_rng_small_int_pow2_at(sa, i, ma);
	} else if (a.kind == WL_LANES_SMALL_INT_POW2 && b->kind == WL_LANES_SMALL_INT_POW2) {
		#pragma omp parallel for reduction(+ : sum) schedule(static) if (n > 65536)
		for (size_t i = 0; i < n; i++)
			sum += (double)wl_rng_small_int_pow2_at(sa, i, ma) * wl_rng_small_int_pow2_at(sb, i, mb);
	} else {
		#pragma omp parallel for reduction(+ : sum) schedule(static) if (n > 65536)
		for (size_t i = 0; i < n; i++)
			sum += wl_lane_at(a, i) * (b ? wl_lane_at(*b, i) : 1.0);
	}
	return sum;
}
