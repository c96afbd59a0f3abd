/* Who won a run, by how much and why (see analysis.h, wl_run_add_verdict). */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict_custom.h"
#include "verdict_words.h"

#define ENTRIES_MAX 64		/* variants at one point: the built-ins and the custom kernels */

/* One result at a point. */
struct entry {
	const struct wl_result *r;
	const char *variant;
	double ms, lo, hi;
	int timed;		/* verified, with a positive median: it may win */
	double energy;		/* per unit of work (wl_result_energy), -1: none */
	const char *energy_key;	/* which figure energy is */
};

/* The results at one point, and its judgement. */
struct point {
	const json_t *params;
	struct entry e[ENTRIES_MAX];
	int n;
	int best, slowest, reference;	/* indices into e, -1: none */
	int frugal;			/* uses less energy than best beyond noise, -1: none */
	int apart;
	double work;			/* bytes or operations: the headline is the point of most */
};

static struct point *point_of(struct point *pts, size_t *n, const json_t *params)
{
	for (size_t i = 0; i < *n; i++)
		if (json_equal(pts[i].params, params))
			return &pts[i];
	memset(&pts[*n], 0, sizeof(pts[*n]));
	pts[*n].params = params;
	return &pts[(*n)++];
}

/* The results of run grouped by point, in first-seen order; NULL when out
 * of memory (and *n 0 for a run without results). */
static struct point *group(const struct wl_run *run, size_t *n)
{
	int ops = run->exp && run->exp->metric == WL_METRIC_THROUGHPUT;
	struct point *pts = calloc(run->nresults + 1, sizeof(*pts));

	*n = 0;
	for (size_t i = 0; pts && i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];
		double work = ops ? r->ops : r->bytes;
		struct point *p = point_of(pts, n, r->params);
		struct entry *e;

		if (p->n == ENTRIES_MAX)
			continue;
		e = &p->e[p->n++];
		e->r = r;
		e->variant = r->variant;
		e->ms = isnan(r->median_ms) ? 0 : r->median_ms;
		e->lo = isnan(r->ci_low_ms) ? e->ms : r->ci_low_ms;
		e->hi = isnan(r->ci_high_ms) ? e->ms : r->ci_high_ms;
		e->timed = r->verified && e->ms > 0 && e->variant;
		e->energy = r->energy_per_work;
		e->energy_key = r->energy_key;
		if (!isnan(work) && work > p->work)
			p->work = work;
	}
	return pts;
}

/* Of p's verified results, the one of least energy per unit of work when
 * it is not the fastest and uses less than the fastest by more than the
 * energy's noise; -1 otherwise, and where the fastest has no energy. */
static int frugal_of(const struct point *p)
{
	const struct entry *best = p->best >= 0 ? &p->e[p->best] : NULL;
	int low = p->best;

	if (!best || best->energy <= 0)
		return -1;
	for (int i = 0; i < p->n; i++)
		if (p->e[i].timed && p->e[i].energy > 0 && strcmp(p->e[i].energy_key, best->energy_key) == 0 &&
		    p->e[i].energy < p->e[low].energy)
			low = i;
	return low != p->best && p->e[low].energy < best->energy * (1 - WL_ENERGY_NOISE) ? low : -1;
}

/* The point's frugal variant as JSON ({"variant", "figure", "value",
 * "fastest_value", "less_pct"}), or null where it has none. */
static json_t *frugal_json(const struct point *p)
{
	const struct entry *f = p->frugal >= 0 ? &p->e[p->frugal] : NULL, *best = f ? &p->e[p->best] : NULL;

	if (!f)
		return json_null();
	return json_pack("{s:s, s:s, s:f, s:f, s:f}", "variant", f->variant, "figure", f->energy_key, "value",
			 f->energy, "fastest_value", best->energy, "less_pct",
			 100 * (best->energy - f->energy) / best->energy);
}

/* The point's fastest, slowest and reference, and whether the fastest is
 * apart from every other by the compare page's rule. */
