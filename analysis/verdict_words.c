/* The verdict's sentences (see verdict_words.h). */
#include "verdict_words.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ceiling_view.h"
#include "model_trust.h"

void wl_verdict_put(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* A figure as a number, 0 where there is none. */
static double zero(double v)
{
	return isnan(v) ? 0 : v;
}

/* A rate as people read it: 2,780 — 312 — 41.2 — 0.512. */
static void fmt_value(double v, char *out, size_t len)
{
	if (v >= 1000) {
		long long whole = llround(v);
		char digits[32];
		size_t n, o = 0;

		snprintf(digits, sizeof(digits), "%lld", whole);
		n = strlen(digits);
		for (size_t i = 0; i < n && o + 2 < len; i++) {
			if (i > 0 && (n - i) % 3 == 0)
				out[o++] = ',';
			out[o++] = digits[i];
		}
		out[o] = '\0';
	} else {
		snprintf(out, len, v >= 100 ? "%.0f" : "%.3g", v);
	}
}

/* A count as the page shows sizes: 64 Mi, 256 Ki, 8192. */
static void fmt_count(long long v, char *out, size_t len)
{
	if (v >= (1LL << 20) && v % (1LL << 20) == 0)
		snprintf(out, len, "%lld Mi", v >> 20);
	else if (v >= (1LL << 16) && v % (1LL << 10) == 0)
		snprintf(out, len, "%lld Ki", v >> 10);
	else
		snprintf(out, len, "%lld", v);
}

void wl_verdict_factor_text(double f, char *out, size_t len)
{
	snprintf(out, len, f < 9.95 ? "%.1f×" : "%.0f×", f);
}

static const char *title_of(const struct verdict_ctx *c, const char *variant)
{
	for (size_t i = 0; i < c->run->nvariants; i++) {
		const struct wl_run_variant *v = &c->run->variants[i];

		if (variant && v->id && strcmp(v->id, variant) == 0)
			return v->title ?: variant;
	}
	return variant ? variant : "?";
}

static const char *variant_of(const struct verdict_ctx *c, const struct wl_result *r)
{
	return title_of(c, r->variant);
}

/* ", within noise of a, b and c" for the variants of tied; "" where none. */
static void tied_text(const struct verdict_ctx *c, const json_t *tied, char *out, size_t len)
{
	size_t n = json_array_size(tied);

	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		wl_verdict_put(out, len, "%s%s", i == 0 ? ", within noise of " : i + 1 == n ? " and " : ", ",
		    title_of(c, json_string_value(json_array_get(tied, i))));
}

void wl_verdict_point_text(const struct verdict_ctx *c, const json_t *params, char *out, size_t len)
{
	out[0] = '\0';
	for (int i = 0; i < c->nswept; i++) {
		char v[32];

		fmt_count((long long)json_integer_value(json_object_get(params, c->swept[i])), v, sizeof(v));
		wl_verdict_put(out, len, "%s%s = %s", i ? ", " : "", c->swept[i], v);
	}
}

static const char *binding_of(const struct wl_result *r)
{
	return r->binding;
}

/* Whether the rule lets a sentence name claim of a and b (b NULL: a's
 * alone). */
static int may_name(const struct wl_result *a, const struct wl_result *b, enum wl_trust_claim claim)
{
	return wl_trust_may_name(&a->trust, claim) && (!b || wl_trust_may_name(&b->trust, claim));
}

/* What the slowest's accesses do that the fastest's do not: more-way bank
 * conflicts or more sectors per request, as the model counts them; "" where
 * neither. */
static void pattern_of(const struct wl_result *slow, const struct wl_result *fast, char *out, size_t len)
{
	double cs = slow->conflict_degree, cf = fast->conflict_degree;
	double ss = slow->sectors_per_request, sf = fast->sectors_per_request;

	out[0] = '\0';
	if (cs > 1 && cs > cf * 1.05 && may_name(slow, fast, WL_CLAIM_CONFLICTS))
		snprintf(out, len, "%.3g-way bank conflicts", cs);
	else if (ss > 0 && sf > 0 && ss > sf * 1.05 && may_name(slow, fast, WL_CLAIM_SECTORS))
		snprintf(out, len, "%.3g sectors per request (against %.3g)", ss, sf);
}

/* " The model is 113× off for x here: it does not explain this point." —
 * the rule's words (model_trust.h) where a or b (who_a, who_b) may not be
 * cited, as a sentence; "" where both may. */
static void trust_sentence(const struct wl_result *a, const char *who_a, const struct wl_result *b,
			   const char *who_b, char *out, size_t len)
{
	char words[768];

	out[0] = '\0';
	wl_trust_pair_words(&a->trust, who_a, b && b != a ? &b->trust : NULL, who_b, words, sizeof(words));
	if (words[0])
		wl_verdict_put(out, len, " %c%s.", toupper((unsigned char)words[0]), words + 1);
}

/* Whether the model may be cited, with its binding ceilings, for a and b
 * (NULL: a alone). */
static int cites(const struct wl_result *a, const struct wl_result *b)
{
	return may_name(a, b, WL_CLAIM_BINDING);
}

/* What the model does not model on a CPU, where the run is on one and its
 * model said something of it; "" otherwise. */
static const char *cpu_words(const struct verdict_ctx *c)
{
	if (!c->run->cpu)
		return "";
	for (size_t i = 0; i < c->run->nresults; i++)
		if (json_is_object(c->run->results[i].prediction))
			return " " WL_TRUST_CPU_WORDS;
	return "";
}

/* "2,780 GB/s (94% of the copy ceiling)" of result r. */
static void rate_text(const struct verdict_ctx *c, const struct wl_result *r, char *out, size_t len)
{
	double rate = wl_result_rate(c->run, r);
	char v[32];

	out[0] = '\0';
	if (isnan(rate))
		return;
	fmt_value(rate, v, sizeof(v));
	wl_verdict_put(out, len, "%s %s", v, c->unit);
	if (!isnan(r->ceiling_pct))
		wl_verdict_put(out, len, " (%.0f%% of the copy ceiling)", r->ceiling_pct);
}

/* ", 6.0× faster than naive and 8.1× faster than the slowest, x" */
static void factors_text(const struct verdict_ctx *c, const struct wl_result *best, const struct wl_result *slowest,
			 const struct wl_result *reference, char *out, size_t len)
{
	char f[32];

	out[0] = '\0';
	/* One within noise of the best gets no factor: the sentence says it
	 * is within noise (the point's "tied"). */
	if (reference && reference != best &&
	    wl_result_verdict(c->run, best, reference, 0, c->min_change) == WL_SAME)
		reference = NULL;
	if (slowest && slowest != best && wl_result_verdict(c->run, best, slowest, 0, c->min_change) == WL_SAME)
		slowest = NULL;
	if (reference && reference != best) {
		wl_verdict_factor_text(zero(reference->median_ms) / zero(best->median_ms), f, sizeof(f));
		wl_verdict_put(out, len, ", %s faster than %s%s", f, variant_of(c, reference),
		    slowest == reference ? " (the slowest)" : "");
	}
	if (slowest && slowest != best && slowest != reference) {
		wl_verdict_factor_text(zero(slowest->median_ms) / zero(best->median_ms), f, sizeof(f));
		wl_verdict_put(out, len, "%s %s faster than the slowest, %s", out[0] ? " and" : ",", f, variant_of(c, slowest));
	}
}

/* " In the model, x is bound by DRAM bandwidth; y by latency (32 sectors
 * per request against 4)." — "both are" where the two share a ceiling. */
void wl_verdict_reason_text(const struct verdict_ctx *c, const struct wl_result *best, const struct wl_result *slowest,
			    char *out, size_t len)
{
	const char *b = binding_of(best), *s = slowest && slowest != best ? binding_of(slowest) : NULL;
	char pattern[96] = "";

	out[0] = '\0';
	/* Where the model misses either point, or its record is poor, it
	 * names no cause: the rule's words instead. */
	if (!cites(best, slowest && slowest != best ? slowest : NULL)) {
		trust_sentence(best, variant_of(c, best), slowest, slowest ? variant_of(c, slowest) : NULL, out, len);
		return;
	}
	if (slowest && slowest != best)
		pattern_of(slowest, best, pattern, sizeof(pattern));
	/* Without the device's facts the model has no ceilings, but still its
	 * counts: what the slowest's requests do that the fastest's do not. */
	if (!b) {
		if (pattern[0])
			wl_verdict_put(out, len, " In the model, %s has %s.", variant_of(c, slowest), pattern);
		return;
	}
	if (s && strcmp(s, b) == 0) {
		wl_verdict_put(out, len, " In the model, both are bound by %s", wl_ceiling_words(b));
		if (pattern[0])
			wl_verdict_put(out, len, "; %s has %s", variant_of(c, slowest), pattern);
	} else {
		wl_verdict_put(out, len, " In the model, %s is bound by %s", variant_of(c, best), wl_ceiling_words(b));
		if (s)
			wl_verdict_put(out, len, "; %s by %s%s%s", variant_of(c, slowest), wl_ceiling_words(s),
			    pattern[0] ? ", with " : "", pattern);
	}
	wl_verdict_put(out, len, ".");
}

/* " diagonal uses the least energy: 180 pJ per useful byte, 8% less than
 * padded." of a point's frugal (wl_run_add_verdict) beside its fastest; "" where it
 * has none. */
static void frugal_text(const struct verdict_ctx *c, const json_t *frugal, const char *fastest, char *out,
			size_t len)
{
	static const struct {
		const char *key, *unit;
	} units[] = { { "pj_per_useful_byte", "pJ per useful byte" }, { "nj_per_op", "nJ per operation" },
		      { "j_per_launch", "J per launch" } };
	const char *key = json_string_value(json_object_get(frugal, "figure"));
	char v[32];

	out[0] = '\0';
	for (size_t i = 0; key && i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(key, units[i].key) != 0)
			continue;
		fmt_value(num(frugal, "value"), v, sizeof(v));
		wl_verdict_put(out, len, " %s uses the least energy: %s %s, %.0f%% less than %s.",
		    title_of(c, json_string_value(json_object_get(frugal, "variant"))), v, units[i].unit,
		    num(frugal, "less_pct"), fastest);
	}
}

