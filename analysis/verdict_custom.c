/* Each custom kernel against the variant it is like (see verdict_custom.h). */
#include "verdict_custom.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* variant's result at params, or NULL. */
static const struct wl_result *at(const struct wl_run *run, const char *variant, const json_t *params)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];

		if (r->variant && strcmp(r->variant, variant) == 0 && json_equal(r->params, params))
			return r;
	}
	return NULL;
}

/* Whether r has a time that stands. */
static int timed(const struct wl_result *r)
{
	return r && r->verified && !isnan(r->median_ms) && r->median_ms > 0;
}

/* The kernel's result to judge: at the headline's params where it has a
 * time there, else its last with a time, else its first with an error. */
static const struct wl_result *judged(const struct wl_run *run, const char *kernel, const json_t *headline)
{
	const struct wl_result *r = at(run, kernel, headline), *last = NULL, *failed = NULL;

	if (timed(r))
		return r;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct wl_result *o = &run->results[i];

		if (!o->variant || strcmp(o->variant, kernel) != 0)
			continue;
		if (timed(o))
			last = o;
		else if (!failed && o->error)
			failed = o;
	}
	return last ? last : failed ? failed : r;
}

/* The first line of text, at most 160 bytes of it, into out. */
static void first_line(const char *text, char *out, size_t len)
{
	size_t n = strcspn(text ? text : "", "\n");

	snprintf(out, len, "%.*s", (int)(n < 160 ? n : 160), text ? text : "");
}

/* One kernel's judgement as JSON, its sentence appended to sentence. */
static json_t *judge_one(const struct verdict_ctx *c, const struct wl_run_kernel *k, const json_t *headline,
			 char *sentence, size_t len)
{
	const struct wl_result *mine = judged(c->run, k->name, headline);
	const struct wl_result *like = mine ? at(c->run, k->like, mine->params) : NULL;
	const char *outcome;
	char where[160] = "", f[16], line[200], said[1600] = "";
	double factor = NAN;

	if (mine)
		wl_verdict_point_text(c, mine->params, where, sizeof(where));
	if (!mine || isnan(mine->median_ms) || mine->median_ms <= 0) {
		outcome = "failed";
		first_line(mine ? mine->error : "it has no result", line, sizeof(line));
		wl_verdict_put(said, sizeof(said), " Your kernel %s %s: %s.", k->name,
		    mine && mine->error && strstr(mine->error, "did not build") ? "did not build" : "failed", line);
	} else if (!mine->verified) {
		outcome = "unverified";
		first_line(mine->error, line, sizeof(line));
		wl_verdict_put(said, sizeof(said), " Your kernel %s ran but its output is not %s's%s%s: %s.", k->name, k->like,
		    where[0] ? " at " : "", where, line);
	} else if (!timed(like)) {
		outcome = "alone";
		wl_verdict_put(said, sizeof(said), " Your kernel %s has no time of %s, the variant it is like, to be judged against%s%s.",
		    k->name, k->like, where[0] ? " at " : "", where);
	} else {
		enum wl_verdict v = wl_time_verdict(mine->median_ms, mine->ci_low_ms, mine->ci_high_ms, like->median_ms,
						    like->ci_low_ms, like->ci_high_ms, c->min_change);

		factor = like->median_ms / mine->median_ms;
		outcome = v == WL_FASTER ? "faster" : v == WL_SLOWER ? "slower" : "same";
		wl_verdict_factor_text(v == WL_SLOWER ? 1 / factor : factor, f, sizeof(f));
		if (v == WL_SAME)
			wl_verdict_put(said, sizeof(said), " Your kernel %s is within noise of %s, the variant it is like%s%s.", k->name,
			    k->like, where[0] ? ", at " : "", where);
		else
			wl_verdict_put(said, sizeof(said), " Your kernel %s is %s %s than %s, the variant it is like%s%s.", k->name, f,
			    v == WL_FASTER ? "faster" : "slower", k->like, where[0] ? ", at " : "", where);
		/* Why, where the model may say: the faster of the two first. */
		if (v != WL_SAME) {
			char why[1024];

			wl_verdict_reason_text(c, v == WL_FASTER ? mine : like, v == WL_FASTER ? like : mine, why, sizeof(why));
			wl_verdict_put(said, sizeof(said), "%s", why);
		}
	}
	wl_verdict_put(sentence, len, "%s", said);
	return json_pack("{s:s, s:s, s:s, s:o, s:O, s:s}", "kernel", k->name, "like", k->like, "outcome", outcome,
			 "factor", isnan(factor) ? json_null() : json_real(factor), "params",
			 mine ? mine->params : json_null(), "sentence", said[0] == ' ' ? said + 1 : said);
}

json_t *wl_verdict_customs(const struct verdict_ctx *c, const json_t *headline, char *sentence, size_t len)
{
	json_t *list = json_array();

	for (size_t i = 0; list && i < c->run->nkernels; i++) {
		const struct wl_run_kernel *k = &c->run->kernels[i];
		json_t *one;

		if (!k->name || !k->like)
			continue;
		if (!(one = judge_one(c, k, headline, sentence, len)) || json_array_append_new(list, one) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}
