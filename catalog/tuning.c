/* A run that tunes (see tuning.h). */
#include "tuning.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "json_strict.h"
#include "param_spec.h"
#include "point_rows.h"

static const char *const strategies[] = { "exhaustive", "random", "model", NULL };
static const char *const objectives[] = { "time", "energy", "both", NULL };

/* exp's param names, in its order, as the expressions resolve them. */
static void param_names(const struct wl_experiment *exp, const char **names)
{
	for (size_t p = 0; p < exp->nparams; p++)
		names[p] = exp->params[p].name;
}

static void known_params(const struct wl_experiment *exp, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t p = 0; p < exp->nparams; p++)
		wl_list_append(buf, len, exp->params[p].name);
}

/* A new empty list as obj's key (obj owns it), or NULL with err when out of
 * memory. */
static json_t *list_in(json_t *obj, const char *key, struct wl_error *err)
{
	json_t *list = json_array();

	if (!list || json_object_set_new(obj, key, list) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	return list;
}

static int validate_restrict(const struct wl_experiment *exp, const json_t *list, json_t *out, struct wl_error *err)
{
	const char *names[64];
	json_t *kept = list_in(out, "restrict", err);
	size_t i;
	json_t *v;

	if (!kept)
		return -1;
	if (!json_is_array(list) || json_array_size(list) > WL_RESTRICT_MAX) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "restrict",
			       "restrict: expected a list of at most %d expressions over the params, got %s",
			       WL_RESTRICT_MAX, json_is_array(list) ? "a longer list" : wl_json_type_name(list));
		return -1;
	}
	param_names(exp, names);
	json_array_foreach(list, i, v) {
		struct wl_expr e;
		struct wl_error why;
		char field[48];

		snprintf(field, sizeof(field), "restrict[%zu]", i);
		if (!json_is_string(v)) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: expected an expression as a string, got %s",
				       field, wl_json_type_name(v));
			return -1;
		}
		if (wl_expr_parse(json_string_value(v), names, (int)exp->nparams, 0, &e, &why) < 0) {
			char known[512];

			known_params(exp, known, sizeof(known));
			wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: %s (names allowed: %s)", field, why.msg,
				       known);
			return -1;
		}
		json_array_append(kept, v);
	}
	return 0;
}

/* "tune.params": each a param of exp, once; their space's size into *space. */
static int validate_tuned(const struct wl_experiment *exp, const json_t *list, const json_t *params,
			  long long max_list, json_t *tune, long long *space, struct wl_error *err)
{
	json_t *names = list_in(tune, "params", err);
	size_t i;
	json_t *v;

	*space = 1;
	if (!names)
		return -1;
	if (!json_is_array(list) || json_array_size(list) == 0) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "tune.params",
			       "tune.params: expected a list of the params to tune (at least one), got %s",
			       json_is_array(list) ? "an empty list" : list ? wl_json_type_name(list) : "nothing");
		return -1;
	}
	json_array_foreach(list, i, v) {
		const char *name = json_string_value(v);
		int p = name ? wl_experiment_param(exp, name) : -1;
		char field[48];
		long long count;

		snprintf(field, sizeof(field), "tune.params[%zu]", i);
		if (p < 0) {
			char known[512];

			known_params(exp, known, sizeof(known));
			wl_error_field(err, WL_ERR_INVALID_PARAM, field, "%s: %s%.64s%s is not a parameter of %s (allowed: %s)",
				       field, name ? "'" : "", name ? name : wl_json_type_name(v), name ? "'" : "",
				       exp->id, known);
			return -1;
		}
		for (size_t k = 0; k < i; k++)
			if (strcmp(json_string_value(json_array_get(names, k)), name) == 0) {
				wl_error_field(err, WL_ERR_INVALID_PARAM, field, "%s: '%s' is tuned twice", field, name);
				return -1;
			}
		if (wl_param_spec_count(&exp->params[p], json_object_get(params, name), max_list, &count, err) < 0)
			return -1;
		json_array_append_new(names, json_string(name));
		*space = *space > WL_TUNE_SPACE_MAX ? *space : *space * count;
	}
	if (*space > WL_TUNE_SPACE_MAX) {
		wl_error_field(err, WL_ERR_TOO_MANY_POINTS, "tune.params",
			       "tune.params: a space of at least %lld configurations at each size, more than the %d a tuning run "
			       "may search", *space, WL_TUNE_SPACE_MAX);
		return -1;
	}
	return 0;
}

