/* Validation, normalisation and expansion of run requests (see request.h).
 * Messages follow the API contract: they name the field, quote the value and
 * say what is allowed. Counts are computed before anything is expanded, so a
 * request for 2^40 points costs no more than one for 2. */
#include "request.h"

#include "request_own.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "custom_kernels.h"
#include "json_strict.h"
#include "param_spec.h"
#include "points.h"
#include "tuning.h"

/* Characters, not bytes: jansson guarantees valid UTF-8. */
static size_t utf8_length(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

static int random_seed(long long *out, struct wl_error *err)
{
	uint64_t v;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v)) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot draw a random seed");
		return -1;
	}
	*out = (long long)(v & (uint64_t)WL_SEED_MAX);
	return 0;
}

/* allow_empty: the run has custom kernels, so it may leave out every built-in. */
static int validate_variants(const struct wl_experiment *exp, const json_t *spec,
			     int allow_empty, json_t *variants, struct wl_error *err)
{
	if (!spec) {
		for (size_t i = 0; i < exp->nvariants; i++)
			json_array_append_new(variants, json_string(exp->variants[i].id));
		return 0;
	}
	if (!json_is_array(spec) || (json_array_size(spec) == 0 && !allow_empty)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "variants",
			       "variants: expected a non-empty array of variant names, got %s",
			       json_is_array(spec) ? "an empty array" : wl_json_type_name(spec));
		return -1;
	}
	for (size_t i = 0; i < json_array_size(spec); i++) {
		json_t *v = json_array_get(spec, i);
		char field[64], known[512] = "";

		snprintf(field, sizeof(field), "variants[%zu]", i);
		if (!json_is_string(v)) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: expected a string, got %s",
				       field, wl_json_type_name(v));
			return -1;
		}
		if (!wl_experiment_variant(exp, json_string_value(v), NULL)) {
			wl_experiment_variant_list(exp, known, sizeof(known));
			wl_error_field(err, WL_ERR_UNKNOWN_VARIANT, field,
				       "%s: '%.64s' is not a variant of %s (allowed: %s)", field,
				       json_string_value(v), exp->id, known);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (json_equal(json_array_get(spec, j), v)) {
				wl_error_field(err, WL_ERR_INVALID_FIELD, field,
					       "%s: '%s' is listed twice", field, json_string_value(v));
				return -1;
			}
		json_array_append(variants, v);
	}
	return 0;
}

/* params: each given spec validated, every missing one defaulted; returns the
 * product of the counts (capped at limit + 1 so it cannot overflow). */
static int validate_params(const struct wl_catalog *cat, const struct wl_experiment *exp,
			   const json_t *spec, json_t *params, long long limit,
			   long long *points, struct wl_error *err)
{
	const char *key;
	json_t *value;

	*points = 1;
	if (spec && !json_is_object(spec)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "params",
			       "params: expected an object, got %s", wl_json_type_name(spec));
		return -1;
	}
	json_object_foreach((json_t *)spec, key, value) {
		if (wl_experiment_param(exp, key) < 0) {
			char field[160], known[512] = "";

			for (size_t k = 0; k < exp->nparams; k++)
				wl_list_append(known, sizeof(known), exp->params[k].name);
			snprintf(field, sizeof(field), "params.%.64s", key);
			wl_error_field(err, WL_ERR_INVALID_PARAM, field,
				       "%s: %s has no such parameter (allowed: %s)", field, exp->id,
				       known);
			return -1;
		}
	}
	for (size_t p = 0; p < exp->nparams; p++) {
		json_t *s = spec ? json_object_get(spec, exp->params[p].name) : NULL;
		long long count;

		if (!s)
			s = exp->params[p].default_spec;
		if (wl_param_spec_count(&exp->params[p], s, cat->max_list, &count, err) < 0)
			return -1;
		json_object_set(params, exp->params[p].name, s);
		*points *= count;
		if (*points > limit)
			*points = limit + 1;
	}
	return 0;
}

static int validate_top(const json_t *body, struct wl_error *err)
{
	static const char *const allowed[] = { "experiment", "definition", "variants", "kernels", "params",
					       "device", "language", "repeat", "seed", "label", "cache",
					       "noise", "budget_ms", "counters", "energy", "restrict", "tune", NULL };
	const char *key;
	char list[200];

	if (!json_is_object(body)) {
		wl_error_set(err, WL_ERR_BAD_JSON, "the request body must be a JSON object, got %s",
			     wl_json_type_name(body));
		return -1;
	}
	key = wl_json_unknown_key(body, allowed);
	if (key) {
		wl_list_join(allowed, list, sizeof(list));
		wl_error_field(err, WL_ERR_INVALID_FIELD, key, "%.64s: unknown field (allowed: %s)",
			       key, list);
		return -1;
	}
	return 0;
}

