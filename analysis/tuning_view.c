/* What a tuning run found (see analysis.h, "tuning"): at each size, the
 * best verified configuration by the run's objective (the fastest, or the
 * one of least energy) and its margin over the catalog's default
 * settings. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "points.h"
#include "tuning.h"


/* Whether a and b agree on the params marked in which (1: tuned, 0: not). */
static int agree(const struct wl_run *run, const long long *a, const long long *b, const unsigned char *tuned, int which)
{
	return wl_tuned_agree(a, b, run->exp->nparams, tuned, which);
}

/* The params of values marked in tuned (which 1) or not (0), as an object. */
static json_t *params_of(const struct wl_run *run, const long long *values, const unsigned char *tuned, int which)
{
	json_t *o = json_object();

	for (size_t p = 0; o && p < run->exp->nparams; p++)
		if (tuned[p] == which && json_object_set_new(o, run->exp->params[p].name, json_integer(values[p])) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/* Whether values hold the catalog's default of every tuned param (where
 * each default is one value). */
static int is_default(const struct wl_run *run, const long long *values, const unsigned char *tuned)
{
	for (size_t p = 0; p < run->exp->nparams; p++) {
		const json_t *d = run->exp->params[p].default_spec;

		if (tuned[p] && (!json_is_integer(d) || json_integer_value(d) != values[p]))
			return 0;
	}
	return 1;
}

static int usable(const struct wl_result *r)
{
	return r->values && r->verified && r->median_ms > 0;
}

/* What a result is judged on: its joules per launch (by_energy), else its
 * median time. */
static double figure(const struct wl_result *r, int by_energy)
{
	return by_energy ? r->j_per_launch : r->median_ms;
}

/* Whether r is usable and better than best (NULL: none yet) by the
 * objective; by energy, only a result whose energy was measured is. */
static int better(const struct wl_result *r, const struct wl_result *best, int by_energy)
{
	return usable(r) && (!by_energy || !isnan(r->j_per_launch)) &&
	       (!best || figure(r, by_energy) < figure(best, by_energy));
}

/* Joules per launch as JSON: null where not measured. */
static json_t *energy_json(const struct wl_result *r)
{
	return isnan(r->j_per_launch) ? json_null() : json_real(r->j_per_launch);
}

/* The fastest verified median of the configuration at values (its tuned
 * params) among the size's results, 0 where none. */
static double config_median(const struct wl_run *run, const long long *values, const unsigned char *tuned)
{
	double best = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];

		if (usable(r) && agree(run, r->values, values, tuned, 0) && agree(run, r->values, values, tuned, 1) &&
		    (best == 0 || r->median_ms < best))
			best = r->median_ms;
	}
	return best;
}

/* How the model's ranking of the size at values held ({"ranked", "spearman",
 * "best_predicted", "gap", "configs"}): its chosen configurations there, in
 * its order, beside their measured order. NULL when out of memory. */