void wl_verdict_point_sentence(const struct verdict_ctx *c, const struct wl_result *best,
			       const struct wl_result *slowest, const struct wl_result *reference, const json_t *tied,
			       char *buf, size_t len)
{
	char f[256], r[128], w[256];

	buf[0] = '\0';
	if (!best) {
		wl_verdict_put(buf, len, "No verified result here.");
		return;
	}
	tied_text(c, tied, w, sizeof(w));
	wl_verdict_put(buf, len, "%s fastest%s", variant_of(c, best), w);
	factors_text(c, best, slowest, reference, f, sizeof(f));
	rate_text(c, best, r, sizeof(r));
	wl_verdict_put(buf, len, "%s%s%s", f, r[0] ? "; " : "", r);
	if (!cites(best, NULL)) {
		char words[512];

		wl_trust_words(&best->trust, NULL, words, sizeof(words));
		wl_verdict_put(buf, len, "; %s", words);
	} else if (binding_of(best)) {
		wl_verdict_put(buf, len, "; bound by %s", wl_ceiling_words(binding_of(best)));
	}
	wl_verdict_put(buf, len, ".");
}

void wl_verdict_run_sentence(const struct verdict_ctx *c, const json_t *headline, const struct wl_result *best,
			     const struct wl_result *slowest, const struct wl_result *reference,
			     const struct wl_verdict_wins *won, char *buf, size_t len)
{
	char at[256], f[256], r[128], why[1024], w[256];
	int wins = won->wins, judged = won->judged;
	const json_t *t;
	size_t i;

	buf[0] = '\0';
	if (!best) {
		wl_verdict_put(buf, len, c->so_far ? "No verified result yet." : "No result verified: there is no winner.");
		return;
	}
	wl_verdict_point_text(c, json_object_get(headline, "params"), at, sizeof(at));
	wl_verdict_cover_text(c, w, sizeof(w));
	wl_verdict_put(buf, len, "%s%s is the fastest", w, variant_of(c, best));
	tied_text(c, json_object_get(headline, "tied"), w, sizeof(w));
	if (judged > 1 && wins == judged && won->apart == judged) {
		wl_verdict_put(buf, len, " at every point%s", w);
	} else if (judged > 1 && wins == judged) {
		/* "At every point" only where it is so beyond noise. */
		wl_verdict_put(buf, len, " at every point, beyond noise at %d of %d%s%s%s", won->apart, judged, w,
		    w[0] && at[0] ? " at " : "", w[0] ? at : "");
	} else if (judged > 1) {
		wl_verdict_put(buf, len, " at %d of %d points", wins, judged);
		if (won->other)
			wl_verdict_put(buf, len, " (%s at %d)", title_of(c, won->other), won->other_wins);
		wl_verdict_put(buf, len, "%s", w);
	} else {
		wl_verdict_put(buf, len, "%s%s%s", at[0] ? " at " : "", at, w);
	}
	factors_text(c, best, slowest, reference, f, sizeof(f));
	rate_text(c, best, r, sizeof(r));
	wl_verdict_put(buf, len, ". %s%s%s %s%s.", judged > 1 && at[0] ? "At " : "", judged > 1 && at[0] ? at : "",
	    judged > 1 && at[0] ? " it reaches" : "It reaches", r[0] ? r : "its time", f);
	wl_verdict_reason_text(c, best, slowest, why, sizeof(why));
	wl_verdict_put(buf, len, "%s%s", why, cpu_words(c));
	frugal_text(c, json_object_get(headline, "frugal"), variant_of(c, best), why, sizeof(why));
	wl_verdict_put(buf, len, "%s", why);
	json_array_foreach(json_object_get(headline, "unverified_faster"), i, t)
		wl_verdict_put(buf, len, " %s was faster there but did not verify.", title_of(c, json_string_value(t)));
}