int wl_request_language(const json_t *body, enum wl_language *out, struct wl_error *err)
{
	const json_t *v = json_object_get(body, "language"), *k;
	enum wl_language run = WL_LANG_DEFAULT, lang;
	int named = v != NULL;	/* run holds a language the body names */
	char field[48];
	size_t i;

	if (v && wl_language_parse(json_string_value(v), &run) < 0) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "language",
			       "language: %s%.32s%s is not allowed (\"" WL_LANG_DEFAULT_NAME
			       "\", the default, or \"" WL_LANG_CUDA_NAME "\")",
			       json_is_string(v) ? "'" : "", json_is_string(v) ? json_string_value(v) : wl_json_type_name(v),
			       json_is_string(v) ? "'" : "");
		return -1;
	}
	json_array_foreach(json_object_get(body, "kernels"), i, k) {
		const json_t *kv = json_is_object(k) ? json_object_get(k, "language") : NULL;
		int known;

		if (!kv)
			continue;
		known = wl_language_parse(json_string_value(kv), &lang) == 0;
		snprintf(field, sizeof(field), "kernels[%zu].language", i);
		if (!known || (named && lang != run)) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, field,
				       "%s: %s%.32s%s is not allowed (%s)", field, known ? "'" : "",
				       known ? wl_language_name(lang) : wl_json_type_name(kv), known ? "'" : "",
				       known ? "a run is in one language, and this one's is another" :
				       "\"opencl\" or \"cuda\", the run's language");
			return -1;
		}
		run = lang;
		named = 1;
	}
	*out = run;
	return 0;
}

static int validate_scalars(const json_t *body, json_t *out, struct wl_error *err)
{
	json_t *v;
	long long seed, repeat = WL_REPEAT_DEFAULT;

	v = json_object_get(body, "device");
	if (v) {
		const char *s = json_is_string(v) ? json_string_value(v) : NULL;
		size_t len = s ? strlen(s) : 0;

		if (!s || len == 0 || len > 128 || strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789._-") != len) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "device",
				       "device: expected a device id (lower-case letters, digits, '.', '_', '-'), \"gpu\", \"cpu\" or \"auto\"");
			return -1;
		}
		json_object_set(out, "device", v);
	} else {
		json_object_set_new(out, "device", json_string("auto"));
	}

	v = json_object_get(body, "repeat");
	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > WL_REPEAT_MAX) {
			char shown[64];

			if (json_is_integer(v))
				snprintf(shown, sizeof(shown), "%lld", (long long)json_integer_value(v));
			else
				snprintf(shown, sizeof(shown), "%s", wl_json_type_name(v));
			wl_error_field(err, WL_ERR_INVALID_FIELD, "repeat",
				       "repeat: %s is not allowed (an integer from 1 to %d)", shown,
				       WL_REPEAT_MAX);
			return -1;
		}
		repeat = json_integer_value(v);
	}
	json_object_set_new(out, "repeat", json_integer(repeat));

	v = json_object_get(body, "seed");
	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > WL_SEED_MAX) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "seed",
				       "seed: expected an integer from 0 to %lld", WL_SEED_MAX);
			return -1;
		}
		seed = json_integer_value(v);
	} else if (random_seed(&seed, err) < 0) {
		return -1;
	}
	json_object_set_new(out, "seed", json_integer(seed));

	v = json_object_get(body, "label");
	if (v && !json_is_null(v)) {
		if (!json_is_string(v)) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "label",
				       "label: expected a string, got %s", wl_json_type_name(v));
			return -1;
		}
		if (utf8_length(json_string_value(v)) > WL_LABEL_MAX) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "label",
				       "label: %zu characters is too long (at most %d)",
				       utf8_length(json_string_value(v)), WL_LABEL_MAX);
			return -1;
		}
		for (const char *c = json_string_value(v); *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				wl_error_field(err, WL_ERR_INVALID_FIELD, "label",
					       "label: control characters are not allowed");
				return -1;
			}
		json_object_set(out, "label", v);
	}
	return 0;
}

const char *wl_request_default_cache(const struct wl_experiment *exp)
{
	return exp->metric == WL_METRIC_BANDWIDTH ? "cold" : "hot";
}

enum wl_cache_mode wl_request_cache(const json_t *request)
{
	struct wl_run_settings s;