static json_t *ranking(const struct wl_run *run, const json_t *tune, const long long *at, const unsigned char *tuned)
{
	const json_t *chosen = json_object_get(tune, "chosen");
	long long values[WL_TUNED_MAX];
	double *ms = calloc(json_array_size(chosen) + 1, sizeof(*ms)), best = 0, top = 0;
	size_t n = 0, i, *rank_of = calloc(json_array_size(chosen) + 1, sizeof(*rank_of));
	json_t *configs = json_array(), *c, *first = NULL, *o;
	double d2 = 0;

	if (!ms || !rank_of || !configs) {
		free(ms);
		free(rank_of);
		json_decref(configs);
		return NULL;
	}
	json_array_foreach(chosen, i, c) {
		if (wl_point_from_json(run->exp, json_object_get(c, "params"), values) < 0 ||
		    !agree(run, values, at, tuned, 0))
			continue;
		ms[n] = config_median(run, values, tuned);
		if (!first) {
			first = c;
			top = ms[n];
		}
		if (ms[n] > 0 && (best == 0 || ms[n] < best))
			best = ms[n];
		json_array_append_new(configs, json_pack("{s:o, s:O, s:O, s:o, s:o}", "config",
							  params_of(run, values, tuned, 1), "predicted_rank",
							  json_object_get(c, "rank"), "predicted_ms",
							  json_object_get(c, "predicted_ms"), "median_ms",
							  ms[n] > 0 ? json_real(ms[n]) : json_null(), "measured_rank", json_null()));
		n++;
	}
	/* Spearman's rho over the measured ones: their order by the model
	 * (the choice's) against their order by the clock. */
	{
		size_t m = 0, k = 0;

		for (size_t a = 0; a < n; a++) {
			rank_of[a] = 0;
			if (ms[a] <= 0)
				continue;
			m++;
			for (size_t b = 0; b < n; b++)
				rank_of[a] += ms[b] > 0 && (ms[b] < ms[a] || (ms[b] == ms[a] && b < a));
			json_object_set_new(json_array_get(configs, a), "measured_rank", json_integer((json_int_t)rank_of[a] + 1));
		}
		for (size_t a = 0; a < n; a++)
			if (ms[a] > 0) {
				double d = (double)rank_of[a] - (double)k++;

				d2 += d * d;
			}
		o = json_pack("{s:O, s:o, s:o, s:o, s:o}", "ranked", json_object_get(tune, "ranked"), "spearman",
				 m >= 2 ? json_real(1 - 6 * d2 / ((double)m * ((double)m * m - 1))) : json_null(),
				 "best_predicted", first ? json_pack("{s:O, s:O, s:o}", "config",
								     json_object_get(json_array_get(configs, 0), "config"),
								     "predicted_ms", json_object_get(first, "predicted_ms"),
								     "median_ms", top > 0 ? json_real(top) : json_null())
							 : json_null(),
				 "gap", top > 0 && best > 0 ? json_real(top / best) : json_null(), "configs", configs);
	}
	free(ms);
	free(rank_of);
	return o;
}

/* "tile = 64, rows = 8": an object of params, into out. */
static void params_text(const json_t *o, char *out, size_t len)
{
	const char *key;
	json_t *v;

	out[0] = '\0';
	json_object_foreach((json_t *)o, key, v)
		snprintf(out + strlen(out), len - strlen(out), "%s%s = %lld", out[0] ? ", " : "", key,
			 (long long)json_integer_value(v));
}

/* How much faster a is than b (a below b), as the sentences say it. */
static void faster_text(double a, double b, char *out, size_t len)
{
	double pct = 100 * (b / a - 1);

	snprintf(out, len, pct < 9.95 ? "%.1f%% faster" : b / a < 9.95 ? "%.0f%% faster" : "%.0f× as fast",
		 b / a < 9.95 ? pct : b / a);
}

/* "at n = 4096 the fastest of 60 configurations measured is tiled with
 * tile = 32, rows = 8: 38.6 µs, 4.1% faster than the catalog's tile = 16,
 * rows = 4" into text (at least 900 bytes), from the size's entry o; by
 * energy, the one of least energy per launch, and "less energy". */
static void best_text(const json_t *o, const char *whose, int by_energy, char *text)
{
	const json_t *best = json_object_get(o, "best"), *base = json_object_get(o, "baseline");
	double fig = json_number_value(json_object_get(best, by_energy ? "energy_j" : "median_ms"));
	double margin = json_number_value(json_object_get(o, "margin"));
	long long n = json_integer_value(json_object_get(o, "configurations"));
	char at[200], config[200], t[40], e[40], f[40];

	params_text(json_object_get(o, "at"), at, sizeof(at));
	params_text(json_object_get(best, "config"), config, sizeof(config));
	wl_tuning_time_text(json_number_value(json_object_get(best, "median_ms")), t, sizeof(t));
	wl_tuning_energy_text(fig, e, sizeof(e));
	snprintf(text, 900, "At %s the %s of %lld configuration%s measured is %s with %s: %s%s%s%s", at,
		 by_energy ? "one of least energy" : "fastest", n, n == 1 ? "" : "s",
		 json_string_value(json_object_get(best, "variant")) ?: "?", config, by_energy ? e : t,
		 by_energy ? " a launch (" : "", by_energy ? t : "", by_energy ? ")" : "");
	if (!json_is_object(base))
		return;
	params_text(json_object_get(base, "config"), config, sizeof(config));
	if (by_energy && margin > 1 && margin < 1 + WL_ENERGY_NOISE) {
		snprintf(text + strlen(text), 900 - strlen(text), ", within the energy counter's noise of %s %s", whose,
			 config);
	} else if (by_energy && margin > 1) {
		snprintf(text + strlen(text), 900 - strlen(text), ", %.0f%% less energy than %s %s", 100 * (1 - 1 / margin),
			 whose, config);
	} else if (margin > 1) {
		faster_text(json_number_value(json_object_get(best, "median_ms")),
			    json_number_value(json_object_get(base, "median_ms")), f, sizeof(f));
		snprintf(text + strlen(text), 900 - strlen(text), ", %s than %s %s", f, whose, config);
	} else {
		snprintf(text + strlen(text), 900 - strlen(text), ": %s own %s", whose, config);
	}
}

