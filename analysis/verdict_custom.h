/* The verdict's answer to the question a user who adds a kernel to a
 * lesson asks: did mine beat the variant it is like, by how much, beyond
 * the noise or not — and, where it did not build, fail or verify, that it
 * did not and why (analysis.h, wl_run_add_verdict). */
#ifndef WL_VERDICT_CUSTOM_H
#define WL_VERDICT_CUSTOM_H

#include <jansson.h>
#include <stddef.h>

#include "verdict_words.h"

/* Each custom kernel of the run against the variant it is like, at the
 * headline point's params (else at the last point it has a time at):
 * [{"kernel", "like", "outcome", "factor", "params", "sentence"}] with
 * outcome "faster" or "slower" (beyond the noise, factor the like's time
 * over the kernel's), "same" (within noise), "failed" (it did not build or
 * its launch failed: no time) or "unverified" (its output differs), its
 * sentences appended to sentence (len bytes, kept terminated). A new
 * reference; NULL when out of memory. */
json_t *wl_verdict_customs(const struct verdict_ctx *c, const json_t *headline, char *sentence, size_t len);

#endif