	/* A cache no validator writes reads as absent: hot. */
	(void)wl_run_settings_read(request, &s, NULL);
	return s.cache;
}

const char *wl_cache_mode_name(enum wl_cache_mode mode)
{
	return mode == WL_CACHE_COLD ? "cold" : "hot";
}

/* Note the first field of a stored request that no validator writes. */
static void stored_refusal(struct wl_error *err, int *rc, const char *field, const json_t *v,
			   const char *allowed)
{
	char shown[64];

	if (*rc < 0)
		return;
	*rc = -1;
	if (json_is_string(v))
		snprintf(shown, sizeof(shown), "'%.32s'", json_string_value(v));
	else if (json_is_number(v))
		snprintf(shown, sizeof(shown), "%g", json_number_value(v));
	else
		snprintf(shown, sizeof(shown), "%s", wl_json_type_name(v));
	wl_error_field(err, WL_ERR_INVALID_FIELD, field, "the stored request's %s: %s is not allowed (%s)",
		       field, shown, allowed);
}

int wl_run_settings_read(const json_t *stored, struct wl_run_settings *out, struct wl_error *err)
{
	const json_t *v;
	const char *s;
	int rc = 0;

	/* Every field's absent meaning first (request.h lists them)... */
	*out = (struct wl_run_settings){
		.device = "auto", .label = NULL, .language = WL_LANG_DEFAULT, .cache = WL_CACHE_HOT,
		.repeat = WL_REPEAT_DEFAULT, .seed = 0, .noise = WL_NOISE_DEFAULT, .noise_given = 0,
		.budget_ms = WL_BUDGET_MS_DEFAULT, .counters = 1, .energy = 0,
	};
	/* ...then what is there, where it is a value the validator writes. */
	if ((v = json_object_get(stored, "device"))) {
		if (json_is_string(v))
			out->device = json_string_value(v);
		else
			stored_refusal(err, &rc, "device", v, "a device id, \"auto\", \"gpu\" or \"cpu\"");
	}
	if ((v = json_object_get(stored, "label")) && !json_is_null(v)) {
		if (json_is_string(v))
			out->label = json_string_value(v);
		else
			stored_refusal(err, &rc, "label", v, "a string");
	}
	if ((v = json_object_get(stored, "language")) &&
	    wl_language_parse(json_string_value(v), &out->language) < 0)
		stored_refusal(err, &rc, "language", v, "\"opencl\" or \"cuda\"");
	if ((v = json_object_get(stored, "cache"))) {
		s = json_string_value(v);
		if (s && strcmp(s, "cold") == 0)
			out->cache = WL_CACHE_COLD;
		else if (!s || strcmp(s, "hot") != 0)
			stored_refusal(err, &rc, "cache", v, "\"hot\" or \"cold\"");
	}
	if ((v = json_object_get(stored, "repeat"))) {
		if (json_is_integer(v)) {
			out->repeat = json_integer_value(v);
			out->repeat = out->repeat < 1 ? 1 : out->repeat > WL_REPEAT_MAX ? WL_REPEAT_MAX : out->repeat;
		} else {
			stored_refusal(err, &rc, "repeat", v, "an integer");
		}
	}
	if ((v = json_object_get(stored, "seed"))) {
		if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= WL_SEED_MAX)
			out->seed = json_integer_value(v);
		else
			stored_refusal(err, &rc, "seed", v, "an integer from 0 to 2^53 - 1");
	}
	if ((v = json_object_get(stored, "noise"))) {
		if (json_is_number(v) && json_number_value(v) > 0) {
			out->noise = json_number_value(v);
			out->noise_given = 1;
		} else {
			stored_refusal(err, &rc, "noise", v, "a fraction above 0");
		}
	}
	if ((v = json_object_get(stored, "budget_ms"))) {
		if (json_is_integer(v) && json_integer_value(v) >= 1)
			out->budget_ms = json_integer_value(v);
		else
			stored_refusal(err, &rc, "budget_ms", v, "an integer from 1");
	}
	if ((v = json_object_get(stored, "counters"))) {
		s = json_string_value(v);
		if (s && strcmp(s, "off") == 0)
			out->counters = 0;
		else if (!s || strcmp(s, "on") != 0)
			stored_refusal(err, &rc, "counters", v, "\"on\" or \"off\"");
	}
	if ((v = json_object_get(stored, "energy"))) {
		if (json_is_boolean(v))
			out->energy = json_is_true(v);
		else
			stored_refusal(err, &rc, "energy", v, "true or false");
	}
	return rc;
}

