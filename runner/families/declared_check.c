/* A declared experiment's outputs against its reference (see
 * declared_check.h). */
#include "declared_check.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Lane i of p as a double (integers exactly up to 2^53), and its bits as
 * an unsigned integer for the bitwise and ulps comparisons. */
static double lane_value(const struct wl_elem_type *t, const void *p, size_t i)
{
	switch (t->base) {
	case WL_ELEM_FLOAT: return ((const float *)p)[i];
	case WL_ELEM_DOUBLE: return ((const double *)p)[i];
	case WL_ELEM_CHAR: return ((const int8_t *)p)[i];
	case WL_ELEM_UCHAR: return ((const uint8_t *)p)[i];
	case WL_ELEM_SHORT: return ((const int16_t *)p)[i];
	case WL_ELEM_USHORT: return ((const uint16_t *)p)[i];
	case WL_ELEM_INT: return ((const int32_t *)p)[i];
	case WL_ELEM_UINT: return ((const uint32_t *)p)[i];
	case WL_ELEM_LONG: return (double)((const int64_t *)p)[i];
	case WL_ELEM_ULONG: return (double)((const uint64_t *)p)[i];
	}
	return 0;
}

/* A float's bits mapped so that adjacent floats are adjacent integers:
 * their difference is the distance in units in the last place. */
static int64_t ordered(const struct wl_elem_type *t, const void *p, size_t i)
{
	if (t->base == WL_ELEM_FLOAT) {
		int32_t b;

		memcpy(&b, (const char *)p + i * 4, 4);
		return b < 0 ? (int64_t)INT32_MIN - b : b;
	}
	int64_t b;

	memcpy(&b, (const char *)p + i * 8, 8);
	return b < 0 ? INT64_MIN - b : b;
}

/* Whether lane i of got passes against want's. */
static int lane_passes(const struct wl_elem_type *t, const struct wl_check_def *c, const void *got,
		       const void *want, size_t i)
{
	const char *g = (const char *)got + i * t->lane_bytes, *w = (const char *)want + i * t->lane_bytes;
	double a, b;

	if (memcmp(g, w, t->lane_bytes) == 0)
		return 1;
	if (!t->is_float)
		return 0;
	a = lane_value(t, got, i);
	b = lane_value(t, want, i);
	if (isnan(a) || isnan(b))
		return 0;
	if (c->abs >= 0 && fabs(a - b) <= c->abs)
		return 1;
	if (c->rel >= 0 && fabs(a - b) <= c->rel * fabs(b))
		return 1;
	if (c->ulps >= 0) {
		int64_t d = ordered(t, got, i) - ordered(t, want, i);

		return (d < 0 ? -d : d) <= c->ulps;
	}
	return 0;
}

/* Whether a and b hold the same len bytes. */
static int same_bytes(const void *a, const void *b, size_t len)
{
	const size_t slice = 1u << 20;
	long slices = (long)((len + slice - 1) / slice);
	int differ = 0;

#pragma omp parallel for reduction(| : differ) schedule(static)
	for (long i = 0; i < slices; i++) {
		size_t at = (size_t)i * slice, n = len - at < slice ? len - at : slice;

		differ |= memcmp((const char *)a + at, (const char *)b + at, n) != 0;
	}
	return !differ;
}

/* The tolerance in words, for the message. */
static void tolerance_text(const struct wl_check_def *c, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (c->abs >= 0)
		n += snprintf(buf + n, len - (size_t)n, " abs %g", c->abs);
	if (c->rel >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " rel %g", c->rel);
	if (c->ulps >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " ulps %lld", c->ulps);
	if (!buf[0])
		snprintf(buf, len, " bit for bit");
}

int wl_declared_compare(const struct wl_buffer_def *b, const struct wl_check_def *check, const char *reference,
			const void *got, const void *want, size_t count, char *why, size_t len)
{
	const struct wl_elem_type *t = &b->type;
	size_t lanes = (size_t)t->lanes, slots = t->lanes == 3 ? 4 : lanes, bad = 0, first = (size_t)-1;
	char at[64], tol[64];

	/* Equal bits pass whatever the tolerance: the whole compared first, in
	 * slices on the host's cores, before any lane is looked at. */
	if (same_bytes(got, want, count * slots * t->lane_bytes))
		return 1;
	for (size_t e = 0; e < count; e++)
		for (size_t l = 0; l < lanes; l++)
			if (!lane_passes(t, check, got, want, e * slots + l)) {
				if (first == (size_t)-1)
					first = e * slots + l;
				bad++;
			}
	if (!bad)
		return 1;
	if (lanes > 1)
		snprintf(at, sizeof(at), "%s[%zu].s%zx", b->name, first / slots, first % slots);
	else
		snprintf(at, sizeof(at), "%s[%zu]", b->name, first);
	tolerance_text(check, tol, sizeof(tol));
	snprintf(why, len, "verification failed: %s = %.9g, %s's is %.9g (checked%s); %zu of %zu values differ", at,
		 lane_value(t, got, first), reference, lane_value(t, want, first), tol, bad, count * lanes);
	return 0;
}
