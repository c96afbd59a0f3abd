/* The compare page's first sentences (see analysis.h, wl_compare_pairs): each
 * run after the first against the first — what differs between them, and
 * what moved beyond noise in the rows both measured, by how much — from the
 * verdicts wl_compare gave the rows' cells. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict_words.h"

static const char *language_of(const struct wl_run *r)
{
	return r->settings.language == WL_LANG_CUDA ? "CUDA" : "OpenCL";
}

/* The device's name where the run has one, else its id, else "?". */
static const char *device_of(const struct wl_run *r)
{
	const char *name = json_string_value(json_object_get(r->device, "name"));

	return name ? name : r->device_id ? r->device_id : "?";
}

/* The params of a's request whose values differ from b's, as "n, tile". */
static void params_differ(const struct wl_run *a, const struct wl_run *b, char *out, size_t len)
{
	const json_t *pa = json_object_get(json_object_get(a->json, "request"), "params");
	const json_t *pb = json_object_get(json_object_get(b->json, "request"), "params");
	const char *key;
	json_t *v;

	out[0] = '\0';
	json_object_foreach((json_t *)pa, key, v)
		if (!json_equal(v, json_object_get(pb, key)))
			wl_verdict_put(out, len, "%s%s", out[0] ? ", " : "", key);
	json_object_foreach((json_t *)pb, key, v)
		if (!json_object_get(pa, key))
			wl_verdict_put(out, len, "%s%s", out[0] ? ", " : "", key);
}

/* What differs between run and base, into differs (a list of the names:
 * "experiment", "device", "language", "source", "cache", "params") and
 * words ("on X rather than Y; in CUDA rather than OpenCL"). */
static int what_differs(const struct wl_run *run, const struct wl_run *base, json_t *differs, char *words, size_t len)
{
	char params[256];

	words[0] = '\0';
	if (run->experiment && base->experiment && strcmp(run->experiment, base->experiment) != 0) {
		wl_verdict_put(words, len, "%s%s rather than %s", words[0] ? "; " : "", run->experiment, base->experiment);
		json_array_append_new(differs, json_string("experiment"));
	}
	if (run->device_id && base->device_id && strcmp(run->device_id, base->device_id) != 0) {
		wl_verdict_put(words, len, "%son %s rather than %s", words[0] ? "; " : "", device_of(run), device_of(base));
		json_array_append_new(differs, json_string("device"));
	}
	if (run->settings.language != base->settings.language) {
		wl_verdict_put(words, len, "%sin %s rather than %s", words[0] ? "; " : "", language_of(run), language_of(base));
		json_array_append_new(differs, json_string("language"));
	}
	if (run->source_hash && base->source_hash && strcmp(run->source_hash, base->source_hash) != 0) {
		wl_verdict_put(words, len, "%sbuilt from other kernel sources", words[0] ? "; " : "");
		json_array_append_new(differs, json_string("source"));
	}
	if (run->settings.cache != base->settings.cache) {
		wl_verdict_put(words, len, "%s%s rather than %s", words[0] ? "; " : "", wl_cache_mode_name(run->settings.cache),
		    wl_cache_mode_name(base->settings.cache));
		json_array_append_new(differs, json_string("cache"));
	}
	params_differ(run, base, params, sizeof(params));
	if (params[0]) {
		wl_verdict_put(words, len, "%sother values of %s", words[0] ? "; " : "", params);
		json_array_append_new(differs, json_string("params"));
	}
	return 0;
}

/* The row's cell of run id, or NULL. */
static const json_t *cell_of(const json_t *row, long long id)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(row, "cells"), i, c)
		if (json_integer_value(json_object_get(c, "run")) == id)
			return c;
	return NULL;
}

/* "padded at n = 4096" of a row. */
static void row_words(const json_t *row, char *out, size_t len)
{
	const char *key;
	json_t *v;

	snprintf(out, len, "%s", json_string_value(json_object_get(row, "variant")));
	json_object_foreach(json_object_get(row, "params"), key, v)
		if (json_is_integer(v))
			wl_verdict_put(out, len, "%s%s = %lld", strchr(out, '=') ? ", " : " at ", key, (long long)json_integer_value(v));
}

/* Of the rows where run and the first both have a judged time: how many
 * are faster, slower and the same, and the row that moved most each way
 * (its change of time in %). */