void wl_verdict_sweep_sentence(const struct verdict_ctx *c, const struct wl_result *hi, const struct wl_result *lo,
			       char *buf, size_t len)
{
	char at_hi[256], at_lo[256], r[128], v[32], f[32];

	buf[0] = '\0';
	if (!hi) {
		wl_verdict_put(buf, len, c->so_far ? "No verified result yet." : "No result verified.");
		return;
	}
	wl_verdict_point_text(c, hi->params, at_hi, sizeof(at_hi));
	wl_verdict_point_text(c, lo ? lo->params : NULL, at_lo, sizeof(at_lo));
	rate_text(c, hi, r, sizeof(r));
	wl_verdict_cover_text(c, v, sizeof(v));
	wl_verdict_put(buf, len, "%s%s reaches %s%s%s", v, variant_of(c, hi), r, at_hi[0] ? " at " : "", at_hi);
	if (lo && lo != hi && zero(wl_result_rate(c->run, lo)) > 0) {
		double k = zero(wl_result_rate(c->run, hi)) / zero(wl_result_rate(c->run, lo));

		fmt_value(zero(wl_result_rate(c->run, lo)), v, sizeof(v));
		if (wl_result_verdict(c->run, hi, lo, 1, c->min_change) == WL_SAME) {
			wl_verdict_put(buf, len, "; at %s it is within noise of that (%s %s)", at_lo, v, c->unit);
		} else if (k < 1.1) {
			wl_verdict_put(buf, len, "; at %s it is %.0f%% slower (%s %s)", at_lo, 100 * (1 - 1 / k), v, c->unit);
		} else {
			wl_verdict_factor_text(k, f, sizeof(f));
			wl_verdict_put(buf, len, ", %s the rate at %s (%s %s)", f, at_lo, v, c->unit);
		}
	}
	wl_verdict_put(buf, len, ".");
	if (!cites(hi, lo && lo != hi ? lo : NULL)) {
		char why[768];

		trust_sentence(hi, at_hi[0] ? at_hi : variant_of(c, hi), lo, at_lo[0] ? at_lo : NULL, why, sizeof(why));
		wl_verdict_put(buf, len, "%s", why);
	} else if (binding_of(hi)) {
		const char *b = binding_of(hi), *s = lo && lo != hi ? binding_of(lo) : NULL;
		char pattern[96] = "";

		if (s)
			pattern_of(lo, hi, pattern, sizeof(pattern));
		if (s && strcmp(s, b) == 0)
			wl_verdict_put(buf, len, " In the model, both are bound by %s%s%s%s%s", wl_ceiling_words(b),
			    pattern[0] ? "; at " : "", pattern[0] ? at_lo : "", pattern[0] ? ", " : "",
			    pattern);
		else
			wl_verdict_put(buf, len, " In the model, %s is bound by %s%s%s%s%s%s%s", at_hi[0] ? at_hi : "it",
			    wl_ceiling_words(b), s ? "; " : "", s ? at_lo : "", s ? " by " : "", s ? wl_ceiling_words(s) : "",
			    pattern[0] ? " with " : "", pattern);
		wl_verdict_put(buf, len, ".");
	}
	wl_verdict_put(buf, len, "%s", cpu_words(c));
}

