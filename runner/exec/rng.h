/* Reproducible random inputs: SplitMix64 (Steele, Lea and Flood, 2014), seeded
 * from the run's seed and the point's index, so the same request with the same
 * seed fills the same inputs on any machine, with any number of cores. */
#ifndef WL_RNG_H
#define WL_RNG_H

#include <stddef.h>
#include <stdint.h>

struct wl_rng {
	uint64_t state;
};

void wl_rng_seed(struct wl_rng *r, uint64_t seed);
uint64_t wl_rng_next(struct wl_rng *r);

/* Skip the next n outputs, as a fill of n elements would. */
void wl_rng_skip(struct wl_rng *r, size_t n);

/* Element i of a wl_rng_fill_float() of a generator whose state was base:
 * any element computed alone, so a reference can be evaluated where it is
 * compared rather than kept in memory. */
#define WL_RNG_GAMMA 0x9e3779b97f4a7c15ULL

/* Output i (from 0) of a SplitMix64 generator whose state was base: its
 * state then is base + (i + 1) * gamma, mixed. */
static inline uint64_t wl_rng_at(uint64_t base, size_t i)
{
	uint64_t z = base + ((uint64_t)i + 1) * WL_RNG_GAMMA;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline float wl_rng_float_at(uint64_t base, size_t i)
{
	/* 24 random bits: exact in a float. Zero maps to the smallest positive
	 * step instead. */
	int32_t v = (int32_t)(wl_rng_at(base, i) >> 40) - (1 << 23);

	return (float)(v ? v : 1) / (float)(1 << 23);
}

/* Element i of a wl_rng_fill_small_int() of a generator whose state was
 * base, computed alone: an integer in [-max, -1] or [1, max], as a float. */
static inline float wl_rng_small_int_at(uint64_t base, size_t i, int max)
{
	uint64_t v = wl_rng_at(base, i);
	int magnitude = 1 + (int)((v >> 32) % (uint64_t)max);

	return (float)((v & 1) ? magnitude : -magnitude);
}

/* The same where max is a power of two: the remainder as a mask, the same
 * value without a division (a reference's sum over every element of a
 * reduction's input took twice as long with one). */
static inline float wl_rng_small_int_pow2_at(uint64_t base, size_t i, int max)
{
	uint64_t v = wl_rng_at(base, i);
	int magnitude = 1 + (int)((v >> 32) & (uint64_t)(max - 1));

	return (float)((v & 1) ? magnitude : -magnitude);
}

/* A seed for stream number `stream` derived from seed (points, buffers). */
uint64_t wl_rng_derive(uint64_t seed, uint64_t stream);

/* Fill out with floats uniform in [-1, 1), never exactly 0, so a kernel that
 * writes nothing or zeros cannot pass verification by accident. */
void wl_rng_fill_float(struct wl_rng *r, float *out, size_t n);

/* The same for doubles. */
void wl_rng_fill_double(struct wl_rng *r, double *out, size_t n);

/* Fill out with integers in [-max, -1] and [1, max] held as floats. Any sum of
 * fewer than 2^24 / max of them is exact in float, so a reduction in any order
 * must match the reference bit for bit. */
void wl_rng_fill_small_int(struct wl_rng *r, float *out, size_t n, int max);

#endif