/* A string field of tune, one of allowed (the first where absent). */
static int one_of(const json_t *tune, const char *key, const char *const *allowed, json_t *out, struct wl_error *err)
{
	const json_t *v = json_object_get(tune, key);
	const char *s = v ? json_string_value(v) : allowed[0];
	char field[48], list[120];

	for (size_t i = 0; s && allowed[i]; i++)
		if (strcmp(s, allowed[i]) == 0) {
			json_object_set_new(out, key, json_string(s));
			return 0;
		}
	snprintf(field, sizeof(field), "tune.%s", key);
	wl_list_join(allowed, list, sizeof(list));
	wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: %s%.64s%s is not allowed (allowed: %s)", field, s ? "'" : "",
		       s ? s : wl_json_type_name(v), s ? "'" : "", list);
	return -1;
}

static int validate_tune(const struct wl_experiment *exp, const json_t *tune, const json_t *params, long long max_list,
			 json_t *out, struct wl_error *err)
{
	/* "space", "ranked" and "chosen" are the normalized request's own
	 * (computed again), so that a stored request runs again as it is. */
	static const char *const keys[] = { "params", "strategy", "budget", "objective", "space", "ranked", "chosen",
					    NULL };
	json_t *norm = json_object();
	const json_t *budget;
	const char *key;
	long long space;

	if (!norm) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	json_object_set_new(out, "tune", norm);
	if (!json_is_object(tune)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "tune", "tune: expected an object {\"params\", \"strategy\", "
			       "\"budget\", \"objective\"}, got %s", wl_json_type_name(tune));
		return -1;
	}
	if ((key = wl_json_unknown_key(tune, keys)) != NULL) {
		char list[120], field[80];

		wl_list_join(keys, list, sizeof(list));
		snprintf(field, sizeof(field), "tune.%.64s", key);
		wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: unknown field (allowed: %s)", field, list);
		return -1;
	}
	if (validate_tuned(exp, json_object_get(tune, "params"), params, max_list, norm, &space, err) < 0 ||
	    one_of(tune, "strategy", strategies, norm, err) < 0 || one_of(tune, "objective", objectives, norm, err) < 0)
		return -1;
	json_object_set_new(norm, "space", json_integer(space));
	budget = json_object_get(tune, "budget");
	if (strcmp(json_string_value(json_object_get(norm, "strategy")), "exhaustive") == 0) {
		if (budget) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "tune.budget",
				       "tune.budget: the exhaustive strategy measures every configuration the restrictions "
				       "allow; a budget is for \"random\" and \"model\"");
			return -1;
		}
		return 0;
	}
	if (!json_is_integer(budget) || json_integer_value(budget) < 1 ||
	    json_integer_value(budget) > WL_TUNE_SPACE_MAX) {
		char text[64] = "nothing";

		if (json_is_integer(budget))
			snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(budget));
		else if (budget)
			snprintf(text, sizeof(text), "%s", wl_json_type_name(budget));
		wl_error_field(err, WL_ERR_INVALID_FIELD, "tune.budget",
			       "tune.budget: %s is not allowed: the configurations to measure at each size, an integer "
			       "from 1 to %d", text, WL_TUNE_SPACE_MAX);
		return -1;
	}
	json_object_set(norm, "budget", (json_t *)budget);
	return 0;
}