/* The size's sentences from its entry o, set in it: "best_sentence", what
 * won and by how much over the default settings (whose: "the catalog's",
 * or "the definition's" for an experiment of one's own); "model_sentence", where
 * the model chose, how its choice held (else null); and "sentence", the two
 * together. -1 when out of memory. */
static int size_sentences(json_t *o, const char *whose, int by_energy)
{
	const json_t *best = json_object_get(o, "best");
	const json_t *model = json_object_get(o, "model");
	char at[200], config[200], text[900];
	long long n = json_integer_value(json_object_get(o, "configurations"));
	size_t model_at;

	params_text(json_object_get(o, "at"), at, sizeof(at));
	if (!json_is_object(best)) {
		snprintf(text, sizeof(text), "At %s none of the %lld configuration%s measured verified.", at, n,
			 n == 1 ? "" : "s");
		if (json_object_set_new(o, "sentence", json_string(text)) < 0 ||
		    json_object_set_new(o, "model_sentence", json_null()) < 0)
			return -1;
		return json_object_set_new(o, "best_sentence", json_string(text));
	}
	best_text(o, whose, by_energy, text);
	snprintf(text + strlen(text), sizeof(text) - strlen(text), ".");
	model_at = strlen(text);
	if (json_is_object(model) && json_is_object(json_object_get(model, "best_predicted")) &&
	    json_is_number(json_object_get(model, "gap"))) {
		double gap = json_number_value(json_object_get(model, "gap"));

		params_text(json_object_get(json_object_get(model, "best_predicted"), "config"), config, sizeof(config));
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 " The model ranked the space and chose these; the one it ranked first (%s) ", config);
		if (gap > 1) {
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "took %.1f%% longer than the fastest",
				 100 * (gap - 1));
		} else {
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "is the fastest");
		}
		if (json_is_number(json_object_get(model, "spearman")))
			snprintf(text + strlen(text), sizeof(text) - strlen(text),
				 ", and its order of them against the measured one has Spearman's rho %.2f",
				 json_number_value(json_object_get(model, "spearman")));
		snprintf(text + strlen(text), sizeof(text) - strlen(text), ".");
	}
	if (json_object_set_new(o, "sentence", json_string(text)) < 0 ||
	    json_object_set_new(o, "model_sentence", text[model_at] ? json_string(text + model_at + 1) : json_null()) < 0)
		return -1;
	text[model_at] = '\0';
	return json_object_set_new(o, "best_sentence", json_string(text));
}

/* What the best result at a size is set against to say why it wins: the
 * same variant at the catalog's settings (base) where that is not the best
 * itself, else the worst verified configuration of its variant there by
 * the objective. */
static const struct wl_result *against(const struct wl_run *run, const struct wl_result *best,
				       const struct wl_result *base, const unsigned char *tuned, int by_energy)
{
	const struct wl_result *slow = NULL;

	if (!best)
		return NULL;
	if (base && base != best)
		return base;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];

		if (usable(r) && (!by_energy || !isnan(r->j_per_launch)) && agree(run, r->values, best->values, tuned, 0) &&
		    !agree(run, r->values, best->values, tuned, 1) && r->variant && best->variant &&
		    strcmp(r->variant, best->variant) == 0 && (!slow || figure(r, by_energy) > figure(slow, by_energy)))
			slow = r;
	}
	return slow;
}

