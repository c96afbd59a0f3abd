/* The model's departures listed over a whole run (see analysis.h,
 * wl_run_add_departures). Each point beyond the trust rule's factor gets
 * the rule's sentence (model_trust.h: the model names no cause there, at
 * any point of any variant); the list gathers the points of one variant
 * that depart the same way at the same other params into one entry over
 * the swept values, its sentence worded by the same rule with the range of
 * their factors. The rule is the server's; the page lists what it is
 * given. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "model_trust.h"

/* A departing result and its ratio (measured pace over predicted, above 1
 * faster). */
struct dep {
	const struct wl_result *r;
	double ratio;
};

static int faster(const struct dep *d)
{
	return d->ratio > 1;
}

static double factor(const struct dep *d)
{
	return faster(d) ? d->ratio : 1 / d->ratio;
}

/* Whether a and b hold the same value, both absent counting as one. */
static int same_value(const json_t *a, const json_t *b)
{
	return a == b || json_equal(a, b);
}

/* Whether param key takes more than one value over the run's results. */
static int varies(const struct wl_run *run, const char *key)
{
	for (size_t i = 1; i < run->nresults; i++)
		if (!same_value(json_object_get(run->results[i].params, key), json_object_get(run->results[0].params, key)))
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
		if ((!swept || strcmp(key, swept) != 0) && !same_value(v, json_object_get(b->params, key)))
			return 0;
	return json_object_size(a->params) == json_object_size(b->params);
}

/* The results whose time stands, whose prediction departs and that have a
 * swept value where the run sweeps one, into deps; how many. */
static size_t collect(const struct wl_run *run, const char *swept, struct dep *deps)
{
	size_t n = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];
		const json_t *p = json_object_get(r->json, "prediction");
		double ratio = json_number_value(json_object_get(p, "ratio"));

		if (!r->verified || !json_is_string(json_object_get(p, "departure")) || !(ratio > 0) ||
		    (swept && !json_is_integer(json_object_get(r->params, swept))))
			continue;
		deps[n++] = (struct dep){ .r = r, .ratio = ratio };
	}
	return n;
}

/* Whether a and b are one entry of the list: one variant, one direction and
 * the same point but for the swept value. */
static int one_entry(const struct dep *a, const struct dep *b, const char *swept)
{
	return strcmp(a->r->variant ?: "", b->r->variant ?: "") == 0 && faster(a) == faster(b) &&
	       same_but(a->r, b->r, swept);
}

static int by_value(const void *a, const void *b)
{
	json_int_t x = json_integer_value(*(json_t *const *)a), y = json_integer_value(*(json_t *const *)b);

	return x < y ? -1 : x > y;
}

/* The entry of deps[first] and every later one of its kind (marked in used;
 * values has room for n): {"variant", "direction", "param", "at", "where"
 * (the other params that vary over the run), "factor": [low, high],
 * "sentence"}; NULL when out of memory. */
static json_t *entry(const struct wl_run *run, const struct dep *deps, size_t n, size_t first, const char *swept,
		     unsigned char *used, json_t **values)
{
	const struct dep *d = &deps[first];
	json_t *at = json_array(), *where = json_object();
	double lo = factor(d), hi = factor(d);
	char sentence[512];
	size_t count = 0;
	const char *key;
	json_t *v;

	if (!at || !where)
		goto oom;
	for (size_t i = first; i < n; i++) {
		if (used[i] || !one_entry(d, &deps[i], swept))
			continue;
		used[i] = 1;
		lo = factor(&deps[i]) < lo ? factor(&deps[i]) : lo;
		hi = factor(&deps[i]) > hi ? factor(&deps[i]) : hi;
		values[count++] = swept ? json_object_get(deps[i].r->params, swept) : NULL;
	}
	if (swept)
		qsort(values, count, sizeof(*values), by_value);
	for (size_t i = 0; swept && i < count; i++)
		if (json_array_append(at, values[i]) < 0)
			goto oom;
	json_object_foreach((json_t *)d->r->params, key, v)
		if ((!swept || strcmp(key, swept) != 0) && varies(run, key) && json_object_set(where, key, v) < 0)
			goto oom;
	wl_trust_departures(&d->r->trust, faster(d), lo, hi, count, sentence, sizeof(sentence));
	return json_pack("{s:s, s:s, s:s?, s:o, s:o, s:[f, f], s:s}", "variant", d->r->variant ?: "", "direction",
			 faster(d) ? "faster" : "slower", "param", swept, "at", at, "where", where, "factor", lo, hi,
			 "sentence", sentence);
oom:
	json_decref(at);
	json_decref(where);
	return NULL;
}

int wl_run_add_departures(struct wl_run *run)
{
	const char *swept = swept_param(run);
	size_t room = run->nresults ? run->nresults : 1, n;
	struct dep *deps = calloc(room, sizeof(*deps));
	unsigned char *used = calloc(room, 1);
	json_t **values = calloc(room, sizeof(*values));
	json_t *list = json_array();
	int rc = -1;

	if (!deps || !used || !values || !list)
		goto out;
	n = collect(run, swept, deps);
	for (size_t i = 0; i < n; i++) {
		json_t *e;

		if (used[i])
			continue;
		if (!(e = entry(run, deps, n, i, swept, used, values)) || json_array_append_new(list, e) < 0)
			goto out;
	}
	rc = json_object_set(run->json, "departures", list) < 0 ? -1 : 0;
out:
	json_decref(list);
	free(values);
	free(used);
	free(deps);
	return rc;
}