int wl_tuning_validate(const struct wl_experiment *exp, const json_t *body, const json_t *params,
		       long long max_list, json_t *out, struct wl_error *err)
{
	const json_t *restrict_list = json_object_get(body, "restrict"), *tune = json_object_get(body, "tune");

	const char *objective;

	if (restrict_list && validate_restrict(exp, restrict_list, out, err) < 0)
		return -1;
	if (!tune)
		return 0;
	if (validate_tune(exp, tune, params, max_list, out, err) < 0)
		return -1;
	/* An objective of energy needs each configuration's energy: it turns
	 * the run's measuring on, and refuses a request that turns it off. */
	objective = json_string_value(json_object_get(json_object_get(out, "tune"), "objective"));
	if (strcmp(objective, "time") == 0)
		return 0;
	if (json_is_false(json_object_get(body, "energy"))) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "tune.objective",
			       "tune.objective: '%s' is not allowed with \"energy\": false (it searches by the energy "
			       "measured; allowed: \"time\", or \"energy\": true)", objective);
		return -1;
	}
	json_object_set_new(out, "energy", json_true());
	return 0;
}

/* SplitMix64: the draw of the random strategy, from the run's seed. */
static uint64_t draw(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Whether row meets the catalog's constraints between exp's params and
 * every restriction (one that cannot be evaluated, a division by zero, is
 * not met). */
static int allowed(const struct wl_experiment *exp, const struct wl_expr *rules, size_t nrules, const long long *row)
{
	for (size_t p = 0; p < exp->nparams; p++) {
		int q = exp->params[p].multiple_of_param;

		if (q >= 0 && (row[q] == 0 || row[p] % row[q]))
			return 0;
	}
	for (size_t r = 0; r < nrules; r++) {
		long long v;
		const char *why;

		if (wl_expr_eval(&rules[r], row, &v, &why) < 0 || v == 0)
			return 0;
	}
	return 1;
}

/* Keep the rows whose keep[] is set, in their order. */
static void compact(struct wl_points *pts, const unsigned char *keep)
{
	size_t n = 0;

	for (size_t i = 0; i < pts->count; i++)
		if (keep[i]) {
			memmove(pts->values + n * pts->nparams, pts->values + i * pts->nparams,
				pts->nparams * sizeof(*pts->values));
			n++;
		}
	pts->count = n;
}

int wl_tuned_params(const struct wl_experiment *exp, const json_t *tune, unsigned char *tuned)
{
	size_t i;
	json_t *v;

	memset(tuned, 0, WL_TUNED_MAX);
	if (exp->nparams > WL_TUNED_MAX)
		return -1;
	json_array_foreach(json_object_get(tune, "params"), i, v) {
		int p = wl_experiment_param(exp, json_string_value(v));

		if (p >= 0)
			tuned[p] = 1;
	}
	return 0;
}

int wl_tuned_agree(const long long *a, const long long *b, size_t nparams, const unsigned char *tuned, int side)
{
	for (size_t p = 0; p < nparams; p++)
		if (tuned[p] == side && a[p] != b[p])
			return 0;
	return 1;
}

/* At each size, budget of its rows kept and the rest unmarked in keep:
 * drawn where random (a partial Fisher-Yates over them), else the first. */
static int draw_budget(const struct wl_experiment *exp, const json_t *tune, int random, uint64_t seed,
		       struct wl_points *pts, unsigned char *keep)
{
	size_t budget = (size_t)json_integer_value(json_object_get(tune, "budget")), *rows = malloc(pts->count * sizeof(*rows));
	unsigned char tuned[WL_TUNED_MAX], *seen = calloc(pts->count ? pts->count : 1, 1);

	if (!rows || !seen) {
		free(rows);
		free(seen);
		return -1;
	}
	wl_tuned_params(exp, tune, tuned);
	for (size_t first = 0; first < pts->count; first++) {
		size_t m = 0;
		uint64_t state = seed ^ (0x5bd1e995ull * (first + 1));

		if (seen[first] || !keep[first])
			continue;
		for (size_t j = first; j < pts->count; j++)
			if (!seen[j] && keep[j] &&
			    wl_tuned_agree(pts->values + first * pts->nparams, pts->values + j * pts->nparams, pts->nparams,
					   tuned, 0)) {
				seen[j] = 1;
				rows[m++] = j;
			}
		for (size_t k = 0; random && k < m && k < budget; k++) {
			size_t pick = k + (size_t)(draw(&state) % (m - k)), t = rows[k];

			rows[k] = rows[pick];
			rows[pick] = t;
		}
		for (size_t k = budget; k < m; k++)
			keep[rows[k]] = 0;
	}
	free(rows);
	free(seen);
	return 0;
}

/* The model's choice, in its order: each chosen point one of the allowed
 * rows (keep), which pts then holds in the choice's order. */
static int take_chosen(const struct wl_experiment *exp, const json_t *chosen, struct wl_points *pts,
		       const unsigned char *keep, struct wl_error *err)
{
	long long *out = calloc(json_array_size(chosen) * pts->nparams + 1, sizeof(*out)), want[64];
	size_t n = 0, i;
	json_t *c;

	if (!out) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	json_array_foreach(chosen, i, c) {
		const json_t *params = json_object_get(c, "params");
		size_t r = exp->nparams > 64 ? pts->count : 0;

		for (size_t p = 0; p < exp->nparams && p < 64; p++) {
			const json_t *v = json_object_get(params, exp->params[p].name);

			want[p] = json_integer_value(v);
			r = json_is_integer(v) ? r : pts->count;
		}
		while (r < pts->count &&
		       !(keep[r] && memcmp(pts->values + r * pts->nparams, want, pts->nparams * sizeof(*want)) == 0))
			r++;
		if (r == pts->count) {
			free(out);
			wl_error_field(err, WL_ERR_INVALID_FIELD, "tune.chosen",
				       "tune.chosen[%zu]: not a configuration the params and restrictions allow", i);
			return -1;
		}
		memcpy(out + n++ * pts->nparams, want, pts->nparams * sizeof(*want));
	}
	free(pts->values);
	pts->values = out;
	pts->count = n;
	return 0;
}

int wl_tuning_select(const struct wl_experiment *exp, const json_t *normalized, struct wl_points *pts,
		     struct wl_error *err)
{
	const json_t *list = json_object_get(normalized, "restrict"), *tune = json_object_get(normalized, "tune");
	struct wl_expr rules[WL_RESTRICT_MAX];
	const char *names[64];
	unsigned char *keep;
	size_t nrules = 0, left = 0;
	size_t i;
	json_t *v;

	if (!json_array_size(list) && !tune)
		return 0;
	param_names(exp, names);
	json_array_foreach(list, i, v) {
		if (i >= WL_RESTRICT_MAX ||
		    wl_expr_parse(json_string_value(v), names, (int)exp->nparams, 0, &rules[nrules++], err) < 0)
			goto fail;
	}
	if (!(keep = malloc(pts->count ? pts->count : 1))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	for (size_t r = 0; r < pts->count; r++)
		left += keep[r] = (unsigned char)allowed(exp, rules, nrules, pts->values + r * pts->nparams);
	if (left == 0) {
		free(keep);
		wl_error_field(err, WL_ERR_INVALID_FIELD, "restrict",
			       "restrict: none of the %zu configurations the params give meets every restriction and the "
			       "catalog's constraints between params", pts->count);
		goto fail;
	}
	if (tune && json_object_get(tune, "chosen")) {
		int rc = take_chosen(exp, json_object_get(tune, "chosen"), pts, keep, err);

		free(keep);
		return rc;
	}
	if (tune && json_object_get(tune, "budget") &&
	    draw_budget(exp, tune, strcmp(json_string_value(json_object_get(tune, "strategy")) ?: "", "random") == 0,
			(uint64_t)json_integer_value(json_object_get(normalized, "seed")), pts, keep) < 0) {
		free(keep);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	compact(pts, keep);
	free(keep);
	return 0;
fail:
	return -1;
}
