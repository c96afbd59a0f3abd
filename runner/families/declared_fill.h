/* A declared buffer's first contents (catalog/exp_data.h's inits), made on
 * the host from the point's seed: zeros, each element's index, a constant,
 * uniform floats or integers, a permutation, and a sparse matrix's row
 * pointers and column indices in CSR. Each value is a function of the
 * seed, the buffer and the element alone (a permutation of the seed and the
 * count), so the same request fills the same buffers on any machine. */
#ifndef WL_DECLARED_FILL_H
#define WL_DECLARED_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "exp_data.h"

/* Fill out (count elements of b's type) as b's init says, with seed (the
 * point's, derived per buffer) and, for a csr_cols buffer, the rows and
 * nonzeros per row of its csr_rows partner. -1 only when out of memory (a
 * permutation's work). */
int wl_declared_fill(const struct wl_buffer_def *b, size_t count, uint64_t seed, long long rows, long long per_row,
		     void *out);

/* Store v in lane i of out as b's type holds it (integers truncated toward
 * zero and wrapped into the type, as a C cast). */
void wl_declared_store(const struct wl_elem_type *t, void *out, size_t i, double v);

#endif
