/* SplitMix64 and the fills built on it. SplitMix64 is a counter-based
 * generator at heart: its k-th output is a fixed mix of state + k * gamma, so a
 * fill computes every element from its index, on all the host's cores
 * (OpenMP), with exactly the values of one core in order. */
#include "rng.h"

#define GAMMA WL_RNG_GAMMA

void wl_rng_seed(struct wl_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t wl_rng_next(struct wl_rng *r)
{
	uint64_t v = wl_rng_at(r->state, 0);

	r->state += GAMMA;
	return v;
}

uint64_t wl_rng_derive(uint64_t seed, uint64_t stream)
{
	struct wl_rng r = { seed ^ (stream * 0xd1b54a32d192ed03ULL) };

	return wl_rng_next(&r);
}

void wl_rng_skip(struct wl_rng *r, size_t n)
{
	r->state += (uint64_t)n * GAMMA;
}

void wl_rng_fill_float(struct wl_rng *r, float *out, size_t n)
{
	uint64_t base = r->state;

#pragma omp parallel for schedule(static) if (n > 65536)
	for (size_t i = 0; i < n; i++)
		out[i] = wl_rng_float_at(base, i);
	r->state = base + (uint64_t)n * GAMMA;
}

void wl_rng_fill_small_int(struct wl_rng *r, float *out, size_t n, int max)
{
	uint64_t base = r->state;

#pragma omp parallel for schedule(static) if (n > 65536)
	for (size_t i = 0; i < n; i++)
		out[i] = wl_rng_small_int_at(base, i, max);
	r->state = base + (uint64_t)n * GAMMA;
}

void wl_rng_fill_double(struct wl_rng *r, double *out, size_t n)
{
	uint64_t base = r->state;

#pragma omp parallel for schedule(static) if (n > 65536)
	for (size_t i = 0; i < n; i++) {
		int64_t v = (int64_t)(wl_rng_at(base, i) >> 11) - (1LL << 52);

		out[i] = (double)(v ? v : 1) / (double)(1LL << 52);
	}
	r->state = base + (uint64_t)n * GAMMA;
}
