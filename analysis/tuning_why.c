/* Why a tuning run's fastest configuration wins (see analysis.h,
 * "tuning"): what the model's figures of its result and of another's at the
 * same size say differs between them — the ceiling that binds, sectors per
 * global request, the bank-conflict degree, the work-groups launched and
 * their size, the time its waves wait at barriers for their loads — and
 * the warps the compiler's account lets each compute unit hold. Only
 * figures the run carries are cited; where none differs, it says so. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ceiling_view.h"

/* A figure of r's prediction (or its work), NAN where it has none. */
static double figure(const struct wl_result *r, const char *key)
{
	const json_t *p = r->prediction, *v;

	if (!p)
		return NAN;
	v = json_object_get(p, key);
	if (!v)
		v = json_object_get(json_object_get(p, "work"), key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The time r's waves wait at barriers for their loads, in µs: 0 where its
 * prediction has none (no barrier after loads). */
static double drains_us(const struct wl_result *r)
{
	double ms = figure(r, "drain_ms");

	return isnan(ms) ? 0 : ms * 1000;
}

/* Whether a and b are both known and differ by more than rounding. */
static int differ(double a, double b)
{
	return !isnan(a) && !isnan(b) && fabs(a - b) > 1e-9 * fmax(fabs(a), fabs(b));
}

/* Append to text (len bytes, NUL-terminated) a clause, "; " between them. */
static void clause(char *text, size_t len, int *n, const char *fmt, double a, double b)
{
	size_t used = strlen(text);

	if (used + 4 >= len)
		return;
	if ((*n)++)
		used += (size_t)snprintf(text + used, len - used, "; ");
	snprintf(text + used, len - used, fmt, a, b);
}

json_t *wl_tuning_why(const struct wl_result *best, const struct wl_result *other, const char *other_config)
{
	char text[900];
	int n = 0;
	double best_drains, other_drains;

	/* Without the model's figures of both (still being computed, or
	 * none for this variant), nothing can be said of why. */
	if (!best || !other || best == other || !best->prediction || !other->prediction)
		return json_null();
	best_drains = drains_us(best);
	other_drains = drains_us(other);
	snprintf(text, sizeof(text), "Against %s (%s, %.3g ms): ", other_config, other->variant ? other->variant : "?",
		 other->median_ms);
	if (differ(figure(best, "conflict_degree"), figure(other, "conflict_degree")))
		clause(text, sizeof(text), &n, "its local memory accesses conflict %g-way, against %g-way",
		       figure(best, "conflict_degree"), figure(other, "conflict_degree"));
	if (differ(figure(best, "sectors_per_request"), figure(other, "sectors_per_request")))
		clause(text, sizeof(text), &n, "it moves %.3g sectors per global request, against %.3g",
		       figure(best, "sectors_per_request"), figure(other, "sectors_per_request"));
	if (differ(figure(best, "groups"), figure(other, "groups")))
		clause(text, sizeof(text), &n, "it launches %.0f work-groups, against %.0f", figure(best, "groups"),
		       figure(other, "groups"));
	if (differ(figure(best, "items"), figure(other, "items")))
		clause(text, sizeof(text), &n, "its work-groups hold %.0f work-items, against %.0f", figure(best, "items"),
		       figure(other, "items"));
	/* Fewer waves (more elements a work-item, or more warps resident)
	 * wait out fewer round trips before their barriers. */
	if (differ(best_drains, other_drains)) {
		if (best_drains == 0)
			clause(text, sizeof(text), &n, "its waves wait at no barrier for their loads, against %.3g µs",
			       other_drains, 0);
		else if (other_drains == 0)
			clause(text, sizeof(text), &n, "its waves wait %.3g µs at barriers for their loads, against none",
			       best_drains, 0);
		else
			clause(text, sizeof(text), &n, "its waves wait %.3g µs at barriers for their loads, against %.3g µs",
			       best_drains, other_drains);
	}
	if (best->resident_warps > 0 && other->resident_warps > 0 && best->resident_warps != other->resident_warps)
		clause(text, sizeof(text), &n, "the compiler's account lets a compute unit hold %.0f of its warps, against %.0f",
		       (double)best->resident_warps, (double)other->resident_warps);
	if (best->binding && other->binding && strcmp(best->binding, other->binding) != 0) {
		size_t used = strlen(text);

		snprintf(text + used, sizeof(text) - used, "%sthe model finds %s binding it, and %s the other", n++ ? "; " : "",
			 wl_ceiling_words(best->binding), wl_ceiling_words(other->binding));
	} else if (best->binding) {
		size_t used = strlen(text);

		snprintf(text + used, sizeof(text) - used, "%sthe model finds %s binding %s", n++ ? "; " : "",
			 wl_ceiling_words(best->binding), other->binding ? "both" : "it");
	}
	if (!n) {
		size_t used = strlen(text);

		snprintf(text + used, sizeof(text) - used,
			 "the model's figures of the two (sectors, conflicts, work-groups and their size) are the same, so what it sees does not "
			 "tell them apart");
	}
	snprintf(text + strlen(text), sizeof(text) - strlen(text), ".");
	return json_string(text);
}