json_t *wl_request_defaults_json(void)
{
	return json_pack("{s:i, s:i, s:f, s:i}", "repeat", WL_REPEAT_DEFAULT, "repeat_max",
			 WL_REPEAT_MAX, "noise", WL_NOISE_DEFAULT, "budget_ms", WL_BUDGET_MS_DEFAULT);
}

/* How the runner samples: the cache mode (cold, the default for bandwidth
 * experiments, gives DRAM figures; hot leaves the data cached between
 * launches), the noise target and the time budget per point and variant. */
static int validate_sampling(const struct wl_experiment *exp, const json_t *body, json_t *out,
			     struct wl_error *err)
{
	json_t *v = json_object_get(body, "cache");
	double noise = WL_NOISE_DEFAULT;
	long long budget = WL_BUDGET_MS_DEFAULT;

	if (v && !(json_is_string(v) && (strcmp(json_string_value(v), "cold") == 0 ||
					  strcmp(json_string_value(v), "hot") == 0))) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "cache",
			       "cache: %s%.32s%s is not allowed (\"cold\": the cache flushed before each timed launch, or \"hot\")",
			       json_is_string(v) ? "'" : "", json_is_string(v) ? json_string_value(v) : wl_json_type_name(v),
			       json_is_string(v) ? "'" : "");
		return -1;
	}
	json_object_set_new(out, "cache", v ? json_copy(v) : json_string(wl_request_default_cache(exp)));
	v = json_object_get(body, "noise");
	if (v) {
		if (!json_is_number(v) || json_number_value(v) < WL_NOISE_MIN || json_number_value(v) > WL_NOISE_MAX) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "noise",
				       "noise: expected the target half-width of the median's 95%% interval as a fraction, from %g to %g (0.01: ±1%%)",
				       WL_NOISE_MIN, WL_NOISE_MAX);
			return -1;
		}
		noise = json_number_value(v);
	}
	json_object_set_new(out, "noise", json_real(noise));
	v = json_object_get(body, "budget_ms");
	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > WL_BUDGET_MS_MAX) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "budget_ms",
				       "budget_ms: expected an integer from 1 to %d (milliseconds of sampling per point and variant)",
				       WL_BUDGET_MS_MAX);
			return -1;
		}
		budget = json_integer_value(v);
	}
	json_object_set_new(out, "budget_ms", json_integer(budget));
	return 0;
}

/* Whether a CUDA run reads each variant's hardware counters: "on" or "off",
 * which saves a profiled launch per variant and point (with its replays,
 * the most of a CUDA run's time where kernels are short). "on" is the
 * default, but for a tuning run of someone else's code (an experiment of
 * one's own, or kernels beside the catalog's): such a kernel is profiled
 * alone as it is measured, some 90 ms a configuration on an H200 against
 * some 5 ms of measuring (bench/RESULTS.md), so counting a space would be
 * most of its time. */
static int validate_counters(const json_t *body, int someone_elses_tuned, json_t *out, struct wl_error *err)
{
	const json_t *v = json_object_get(body, "counters");
	const char *s = json_string_value(v);

	if (v && !(s && (strcmp(s, "on") == 0 || strcmp(s, "off") == 0))) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "counters",
			       "counters: %s%.32s%s is not allowed (\"on\", the default: a CUDA run reads each variant's hardware counters, or \"off\"; a tuning run of code of your own is \"off\" unless it asks)",
			       s ? "'" : "", s ? s : wl_json_type_name(v), s ? "'" : "");
		return -1;
	}
	json_object_set_new(out, "counters", json_string(s ? s : someone_elses_tuned ? "off" : "on"));
	return 0;
}

/* Whether each variant's energy is measured: false, the default, since it
 * costs time, or true, which adds a burst of launches a variant and point
 * (some 0.3 s each on an NVIDIA GPU). */
static int validate_energy(const json_t *body, json_t *out, struct wl_error *err)
{
	const json_t *v = json_object_get(body, "energy");
	const char *s = json_string_value(v);

	if (v && !json_is_boolean(v)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "energy",
			       "energy: %s%.32s%s is not allowed (true: each variant's energy measured in a burst of its launches, or false, the default)",
			       s ? "'" : "", s ? s : wl_json_type_name(v), s ? "'" : "");
		return -1;
	}
	json_object_set_new(out, "energy", json_boolean(v && json_is_true(v)));
	return 0;
}

/* Both validations: lang is the language decided already, or NULL to decide
 * it here, where an error in it is said (after the body's shape and its
 * experiment). */
