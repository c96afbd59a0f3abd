/* A declared experiment's outputs checked against its reference variant's
 * (catalog/exp_data.h's check): integers exactly, floats within any
 * tolerance the check gives (absolute, relative to the reference, or a
 * distance in units in the last place), bit for bit where it gives none.
 * Two NaNs of the same bits are equal: an element neither kernel wrote is
 * still the poison both found. A mismatch names the first element that
 * differs, both values and how many differ. */
#ifndef WL_DECLARED_CHECK_H
#define WL_DECLARED_CHECK_H

#include <stddef.h>

#include "exp_data.h"

/* Compare count elements of b (got against want, the reference variant
 * named reference), per check. Returns 1 when they match, 0 with why (len
 * bytes) naming the first difference. */
int wl_declared_compare(const struct wl_buffer_def *b, const struct wl_check_def *check, const char *reference,
			const void *got, const void *want, size_t count, char *why, size_t len);

#endif