void wl_verdict_ctx(const struct wl_run *run, struct verdict_ctx *out)
{
	const json_t *first = run->nresults ? run->results[0].params : NULL, *v;
	const char *key;

	memset(out, 0, sizeof(*out));
	out->run = run;
	out->metric = wl_run_metric(run);
	out->unit = run->exp && run->exp->metric == WL_METRIC_THROUGHPUT ? "Gop/s" : "GB/s";
	/* The noise target, or its default where the request has none. */
	out->min_change = run->settings.noise;
	out->so_far = run->status == WL_RUN_QUEUED || run->status == WL_RUN_RUNNING;
	out->ended = run->status == WL_RUN_CANCELLED ? "Cancelled" : run->status == WL_RUN_FAILED ? "Failed" : NULL;
	/* The request's measurements are its points times its variants. */
	if (run->nvariants > 0)
		out->points_total = (int)(json_integer_value(json_object_get(json_object_get(run->json, "progress"),
									      "total")) / (json_int_t)run->nvariants);
	json_object_foreach((json_t *)first, key, v) {
		int varies = 0;

		for (size_t i = 0; i < run->nresults; i++)
			varies |= !json_equal(json_object_get(run->results[i].params, key), v);
		if (varies && out->nswept < VERDICT_SWEPT_MAX)
			out->swept[out->nswept++] = key;
	}
}

void wl_verdict_cover_text(const struct verdict_ctx *c, char *out, size_t len)
{
	int short_of = c->points_total > c->points_seen && c->points_seen > 0;

	out[0] = '\0';
	if (c->so_far && short_of)
		snprintf(out, len, "So far, at %d of %d points, ", c->points_seen, c->points_total);
	else if (c->so_far)
		snprintf(out, len, "So far, ");
	else if (c->ended && short_of)
		snprintf(out, len, "%s after %d of %d points: ", c->ended, c->points_seen, c->points_total);
}