/* The space measured at the size of run->results[first], for its chart: each
 * configuration once, by its best verified result by the objective
 * ({"config", "label", "variant", "median_ms", "energy_j" (joules per
 * launch, null where not measured), "predicted_ms" (that result's
 * prediction, or the model's ranking where the result has none; null where
 * neither)}), best first. NULL when out of memory. */
static json_t *space_points(const struct wl_run *run, const json_t *tune, size_t first, const unsigned char *tuned,
			    int by_energy)
{
	json_t *list = json_array();
	size_t n = 0;

	for (size_t i = first; list && i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i], *fast = NULL;
		const json_t *predicted = NULL, *c;
		long long values[WL_TUNED_MAX];
		char label[200];
		json_t *config;
		size_t k, at = 0;

		if (!better(r, NULL, by_energy) || !agree(run, r->values, run->results[first].values, tuned, 0))
			continue;
		for (size_t j = first; j < run->nresults; j++) {
			const struct wl_result *q = &run->results[j];

			if (agree(run, q->values, r->values, tuned, 0) && agree(run, q->values, r->values, tuned, 1) &&
			    (better(q, fast, by_energy) ||
			     (fast && q < fast && better(q, NULL, by_energy) && figure(q, by_energy) == figure(fast, by_energy))))
				fast = q;
		}
		if (fast != r)
			continue;
		if (r->prediction && json_is_number(json_object_get(r->prediction, "ms")))
			predicted = json_object_get(r->prediction, "ms");
		json_array_foreach(json_object_get(tune, "chosen"), k, c)
			if (!predicted && wl_point_from_json(run->exp, json_object_get(c, "params"), values) == 0 &&
			    agree(run, values, r->values, tuned, 0) && agree(run, values, r->values, tuned, 1))
				predicted = json_object_get(c, "predicted_ms");
		config = params_of(run, r->values, tuned, 1);
		params_text(config, label, sizeof(label));
		while (at < n && json_number_value(json_object_get(json_array_get(list, at), by_energy ? "energy_j" : "median_ms")) <=
					 figure(r, by_energy))
			at++;
		if (json_array_insert_new(list, at, json_pack("{s:o, s:s, s:s?, s:f, s:o, s:O?}", "config", config, "label",
							     label, "variant", r->variant, "median_ms", r->median_ms,
							     "energy_j", energy_json(r), "predicted_ms", predicted)) < 0) {
			json_decref(list);
			return NULL;
		}
		n++;
	}
	return list;
}

/* The size of run->results[first]: its configurations counted into
 * *configs (each marked done), its best result by the objective (NULL
 * where none verified) and, by energy, *why_none the device's reason where
 * no result there has its energy measured. */
static const struct wl_result *size_best(const struct wl_run *run, size_t first, const unsigned char *tuned,
					 int by_energy, unsigned char *done, size_t *configs, const char **why_none)
{
	const struct wl_result *best = NULL;

	*configs = 0;
	for (size_t i = first; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];
		int fresh = 1;

		if (!r->values || !agree(run, r->values, run->results[first].values, tuned, 0))
			continue;
		done[i] = 1;
		for (size_t j = first; j < i && fresh; j++)
			fresh = !(run->results[j].values && agree(run, run->results[j].values, run->results[first].values, tuned, 0) &&
				  agree(run, r->values, run->results[j].values, tuned, 1));
		*configs += fresh;
		if (better(r, best, by_energy))
			best = r;
		if (!*why_none && r->energy_error)
			*why_none = r->energy_error;
	}
	return best;
}

/* One size's entry: the size's first result is run->results[first]; the
 * objective's ("time", "energy" or "both"). */
