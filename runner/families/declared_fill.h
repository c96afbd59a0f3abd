/* A declared buffer's first contents (catalog/exp_data.h's inits): zeros,
 * each element's index, a constant, uniform floats or integers, a
 * permutation, the transpose of another buffer, and a sparse matrix's row
 * pointers and column indices in CSR. Each value is a function of the
 * seed, the buffer and the element alone (a permutation of the seed and the
 * count), so the same request fills the same buffers on any machine; most
 * can be computed element by element (wl_declared_value_at), so a reference
 * need not hold an input, and floats of the point's generator are made on
 * the device (wl_declared_device_fill). */
#ifndef WL_DECLARED_FILL_H
#define WL_DECLARED_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "exp_data.h"
#include "rng.h"

/* What a buffer's values depend on beyond its init. */
struct wl_fill_at {
	uint64_t seed;				/* the buffer's generator state (derived from the point's) */
	const long long *values;		/* the point's params, for constant expressions */
	long long rows, per_row;		/* csr_cols: its csr_rows partner's shape */
	const struct wl_buffer_def *source;	/* transpose: the buffer it transposes */
	uint64_t source_seed;			/* ... and that buffer's generator state */
};

/* Fill out (count elements of b's type) as b's init says. -1 only when out
 * of memory (a permutation's work). */
int wl_declared_fill(const struct wl_buffer_def *b, size_t count, const struct wl_fill_at *at, void *out);

/* Whether b's lanes can each be computed alone: zeros, index, constant,
 * random, random_int and nonzero_int can; a permutation, a transpose and
 * CSR structure cannot. */
int wl_declared_addressable(const struct wl_buffer_def *b);

/* Lane i (of count x the type's lanes, a vector of 3 taking 4) of an
 * addressable buffer b, as wl_declared_fill writes it before it is stored in
 * b's type. */
double wl_declared_value_at(const struct wl_buffer_def *b, const struct wl_fill_at *at, size_t i);

/* An addressable buffer's lanes as a reference's loops read them: the
 * generators the lessons' inputs use resolved once, so that a loop over
 * every element (held in a local copy, which no call can change) costs
 * what the generator does; a function call and a switch an element made
 * the checks twice as slow. */
enum wl_lanes {
	WL_LANES_OTHER,			/* any other init: wl_declared_value_at */
	WL_LANES_UNIT_FLOAT,		/* "random" floats of [-1, 1): wl_rng_float_at */
	WL_LANES_SMALL_INT,		/* "nonzero_int": wl_rng_small_int_at */
	WL_LANES_SMALL_INT_POW2,	/* ... of a max that is a power of two: a mask */
};

struct wl_lane_gen {
	enum wl_lanes kind;
	int max;			/* nonzero_int's */
	uint64_t seed;
	const struct wl_buffer_def *def;
	const struct wl_fill_at *at;
};

/* Whether b's init is "random" floats of [-1, 1): 24 bits each, as the
 * device makes them (rng.h's wl_rng_float_at). */
static inline int wl_declared_unit_floats(const struct wl_buffer_def *b)
{
	return b->init.kind == WL_INIT_RANDOM && b->type.base == WL_ELEM_FLOAT && b->init.lo == -1 && b->init.hi == 1;
}

static inline struct wl_lane_gen wl_lane_gen(const struct wl_buffer_def *b, const struct wl_fill_at *at)
{
	int max = (int)b->init.hi;
	enum wl_lanes kind = wl_declared_unit_floats(b) ? WL_LANES_UNIT_FLOAT :
		b->init.kind != WL_INIT_NONZERO_INT ? WL_LANES_OTHER :
		(max & (max - 1)) == 0 ? WL_LANES_SMALL_INT_POW2 : WL_LANES_SMALL_INT;

	return (struct wl_lane_gen){ .kind = kind, .max = max, .seed = at->seed, .def = b, .at = at };
}

static inline double wl_lane_at(struct wl_lane_gen g, size_t i)
{
	switch (g.kind) {
	case WL_LANES_UNIT_FLOAT: return wl_rng_float_at(g.seed, i);
	case WL_LANES_SMALL_INT: return wl_rng_small_int_at(g.seed, i, g.max);
	case WL_LANES_SMALL_INT_POW2: return wl_rng_small_int_pow2_at(g.seed, i, g.max);
	default: return wl_declared_value_at(g.def, g.at, i);
	}
}

/* Lanes first, first + step, ... (count of them) of g's buffer as floats
 * into out, the generator chosen once and not an element (a switch an
 * element kept the loop from being vectorized: twice as slow). On the
 * calling thread: the caller spreads rows over the cores. */
void wl_lanes_float(struct wl_lane_gen g, size_t first, size_t step, size_t count, float *out);

/* The sum of lanes 0..n-1 of a's buffer, or (b not NULL) of their products
 * with b's, in double: a reduction's or a dot product's reference. */
double wl_lanes_sum(struct wl_lane_gen a, const struct wl_lane_gen *b, size_t n);

/* Whether b is made on the device rather than on the host and copied: one
 * of float lanes read only, filled "random" in [-1, 1) or "nonzero_int"
 * (what wl_point_random makes, the same values as wl_declared_value_at).
 * Returns the small-integer max for nonzero_int, 0 for random, -1 where
 * the host fills it. */
int wl_declared_device_fill(const struct wl_buffer_def *b);

/* Store v in lane i of out as b's type holds it (integers truncated toward
 * zero and wrapped into the type, as a C cast). */
void wl_declared_store(const struct wl_elem_type *t, void *out, size_t i, double v);

#endif