struct moves {
	int faster, slower, same;
	const json_t *most_faster, *most_slower;
	double faster_pct, slower_pct;
};

static void count_moves(const json_t *rows, long long id, struct moves *m)
{
	const json_t *row;
	size_t i;

	memset(m, 0, sizeof(*m));
	json_array_foreach(rows, i, row) {
		const json_t *c = cell_of(row, id);
		const char *v = json_string_value(json_object_get(c, "verdict"));
		double pct = json_number_value(json_object_get(c, "change_pct"));

		if (!v)
			continue;
		if (strcmp(v, "faster") == 0) {
			m->faster++;
			if (!m->most_faster || pct < m->faster_pct) {
				m->most_faster = row;
				m->faster_pct = pct;
			}
		} else if (strcmp(v, "slower") == 0) {
			m->slower++;
			if (!m->most_slower || pct > m->slower_pct) {
				m->most_slower = row;
				m->slower_pct = pct;
			}
		} else {
			m->same++;
		}
	}
}

/* " (padded at n = 4096 most: 2.0× faster)" of the row that moved most. */
static void most_words(const json_t *row, double pct, int faster, char *out, size_t len)
{
	char where[160];
	double factor = faster ? 100 / (100 + pct) : (100 + pct) / 100;

	out[0] = '\0';
	if (!row || !(factor > 0) || isinf(factor))
		return;
	row_words(row, where, sizeof(where));
	snprintf(out, len, " (%s most: %.*f× %s)", where, factor < 9.95 ? 2 : 0, factor, faster ? "faster" : "slower");
}

/* One pair's sentence into out. */
static void pair_sentence(const struct wl_run *run, const struct wl_run *base, const char *differs,
			  const struct moves *m, char *out, size_t len)
{
	int judged = m->faster + m->slower + m->same;
	char most[256];

	snprintf(out, len, "#%lld against #%lld: %s. ", run->id, base->id,
		 differs[0] ? differs : "the same device, language, sources, cache mode and params");
	if (judged == 0) {
		wl_verdict_put(out, len, "They have no verified point in common to compare.");
		return;
	}
	if (m->faster == 0 && m->slower == 0) {
		wl_verdict_put(out, len, "%s %d row%s both measured %s within noise: nothing moved.", judged == 1 ? "The" : "All",
		    judged, judged == 1 ? "" : "s", judged == 1 ? "is" : "are");
		return;
	}
	wl_verdict_put(out, len, "Of the %d row%s both measured, ", judged, judged == 1 ? "" : "s");
	if (m->faster) {
		most_words(m->most_faster, m->faster_pct, 1, most, sizeof(most));
		wl_verdict_put(out, len, "%d %s faster beyond noise%s", m->faster, m->faster == 1 ? "is" : "are", most);
	}
	if (m->slower) {
		most_words(m->most_slower, m->slower_pct, 0, most, sizeof(most));
		wl_verdict_put(out, len, "%s%d %s slower%s%s", m->faster ? (m->same ? ", " : " and ") : "", m->slower,
		    m->slower == 1 ? "is" : "are", m->faster ? "" : " beyond noise", most);
	}
	if (m->same)
		wl_verdict_put(out, len, " and %d %s within noise", m->same, m->same == 1 ? "is" : "are");
	wl_verdict_put(out, len, ".");
}

json_t *wl_compare_pairs(const struct wl_run *runs, size_t n, const json_t *rows)
{
	json_t *list = json_array();

	for (size_t k = 1; list && k < n; k++) {
		json_t *differs = json_array(), *one;
		char words[1024], sentence[2048];
		struct moves m;

		if (!differs || what_differs(&runs[k], &runs[0], differs, words, sizeof(words)) < 0) {
			json_decref(differs);
			json_decref(list);
			return NULL;
		}
		count_moves(rows, runs[k].id, &m);
		pair_sentence(&runs[k], &runs[0], words, &m, sentence, sizeof(sentence));
		one = json_pack("{s:I, s:I, s:o, s:i, s:i, s:i, s:s}", "run", (json_int_t)runs[k].id, "against",
				(json_int_t)runs[0].id, "differs", differs, "faster", m.faster, "slower", m.slower,
				"same", m.same, "sentence", sentence);
		if (!one || json_array_append_new(list, one) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}