static json_t *size_entry(const struct wl_run *run, const json_t *tune, const char *objective, size_t first,
			  const unsigned char *tuned, unsigned char *done)
{
	const struct wl_result *best, *base = NULL, *other;
	const char *why_none = NULL;
	int by_energy = strcmp(objective, "energy") == 0;
	size_t configs;
	json_t *o;

	/* By energy where any energy was measured, else by time. */
	best = size_best(run, first, tuned, by_energy, done, &configs, &why_none);
	if (!best && by_energy)
		best = size_best(run, first, tuned, by_energy = 0, done, &configs, &why_none);
	for (size_t i = first; best && i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];

		if (better(r, NULL, by_energy) && agree(run, r->values, best->values, tuned, 0) &&
		    is_default(run, r->values, tuned) && r->variant && best->variant && strcmp(r->variant, best->variant) == 0)
			base = r;
	}
	o = json_pack("{s:o, s:I, s:o, s:o, s:o, s:o}", "at", params_of(run, run->results[first].values, tuned, 0),
		      "configurations", (json_int_t)configs,
		      "best", best ? json_pack("{s:o, s:s?, s:f, s:o}", "config", params_of(run, best->values, tuned, 1),
					      "variant", best->variant, "median_ms", best->median_ms, "energy_j",
					      energy_json(best)) : json_null(),
		      "baseline", base ? json_pack("{s:o, s:f, s:o}", "config", params_of(run, base->values, tuned, 1),
						   "median_ms", base->median_ms, "energy_j", energy_json(base)) : json_null(),
		      "margin", base ? json_real(figure(base, by_energy) / figure(best, by_energy)) : json_null(),
		      "model", json_object_get(tune, "chosen") ? ranking(run, tune, run->results[first].values, tuned)
							      : json_null());
	/* The defaults are the catalog's, or those of the user's definition. */
	if (o && size_sentences(o, run->exp->own ? "the definition's" : "the catalog's", by_energy) < 0) {
		json_decref(o);
		return NULL;
	}
	other = against(run, best, base, tuned, by_energy);
	if (o && other) {
		json_t *config = params_of(run, other->values, tuned, 1);
		char text[200] = "";

		params_text(config, text, sizeof(text));
		if (json_object_set_new(o, "against", json_pack("{s:o, s:s?, s:f, s:o}", "config", config, "variant",
								 other->variant, "median_ms", other->median_ms, "energy_j",
								 energy_json(other))) < 0 ||
		    json_object_set_new(o, "why", wl_tuning_why(best, other, text)) < 0) {
			json_decref(o);
			return NULL;
		}
	} else if (o && (json_object_set_new(o, "against", json_null()) < 0 || json_object_set_new(o, "why", json_null()) < 0)) {
		json_decref(o);
		return NULL;
	}
	if (o && (json_object_set_new(o, "space", space_points(run, tune, first, tuned, by_energy)) < 0 ||
		  (strcmp(objective, "time") != 0 && wl_tuning_energy(o, objective, by_energy, why_none) < 0))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* "tile × rows tuned, 15 configurations at each size; measured: ..." */
static json_t *summary(const json_t *tune)
{
	const char *strategy = json_string_value(json_object_get(tune, "strategy")) ?: "";
	const char *objective = json_string_value(json_object_get(tune, "objective")) ?: "time";
	long long space = json_integer_value(json_object_get(tune, "space"));
	long long budget = json_integer_value(json_object_get(tune, "budget"));
	char text[400] = "";
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(tune, "params"), i, v)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s", i ? " × " : "", json_string_value(v));
	snprintf(text + strlen(text), sizeof(text) - strlen(text), " tuned, %lld configuration%s at each size; measured: ",
		 space, space == 1 ? "" : "s");
	if (strcmp(strategy, "model") == 0)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "the model's best %lld of each size.", budget);
	else if (strcmp(strategy, "random") == 0)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%lld at random at each size.", budget);
	else
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "every configuration the restrictions allow.");
	if (strcmp(objective, "energy") == 0)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), " Searched for the least energy a launch%s.",
			 strcmp(strategy, "model") == 0 ? " (the model ranks by the time it predicts)" : "");
	else if (strcmp(objective, "both") == 0)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), " Searched for time and energy together%s.",
			 strcmp(strategy, "model") == 0 ? " (the model ranks by the time it predicts)" : "");
	return json_string(text);
}

