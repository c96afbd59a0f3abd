/* The rule for sentences that cite the model (see model_trust.h). */
#include "model_trust.h"

#include <stdio.h>
#include <string.h>

/* A factor as the sentences say it: "1.8×", "113×". */
static void factor_text(double f, char *out, size_t len)
{
	snprintf(out, len, f < 9.95 ? "%.1f×" : "%.0f×", f);
}

void wl_model_trust(double ratio, const struct wl_model_record *record, int cpu, struct wl_trust *out)
{
	out->kind = WL_TRUST_CITE;
	out->factor = ratio > 0 ? (ratio > 1 ? ratio : 1 / ratio) : 0;
	out->record = record;
	out->cpu = cpu;
	if (out->factor > WL_TRUST_POINT_FACTOR)
		out->kind = WL_TRUST_MISSES_POINT;
	else if (record && record->points >= WL_TRUST_RECORD_MIN && record->median_factor > WL_TRUST_RECORD_FACTOR)
		out->kind = WL_TRUST_POOR_RECORD;
}

int wl_trust_may_name(const struct wl_trust *t, enum wl_trust_claim claim)
{
	if (t->kind != WL_TRUST_CITE)
		return 0;
	switch (claim) {
	case WL_CLAIM_BINDING:
	case WL_CLAIM_SECTORS:
		return 1;
	case WL_CLAIM_CONFLICTS:
		/* A CPU has no local-memory ceiling: its conflicts cost nothing
		 * in the model. */
		return !t->cpu;
	case WL_CLAIM_CAUSE:
		/* A departure is beyond the point factor, so this holds only for
		 * a caller that asks within it. */
		return 1;
	}
	return 0;
}

/* A family as a sentence names it: the catalog's experiments by their id,
 * the ledger's two others in words. */
static const char *family_words(const char *family)
{
	if (!family)
		return "these kernels";
	if (strcmp(family, "custom") == 0)
		return "custom kernels";
	if (strcmp(family, "own experiment") == 0)
		return "experiments of one's own";
	return family;
}

void wl_trust_words(const struct wl_trust *t, const char *who, char *buf, size_t len)
{
	char f[32], m[32];

	buf[0] = '\0';
	if (t->kind == WL_TRUST_MISSES_POINT) {
		factor_text(t->factor, f, sizeof(f));
		snprintf(buf, len, "the model is %s off%s%s here: it does not explain this point", f, who ? " for " : "",
			 who ? who : "");
	} else if (t->kind == WL_TRUST_POOR_RECORD) {
		factor_text(t->record->median_factor, m, sizeof(m));
		snprintf(buf, len, "the model's record for %s on this device is poor (its latest %lld points are %s off "
			 "at the median): it names no cause here", family_words(t->record->family), t->record->points, m);
	}
}

void wl_trust_pair_words(const struct wl_trust *a, const char *who_a, const struct wl_trust *b, const char *who_b,
			 char *buf, size_t len)
{
	char fa[32], fb[32], wa[512], wb[512];

	buf[0] = '\0';
	if (!b || b == a || b->kind == WL_TRUST_CITE) {
		wl_trust_words(a, who_a, buf, len);
		return;
	}
	if (a->kind == WL_TRUST_CITE) {
		wl_trust_words(b, who_b, buf, len);
		return;
	}
	if (a->kind == WL_TRUST_MISSES_POINT && b->kind == WL_TRUST_MISSES_POINT) {
		factor_text(a->factor, fa, sizeof(fa));
		factor_text(b->factor, fb, sizeof(fb));
		snprintf(buf, len, "the model is %s off for %s and %s off for %s here: it does not explain these points",
			 fa, who_a ? who_a : "one", fb, who_b ? who_b : "the other");
		return;
	}
	wl_trust_words(a, who_a, wa, sizeof(wa));
	wl_trust_words(b, who_b, wb, sizeof(wb));
	/* Two results of one family share its record: said once. */
	if (a->kind == WL_TRUST_POOR_RECORD && b->kind == WL_TRUST_POOR_RECORD && a->record == b->record)
		snprintf(buf, len, "%s", wa);
	else
		snprintf(buf, len, "%s; %s", wa, wb);
}

void wl_trust_departure(const struct wl_trust *t, double ratio, char *buf, size_t len)
{
	double f = ratio > 1 ? ratio : 1 / ratio;

	wl_trust_departures(t, ratio > 1, f, f, 1, buf, len);
}

void wl_trust_departures(const struct wl_trust *t, int faster, double low, double high, size_t points, char *buf,
			 size_t len)
{
	char lo[32], hi[32], range[80];

	factor_text(low, lo, sizeof(lo));
	factor_text(high, hi, sizeof(hi));
	/* One figure where the two read alike: "2.2×", never "2.2–2.2×". */
	if (strcmp(lo, hi) == 0)
		snprintf(range, sizeof(range), "%s", hi);
	else
		snprintf(range, sizeof(range), "%.*s–%s", (int)strlen(lo) - (int)strlen("×"), lo, hi);
	snprintf(buf, len, "Measured %s %s than predicted: the model does not explain %s and names no cause%s.", range,
		 faster ? "faster" : "slower", points == 1 ? "this point" : "these points",
		 t->cpu ? " (" WL_TRUST_CPU_CLAUSE ")" : "");
}
