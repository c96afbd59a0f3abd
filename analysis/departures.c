/* The model's departures listed over a whole run (see analysis.h,
 * wl_run_add_departures): each point's departure sentence is made where it
 * is predicted and worded by the trust rule (model_trust.h: beyond 2× the
 * model names no cause, at any point of any variant); here the points that
 * share a sentence are gathered into one entry per variant, direction and
 * sentence, over the swept values where it is said, with the range of its
 * factor. The rule is the server's; the page lists what it is given. */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THAN " than predicted"

/* A departing result: its ratio (measured pace over predicted, above 1
 * faster) and its words after the factor. */
struct dep {
	const struct wl_result *r;
	double ratio;
	const char *tail;
};

static int slower(const struct dep *d)
{
	return d->ratio < 1;
}

static double factor(const struct dep *d)
{
	return d->ratio >= 1 ? d->ratio : 1 / d->ratio;
}

/* Whether param key takes more than one value over the run's results. */
static int varies(const struct wl_run *run, const char *key)
{
	for (size_t i = 1; i < run->nresults; i++)
		if (!json_equal(json_object_get(run->results[i].params, key), json_object_get(run->results[0].params, key)))
			return 1;
	return 0;
}

/* The first param of the run's experiment whose value varies, or NULL. */
static const char *swept_param(const struct wl_run *run)
{
	for (size_t k = 0; run->exp && k < run->exp->nparams; k++)
		if (varies(run, run->exp->params[k].name))
			return run->exp->params[k].name;
	return NULL;
}

/* Whether a and b are at the same point, the swept param aside (NULL: none
 * aside). */
static int same_but(const struct wl_result *a, const struct wl_result *b, const char *swept)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)a->params, key, v)
		if ((!swept || strcmp(key, swept) != 0) && !json_equal(v, json_object_get(b->params, key)))
			return 0;
	return json_object_size(a->params) == json_object_size(b->params);
}

static int same_variant(const struct wl_result *a, const struct wl_result *b)
{
	return strcmp(a->variant ?: "", b->variant ?: "") == 0;
}

/* d's words read from its result's departure; 0, or -1 where it has none. */
static int read_dep(struct dep *d)
{
	const json_t *p = json_object_get(d->r->json, "prediction");
	const char *text = json_string_value(json_object_get(p, "departure"));

	d->ratio = json_number_value(json_object_get(p, "ratio"));
	d->tail = text ? strstr(text, THAN) : NULL;
	if (!d->tail || !(d->ratio > 0))
		return -1;
	d->tail += strlen(THAN);
	return 0;
}

/* The departing results whose time stands into deps; how many. */
static size_t collect(const struct wl_run *run, struct dep *deps)
{
	size_t n = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		struct dep *d = &deps[n];

		d->r = &run->results[i];
		if ((d->r->verified || d->r->unchecked) && read_dep(d) == 0)
			n++;
	}
	return n;
}

/* Whether a and b are one entry of the list: one variant, one direction,
 * one sentence and the same point but for the swept value. */
static int one_entry(const struct dep *a, const struct dep *b, const char *swept)
{
	return same_variant(a->r, b->r) && slower(a) == slower(b) && strcmp(a->tail, b->tail) == 0 &&
	       same_but(a->r, b->r, swept);
}

static int by_x(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;

	return json_integer_value(x) < json_integer_value(y) ? -1 : json_integer_value(x) > json_integer_value(y);
}

/* The entry of deps[first] and every later one of its kind (marked in
 * used): {"variant", "direction", "param", "at", "where" (the other params
 * that vary over the run), "factor": [low, high], "sentence"}; NULL when
 * out of memory. */
static json_t *entry(const struct wl_run *run, const struct dep *deps, size_t n, size_t first, const char *swept,
		     unsigned char *used)
{
	const struct dep *d = &deps[first];
	json_t *at = json_array(), *where = json_object(), *sorted[256];
	double lo = factor(d), hi = factor(d);
	char words[1600];
	const char *key;
	json_t *v;
	size_t count = 0;

	for (size_t i = first; at && i < n; i++) {
		if (used[i] || !one_entry(d, &deps[i], swept))
			continue;
		used[i] = 1;
		lo = factor(&deps[i]) < lo ? factor(&deps[i]) : lo;
		hi = factor(&deps[i]) > hi ? factor(&deps[i]) : hi;
		if (swept && count < sizeof(sorted) / sizeof(*sorted))
			sorted[count++] = json_object_get(deps[i].r->params, swept);
	}
	qsort(sorted, count, sizeof(*sorted), by_x);
	for (size_t i = 0; at && i < count; i++)
		if (json_array_append(at, sorted[i]) < 0)
			goto oom;
	json_object_foreach((json_t *)d->r->params, key, v)
		if ((!swept || strcmp(key, swept) != 0) && varies(run, key) && json_object_set(where, key, v) < 0)
			goto oom;
	if (lo < hi - 0.05)
		snprintf(words, sizeof(words), "Measured %.1f–%.1f× %s" THAN "%s", lo, hi, slower(d) ? "slower" : "faster",
			 d->tail);
	else
		snprintf(words, sizeof(words), "Measured %.1f× %s" THAN "%s", hi, slower(d) ? "slower" : "faster", d->tail);
	return json_pack("{s:s, s:s, s:s?, s:o, s:o, s:[f, f], s:s}", "variant", d->r->variant ?: "", "direction",
			 slower(d) ? "slower" : "faster", "param", swept, "at", at, "where", where, "factor", lo, hi,
			 "sentence", words);
oom:
	json_decref(at);
	json_decref(where);
	return NULL;
}

int wl_run_add_departures(struct wl_run *run)
{
	const char *swept = swept_param(run);
	struct dep *deps = calloc(run->nresults ? run->nresults : 1, sizeof(*deps));
	unsigned char *used = calloc(run->nresults ? run->nresults : 1, 1);
	json_t *list = json_array();
	size_t n;
	int rc = -1;

	if (!deps || !used || !list)
		goto out;
	n = collect(run, deps);
	for (size_t i = 0; i < n; i++) {
		json_t *e;

		if (used[i])
			continue;
		if (!(e = entry(run, deps, n, i, swept, used)) || json_array_append_new(list, e) < 0)
			goto out;
	}
	rc = json_object_set(run->json, "departures", list) < 0 ? -1 : 0;
out:
	json_decref(list);
	free(used);
	free(deps);
	return rc;
}