static void judge(const struct wl_experiment *exp, struct point *p, double min_change)
{
	const char *ref = exp && exp->reference >= 0 ? exp->variants[exp->reference].id : NULL;

	p->best = p->slowest = p->reference = -1;
	for (int i = 0; i < p->n; i++) {
		if (!p->e[i].timed)
			continue;
		if (p->best < 0 || p->e[i].ms < p->e[p->best].ms)
			p->best = i;
		if (p->slowest < 0 || p->e[i].ms > p->e[p->slowest].ms)
			p->slowest = i;
		if (ref && strcmp(p->e[i].variant, ref) == 0)
			p->reference = i;
	}
	p->apart = p->best >= 0;
	for (int i = 0; p->best >= 0 && i < p->n; i++)
		if (i != p->best && p->e[i].timed &&
		    wl_time_verdict(p->e[p->best].ms, p->e[p->best].lo, p->e[p->best].hi, p->e[i].ms, p->e[i].lo,
				    p->e[i].hi, min_change) != WL_FASTER)
			p->apart = 0;
	p->frugal = frugal_of(p);
}

/* The point's judgement as JSON, with its sentence. */
static json_t *point_json(const struct verdict_ctx *c, const struct point *p)
{
	json_t *tied = json_array(), *faster = json_array(), *o;
	const struct entry *best = p->best >= 0 ? &p->e[p->best] : NULL;
	const char *binding = best ? best->r->binding : NULL;
	char text[1024];

	for (int i = 0; best && tied && faster && i < p->n; i++) {
		const struct entry *e = &p->e[i];

		if (i != p->best && e->timed &&
		    wl_time_verdict(best->ms, best->lo, best->hi, e->ms, e->lo, e->hi, c->min_change) == WL_SAME)
			json_array_append_new(tied, json_string(e->variant));
		if (!e->timed && e->ms > 0 && e->ms < best->ms && e->variant)
			json_array_append_new(faster, json_string(e->variant));
	}
	wl_verdict_point_sentence(c, best ? best->r : NULL, p->slowest >= 0 ? p->e[p->slowest].r : NULL,
				  p->reference >= 0 ? p->e[p->reference].r : NULL, tied, text, sizeof(text));
	o = json_pack("{s:O, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}", "params", p->params,
		      "fastest", best ? json_string(best->variant) : json_null(), "apart", p->apart && best,
		      "tied", tied ? tied : json_array(),
		      "slowest", p->slowest >= 0 && p->slowest != p->best ? json_string(p->e[p->slowest].variant) : json_null(),
		      "slowest_factor", p->slowest >= 0 && p->slowest != p->best ?
				json_real(p->e[p->slowest].ms / best->ms) : json_null(),
		      "reference", p->reference >= 0 && p->reference != p->best ?
				json_pack("{s:s, s:f}", "variant", p->e[p->reference].variant, "factor",
					  p->e[p->reference].ms / best->ms) : json_null(),
		      "ceiling_pct", best && !isnan(best->r->ceiling_pct) ? json_real(best->r->ceiling_pct) : json_null(),
		      "binding", binding ? json_string(binding) : json_null(),
		      "unverified_faster", faster ? faster : json_array(), "sentence", text);
	if (o && json_object_set_new(o, "frugal", frugal_json(p)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Into w: the variant other than winner that won the most points, and how
 * many (the first of equals; none where winner won them all). */
static void runner_up(const struct point *pts, size_t n, const char *winner, struct wl_verdict_wins *w)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = pts[i].best >= 0 ? pts[i].e[pts[i].best].variant : NULL;
		int count = 0;

		if (!v || strcmp(v, winner) == 0)
			continue;
		for (size_t j = 0; j < n; j++)
			count += pts[j].best >= 0 && strcmp(pts[j].e[pts[j].best].variant, v) == 0;
		if (count > w->other_wins) {
			w->other = v;
			w->other_wins = count;
		}
	}
}

/* The run's sentence: about its headline point (h, whose judgement is
 * headline) where several variants compete, else over the one variant's
 * points by rate. */
static void run_sentence(const struct verdict_ctx *c, const struct point *pts, size_t n, size_t h,
			 const json_t *headline, char *buf, size_t len)
{
	const struct point *p = &pts[h];
	const struct wl_result *hi = NULL, *lo = NULL;
	int wins = 0, judged = 0, competing = 0, apart = 0;

	for (size_t i = 0; i < n; i++) {
		int timed = 0;

		for (int k = 0; k < pts[i].n; k++)
			timed += pts[i].e[k].timed;
		competing |= timed > 1;
		if (pts[i].best >= 0 && p->best >= 0) {
			judged++;
			if (strcmp(pts[i].e[pts[i].best].variant, p->e[p->best].variant) == 0) {
				wins++;
				apart += pts[i].apart;
			}
		}
	}
	if (competing || n == 1) {
		struct wl_verdict_wins w = { wins, judged, NULL, 0, apart };

		if (p->best >= 0)
			runner_up(pts, n, p->e[p->best].variant, &w);
		wl_verdict_run_sentence(c, headline, p->best >= 0 ? p->e[p->best].r : NULL,
					p->slowest >= 0 ? p->e[p->slowest].r : NULL,
					p->reference >= 0 ? p->e[p->reference].r : NULL, &w, buf, len);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct wl_result *r = pts[i].best >= 0 ? pts[i].e[pts[i].best].r : NULL;
		double rate = r ? wl_result_rate(c->run, r) : NAN;

		if (isnan(rate))
			continue;
		if (!hi || rate > wl_result_rate(c->run, hi))
			hi = r;
		if (!lo || rate < wl_result_rate(c->run, lo))
			lo = r;
	}
	wl_verdict_sweep_sentence(c, hi, lo, buf, len);
}

/* The point of most work (the last of equals): the one a reader asks about. */
static size_t headline_of(const struct point *pts, size_t n)
{
	size_t h = 0;

	for (size_t i = 0; i < n; i++)
		if (pts[i].best >= 0 && (pts[h].best < 0 || pts[i].work >= pts[h].work))
			h = i;
	return h;
}

int wl_run_add_verdict(struct wl_run *run)
{
	struct verdict_ctx c;
	struct point *pts;
	json_t *list = NULL, *o = NULL, *customs = NULL;
	size_t n, h;
	char text[4096];
	int rc = -1;

	wl_verdict_ctx(run, &c);
	pts = group(run, &n);
	if (!pts)
		return -1;
	if (n == 0) {
		free(pts);
		return json_object_set_new(run->json, "verdict", json_null());
	}
	c.points_seen = (int)n;
	for (size_t i = 0; i < n; i++)
		judge(run->exp, &pts[i], c.min_change);
	h = headline_of(pts, n);
	list = json_array();
	for (size_t i = 0; list && i < n; i++)
		if (json_array_append_new(list, point_json(&c, &pts[i])) < 0)
			goto out;
	if (!list)
		goto out;
	run_sentence(&c, pts, n, h, json_array_get(list, h), text, sizeof(text));
	/* A user who added a kernel asks first whether it beat its like. */
	if (!(customs = wl_verdict_customs(&c, pts[h].params, text, sizeof(text))))
		goto out;
	o = json_pack("{s:s, s:b, s:o, s:O, s:O, s:O, s:O, s:i, s:o}", "sentence", text, "so_far", c.so_far, "fastest",
		      pts[h].best >= 0 ? json_string(pts[h].e[pts[h].best].variant) : json_null(), "headline",
		      pts[h].params, "frugal", json_object_get(json_array_get(list, h), "frugal"), "points", list,
		      "custom", customs, "points_seen", (int)n, "points_total",
		      c.points_total > 0 ? json_integer(c.points_total) : json_null());
	if (o) {
		/* The run holds it from here, set or not. */
		rc = json_object_set_new(run->json, "verdict", o) == 0 ? 0 : -1;
		o = NULL;
	}
out:
	json_decref(o);
	json_decref(list);
	json_decref(customs);
	free(pts);
	return rc;
}
