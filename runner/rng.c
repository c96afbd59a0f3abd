/* SplitMix64 and the float fills built on it. */
#include "rng.h"

void wl_rng_seed(struct wl_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t wl_rng_next(struct wl_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t wl_rng_derive(uint64_t seed, uint64_t stream)
{
	struct wl_rng r = { seed ^ (stream * 0xd1b54a32d192ed03ULL) };

	return wl_rng_next(&r);
}

void wl_rng_fill_float(struct wl_rng *r, float *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		/* 24 random bits: exact in a float. Zero maps to the smallest
		 * positive step instead. */
		int32_t v = (int32_t)(wl_rng_next(r) >> 40) - (1 << 23);

		out[i] = (float)(v ? v : 1) / (float)(1 << 23);
	}
}

void wl_rng_fill_small_int(struct wl_rng *r, float *out, size_t n, int max)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = wl_rng_next(r);
		int magnitude = 1 + (int)((v >> 32) % (uint64_t)max);

		out[i] = (float)((v & 1) ? magnitude : -magnitude);
	}
}

void wl_rng_fill_double(struct wl_rng *r, double *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int64_t v = (int64_t)(wl_rng_next(r) >> 11) - (1LL << 52);

		out[i] = (double)(v ? v : 1) / (double)(1LL << 52);
	}
}
