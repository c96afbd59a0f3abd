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

int wl_declared_fill(const struct wl_buffer_def *b, size_t count, uint64_t seed, long long rows, long long per_row,
		     void *out)
{
	const struct wl_buffer_init *in = &b->init;
	size_t lanes = (size_t)b->type.lanes, slots = b->type.lanes == 3 ? 4 : lanes, n = count * slots;

	switch (in->kind) {
	case WL_INIT_NONE:
	case WL_INIT_ZEROS:
		memset(out, 0, count * b->type.bytes);
		return 0;
	case WL_INIT_PERMUTATION:
		return permutation(b, count, seed, out);
	case WL_INIT_CSR_COLS:
		memset(out, 0, count * b->type.bytes);
		csr_columns(b, rows, per_row, count, out);
		return 0;
	default:
		break;
	}
	/* A vector of 3 fills its fourth lane too (its padding), as index. */
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++) {
		size_t element = i / slots, lane = i % slots;
		double v = 0;

		switch (in->kind) {
		case WL_INIT_INDEX: v = (double)(element * lanes + (lane < lanes ? lane : 0)); break;
		case WL_INIT_CONSTANT: v = in->value; break;
		case WL_INIT_RANDOM: v = in->lo + (in->hi - in->lo) * unit(seed, i); break;
		case WL_INIT_RANDOM_INT:
			v = in->lo + (double)(wl_rng_at(seed, i) % (uint64_t)(in->hi - in->lo + 1));
			break;
		case WL_INIT_CSR_ROWS: v = (double)(element < (size_t)rows + 1 ? element * (size_t)per_row : 0); break;
		default: break;
		}
		wl_declared_store(&b->type, out, i, v);
	}
	return 0;
}