/* The request that runs the best configuration of the run's last size
 * measured with one, as an ordinary run: the run's request without its
 * search ("tune", "restrict") and the tuned params set to that
 * configuration ("Run again with the best" on the run page). A tuning run
 * of someone else's code counts nothing by default (catalog/request.c), a
 * price its one best configuration need not pay: its "counters": "off" is
 * dropped, and the run again counts as any run does unless asked not to.
 * JSON null where no size has a best; NULL when out of memory. */
static json_t *best_request(const struct wl_run *run, const json_t *sizes)
{
	const json_t *best = NULL, *size;
	json_t *req, *config;
	size_t i;

	json_array_foreach(sizes, i, size)
		if (json_is_object(json_object_get(size, "best")))
			best = json_object_get(json_object_get(size, "best"), "config");
	if (!best)
		return json_null();
	if (!(req = json_deep_copy(json_object_get(run->json, "request"))))
		return NULL;
	json_object_del(req, "tune");
	json_object_del(req, "restrict");
	if ((json_object_get(req, "definition") || json_array_size(json_object_get(req, "kernels")) > 0) &&
	    strcmp(json_string_value(json_object_get(req, "counters")) ?: "", "off") == 0)
		json_object_del(req, "counters");
	if (!json_is_object(json_object_get(req, "params")))
		json_object_set_new(req, "params", json_object());
	config = json_deep_copy(best);
	if (!config || json_object_update(json_object_get(req, "params"), config) < 0) {
		json_decref(config);
		json_decref(req);
		return NULL;
	}
	json_decref(config);
	return req;
}

/* Each result of a model-strategy run gets "ranked": {"rank", "predicted_ms"},
 * the model's rank of its configuration at its size and the time it
 * predicted when it ranked the space (the CSV's tuning columns). -1 when
 * out of memory. */
static int mark_ranks(struct wl_run *run, const json_t *tune)
{
	const json_t *c;
	long long values[WL_TUNED_MAX];
	size_t k;

	json_array_foreach(json_object_get(tune, "chosen"), k, c) {
		if (wl_point_from_json(run->exp, json_object_get(c, "params"), values) < 0)
			continue;
		for (size_t i = 0; i < run->nresults; i++) {
			const struct wl_result *r = &run->results[i];

			if (r->values && memcmp(r->values, values, run->exp->nparams * sizeof(*values)) == 0 &&
			    json_object_set_new(r->json, "ranked", json_pack("{s:O, s:O}", "rank", json_object_get(c, "rank"),
									      "predicted_ms",
									      json_object_get(c, "predicted_ms"))) < 0)
				return -1;
		}
	}
	return 0;
}

int wl_run_add_tuning(struct wl_run *run)
{
	const json_t *tune = json_object_get(json_object_get(run->json, "request"), "tune");
	const char *objective = json_string_value(json_object_get(tune, "objective")) ?: "time";
	unsigned char tuned[WL_TUNED_MAX], *done;
	json_t *sizes, *o;
	size_t i;

	if (!tune || !run->exp || wl_tuned_params(run->exp, tune, tuned) < 0)
		return 0;
	if (!(sizes = json_array()) || !(done = calloc(run->nresults ? run->nresults : 1, 1))) {
		json_decref(sizes);
		return -1;
	}
	for (i = 0; i < run->nresults; i++)
		if (!done[i] && run->results[i].values && json_array_append_new(sizes, size_entry(run, tune, objective, i, tuned, done)) < 0)
			break;
	free(done);
	o = json_pack("{s:O, s:O, s:O, s:O, s:O?, s:o, s:o, s:o}", "params", json_object_get(tune, "params"), "strategy",
		      json_object_get(tune, "strategy"), "objective", json_object_get(tune, "objective"), "space",
		      json_object_get(tune, "space"), "budget", json_object_get(tune, "budget"), "summary", summary(tune),
		      "best_request", best_request(run, sizes), "sizes", sizes);
	if (!o || json_object_set_new(run->json, "tuning", o) < 0)
		return -1;
	return mark_ranks(run, tune);
}