static int validate(const struct wl_catalog *cat, const json_t *body, const enum wl_language *lang,
		    json_t **normalized, long long *measurements, struct wl_error *err)
{
	struct wl_experiment own = { 0 };
	const struct wl_experiment *exp;
	enum wl_language decided;
	json_t *out = NULL, *variants = NULL, *params = NULL, *kernels = NULL, *v;
	struct wl_points pts = { 0 };
	long long points, nvariants;
	int rc = -1, tuning;

	wl_error_clear(err);
	if (validate_top(body, err) < 0)
		goto out;
	if (wl_request_experiment(cat, body, &own, &exp, err) < 0)
		goto out;
	out = json_object();
	variants = json_array();
	params = json_object();
	kernels = json_array();
	if (!out || !variants || !params || !kernels) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	json_object_set_new(out, "experiment", json_string(exp->id));
	if (own.own)
		json_object_set_new(out, "definition", json_deep_copy(wl_request_own_definition(body)));
	if (!lang) {
		if (wl_request_language(body, &decided, err) < 0)
			goto out;
		lang = &decided;
	}
	json_object_set_new(out, "language", json_string(wl_language_name(*lang)));
	v = json_object_get(body, "kernels");
	if (v && own.own && !(json_is_array(v) && json_array_size(v) == 0)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "kernels",
			       "kernels: an experiment of your own has its kernels as its variants");
		goto out;
	}
	if (v && wl_custom_kernels_validate(exp, v, kernels, err) < 0)
		goto out;
	if (validate_variants(exp, json_object_get(body, "variants"), json_array_size(kernels) > 0,
			      variants, err) < 0 ||
	    validate_params(cat, exp, json_object_get(body, "params"), params, cat->max_measurements,
			    &points, err) < 0 ||
	    validate_scalars(body, out, err) < 0 || validate_sampling(exp, body, out, err) < 0 ||
	    validate_counters(body, json_object_get(body, "tune") && (own.own || json_array_size(kernels) > 0), out,
			      err) < 0 ||
	    validate_energy(body, out, err) < 0)
		goto out;
	if (wl_tuning_validate(exp, body, params, cat->max_list, out, err) < 0)
		goto out;
	nvariants = (long long)(json_array_size(variants) + json_array_size(kernels));
	/* A tuning run's measurements are what its restrictions and strategy
	 * leave of the params' product: counted once expanded. */
	tuning = json_object_get(out, "restrict") || json_object_get(out, "tune");
	if (!tuning && points * nvariants > cat->max_measurements) {
		wl_error_field(err, WL_ERR_TOO_MANY_POINTS, "params",
			       "params: %lld variant(s) x %s%lld point(s) is more than the %lld measurements a run may hold",
			       nvariants, points > cat->max_measurements ? "over " : "",
			       points > cat->max_measurements ? cat->max_measurements : points,
			       cat->max_measurements);
		goto out;
	}
	json_object_set(out, "variants", variants);
	if (json_array_size(kernels))
		json_object_set(out, "kernels", kernels);
	json_object_set(out, "params", params);
	/* Expanding checks the constraints between params. */
	if (wl_request_points(exp, out, &pts, err) < 0 || (own.own && wl_request_own_sizes(&own, &pts, err) < 0))
		goto out;
	*measurements = (long long)pts.count * nvariants;
	if (*measurements > cat->max_measurements) {
		wl_error_field(err, WL_ERR_TOO_MANY_POINTS, json_object_get(out, "tune") ? "tune" : "restrict",
			       "%s: %lld variant(s) x %zu configuration(s) left to measure is more than the %lld "
			       "measurements a run may hold", json_object_get(out, "tune") ? "tune" : "restrict",
			       nvariants, pts.count, cat->max_measurements);
		goto out;
	}
	*normalized = out;
	out = NULL;
	rc = 0;
out:
	wl_points_free(&pts);
	wl_experiment_clear(&own);
	json_decref(out);
	json_decref(variants);
	json_decref(params);
	json_decref(kernels);
	return rc;
}

int wl_request_validate(const struct wl_catalog *cat, const json_t *body, json_t **normalized,
			long long *measurements, struct wl_error *err)
{
	return validate(cat, body, NULL, normalized, measurements, err);
}

int wl_request_validate_in(const struct wl_catalog *cat, const json_t *body, enum wl_language lang,
			   json_t **normalized, long long *measurements, struct wl_error *err)
{
	return validate(cat, body, &lang, normalized, measurements, err);
}
