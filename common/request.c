/* Validation, normalisation and expansion of run requests (see request.h).
 * Messages follow the API contract: they name the field, quote the value and
 * say what is allowed. Counts are computed before anything is expanded, so a
 * request for 2^40 points costs no more than one for 2. */
#include "request.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "custom_kernels.h"

static const char *json_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a non-integer number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "something else";
}

/* Check one value of param p on its own. */
static int check_value(const struct wl_experiment *exp, int p, long long v, const char *field,
		       struct wl_error *err)
{
	const struct wl_param_def *d = &exp->params[p];

	if (v < d->min) {
		wl_error_field(err, WL_ERR_INVALID_PARAM, field, "%s: %lld is below the minimum %lld",
			       field, v, d->min);
		return -1;
	}
	if (v > d->max) {
		wl_error_field(err, WL_ERR_INVALID_PARAM, field, "%s: %lld is above the maximum %lld",
			       field, v, d->max);
		return -1;
	}
	if (d->pow2 && (v <= 0 || (v & (v - 1)))) {
		wl_error_field(err, WL_ERR_INVALID_PARAM, field,
			       "%s: %lld is not a power of two (allowed: powers of two from %lld to %lld)",
			       field, v, d->min, d->max);
		return -1;
	}
	if (d->multiple_of && v % d->multiple_of) {
		wl_error_field(err, WL_ERR_INVALID_PARAM, field, "%s: %lld is not a multiple of %lld",
			       field, v, d->multiple_of);
		return -1;
	}
	return 0;
}

static int get_integer(const json_t *v, const char *field, long long *out, struct wl_error *err)
{
	if (!json_is_integer(v)) {
		if (json_is_real(v))
			wl_error_field(err, WL_ERR_INVALID_PARAM, field, "%s: %g is not an integer",
				       field, json_real_value(v));
		else
			wl_error_field(err, WL_ERR_INVALID_PARAM, field,
				       "%s: expected an integer, got %s", field, json_type_name(v));
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

/* A range spec's bounds and stride; exactly one of step/mul is set. */
struct range {
	long long from, to, step, mul;
};

static int parse_range(const json_t *spec, const char *field, struct range *r,
		       struct wl_error *err)
{
	char sub[160];
	const char *key;
	json_t *value;

	memset(r, 0, sizeof(*r));
	json_object_foreach((json_t *)spec, key, value) {
		if (strcmp(key, "from") && strcmp(key, "to") && strcmp(key, "step") && strcmp(key, "mul")) {
			snprintf(sub, sizeof(sub), "%s.%s", field, key);
			wl_error_field(err, WL_ERR_INVALID_PARAM, sub,
				       "%s: unknown key in a range (allowed: from, to, step or mul)", sub);
			return -1;
		}
	}
	for (int i = 0; i < 2; i++) {
		const char *k = i ? "to" : "from";
		json_t *v = json_object_get(spec, k);

		snprintf(sub, sizeof(sub), "%s.%s", field, k);
		if (!v) {
			wl_error_field(err, WL_ERR_INVALID_PARAM, sub,
				       "%s: a range needs 'from' and 'to'", sub);
			return -1;
		}
		if (get_integer(v, sub, i ? &r->to : &r->from, err) < 0)
			return -1;
	}
	if (json_object_get(spec, "step") && json_object_get(spec, "mul")) {
		wl_error_field(err, WL_ERR_INVALID_PARAM, field,
			       "%s: a range takes 'step' or 'mul', not both", field);
		return -1;
	}
	if (json_object_get(spec, "mul")) {
		snprintf(sub, sizeof(sub), "%s.mul", field);
		if (get_integer(json_object_get(spec, "mul"), sub, &r->mul, err) < 0)
			return -1;
		if (r->mul < 2 || r->mul > 1024) {
			wl_error_field(err, WL_ERR_INVALID_PARAM, sub,
				       "%s: %lld is not allowed (a multiplier is 2..1024)", sub, r->mul);
			return -1;
		}
		if (r->from < 1) {
			wl_error_field(err, WL_ERR_INVALID_PARAM, field,
				       "%s: a multiplying range must start at 1 or more", field);
			return -1;
		}
	} else {
		r->step = 1;
		snprintf(sub, sizeof(sub), "%s.step", field);
		if (json_object_get(spec, "step") &&
		    get_integer(json_object_get(spec, "step"), sub, &r->step, err) < 0)
			return -1;
		if (r->step < 1) {
			wl_error_field(err, WL_ERR_INVALID_PARAM, sub,
				       "%s: %lld is not allowed (a step is a positive integer)", sub,
				       r->step);
			return -1;
		}
	}
	if (r->from > r->to) {
		wl_error_field(err, WL_ERR_INVALID_PARAM, field,
			       "%s: range from %lld to %lld is backwards (from must be <= to)", field,
			       r->from, r->to);
		return -1;
	}
	return 0;
}

/* The number of values of a range, without expanding it. */
static long long range_count(const struct range *r)
{
	long long n = 0;

	if (r->mul) {
		for (long long v = r->from; v <= r->to; n++) {
			if (v > r->to / r->mul)
				return n + 1;
			v *= r->mul;
		}
		return n;
	}
	return (r->to - r->from) / r->step + 1;
}

/* Call fn for each value of a validated spec, in order. */
static int spec_foreach(const json_t *spec, int (*fn)(long long v, void *ctx), void *ctx)
{
	struct range r;

	if (json_is_integer(spec))
		return fn(json_integer_value(spec), ctx);
	if (json_is_array(spec)) {
		for (size_t i = 0; i < json_array_size(spec); i++)
			if (fn(json_integer_value(json_array_get(spec, i)), ctx) < 0)
				return -1;
		return 0;
	}
	if (parse_range(spec, "", &r, NULL) < 0)
		return -1;
	for (long long v = r.from; v <= r.to;) {
		if (fn(v, ctx) < 0)
			return -1;
		if (r.mul) {
			if (v > r.to / r.mul)
				break;
			v *= r.mul;
		} else {
			if (v > r.to - r.step)
				break;
			v += r.step;
		}
	}
	return 0;
}

struct check_ctx {
	const struct wl_experiment *exp;
	int p;
	const char *field;
	struct wl_error *err;
};

static int check_value_cb(long long v, void *ctx)
{
	struct check_ctx *c = ctx;

	return check_value(c->exp, c->p, v, c->field, c->err);
}

int wl_param_spec_count(const struct wl_experiment *exp, int p, const json_t *spec,
			long long max_list, long long *count, struct wl_error *err)
{
	char field[160];
	struct check_ctx ctx = { exp, p, field, err };
	long long v;

	snprintf(field, sizeof(field), "params.%s", exp->params[p].name);
	if (json_is_integer(spec) || json_is_real(spec)) {
		if (get_integer(spec, field, &v, err) < 0 || check_value(exp, p, v, field, err) < 0)
			return -1;
		*count = 1;
		return 0;
	}
	if (json_is_array(spec)) {
		size_t n = json_array_size(spec);

		if (n == 0 || (long long)n > max_list) {
			wl_error_field(err, WL_ERR_INVALID_PARAM, field,
				       "%s: a list must hold 1 to %lld values, this one holds %zu", field,
				       max_list, n);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			char sub[192];

			snprintf(sub, sizeof(sub), "%s[%zu]", field, i);
			if (get_integer(json_array_get(spec, i), sub, &v, err) < 0 ||
			    check_value(exp, p, v, sub, err) < 0)
				return -1;
			for (size_t j = 0; j < i; j++)
				if (json_integer_value(json_array_get(spec, j)) == v) {
					wl_error_field(err, WL_ERR_INVALID_PARAM, sub,
						       "%s: %lld appears twice in the list", sub, v);
					return -1;
				}
		}
		*count = (long long)n;
		return 0;
	}
	if (json_is_object(spec)) {
		struct range r;

		if (parse_range(spec, field, &r, err) < 0)
			return -1;
		*count = range_count(&r);
		/* Huge ranges are refused by the caller's measurement limit before
		 * each value is checked. */
		if (*count > max_list) {
			wl_error_field(err, WL_ERR_TOO_MANY_POINTS, field,
				       "%s: the range from %lld to %lld yields %lld values; at most %lld are allowed",
				       field, r.from, r.to, *count, max_list);
			return -1;
		}
		return spec_foreach(spec, check_value_cb, &ctx);
	}
	wl_error_field(err, WL_ERR_INVALID_PARAM, field,
		       "%s: expected an integer, a list of integers or a range {\"from\",\"to\",\"step\"}, got %s",
		       field, json_type_name(spec));
	return -1;
}

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
			       json_is_array(spec) ? "an empty array" : json_type_name(spec));
		return -1;
	}
	for (size_t i = 0; i < json_array_size(spec); i++) {
		json_t *v = json_array_get(spec, i);
		char field[64], known[512] = "";

		snprintf(field, sizeof(field), "variants[%zu]", i);
		if (!json_is_string(v)) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: expected a string, got %s",
				       field, json_type_name(v));
			return -1;
		}
		if (!wl_experiment_variant(exp, json_string_value(v), NULL)) {
			for (size_t k = 0; k < exp->nvariants; k++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
					 k ? ", " : "", exp->variants[k].id);
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
			       "params: expected an object, got %s", json_type_name(spec));
		return -1;
	}
	json_object_foreach((json_t *)spec, key, value) {
		if (wl_experiment_param(exp, key) < 0) {
			char field[160], known[512] = "";

			for (size_t k = 0; k < exp->nparams; k++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
					 k ? ", " : "", exp->params[k].name);
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
		if (wl_param_spec_count(exp, (int)p, s, cat->max_list, &count, err) < 0)
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
	static const char *const allowed[] = { "experiment", "variants", "kernels", "params",
					       "device", "repeat", "seed", "label", "cache",
					       "noise", "budget_ms", NULL };
	const char *key;
	json_t *value;

	if (!json_is_object(body)) {
		wl_error_set(err, WL_ERR_BAD_JSON, "the request body must be a JSON object, got %s",
			     json_type_name(body));
		return -1;
	}
	json_object_foreach((json_t *)body, key, value) {
		const char *const *a;

		for (a = allowed; *a; a++)
			if (strcmp(*a, key) == 0)
				break;
		if (!*a) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, key,
				       "%.64s: unknown field (allowed: experiment, variants, kernels, params, device, repeat, seed, label, cache, noise, budget_ms)",
				       key);
			return -1;
		}
	}
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
				snprintf(shown, sizeof(shown), "%s", json_type_name(v));
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
				       "label: expected a string, got %s", json_type_name(v));
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
			       json_is_string(v) ? "'" : "", json_is_string(v) ? json_string_value(v) : json_type_name(v),
			       json_is_string(v) ? "'" : "");
		return -1;
	}
	json_object_set_new(out, "cache", v ? json_copy(v) :
			    json_string(exp->metric == WL_METRIC_BANDWIDTH ? "cold" : "hot"));
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

int wl_request_validate(const struct wl_catalog *cat, const json_t *body, json_t **normalized,
			long long *measurements, struct wl_error *err)
{
	const struct wl_experiment *exp;
	json_t *out = NULL, *variants = NULL, *params = NULL, *kernels = NULL, *v;
	struct wl_points pts = { 0 };
	long long points, nvariants;
	int rc = -1;

	wl_error_clear(err);
	if (validate_top(body, err) < 0)
		goto out;
	v = json_object_get(body, "experiment");
	if (!v) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment", "experiment: is required");
		goto out;
	}
	if (!json_is_string(v)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment",
			       "experiment: expected a string, got %s", json_type_name(v));
		goto out;
	}
	exp = wl_catalog_find(cat, json_string_value(v));
	if (!exp) {
		char known[1024] = "";

		for (size_t k = 0; k < cat->nexperiments; k++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
				 k ? ", " : "", cat->experiments[k].id);
		wl_error_field(err, WL_ERR_UNKNOWN_EXPERIMENT, "experiment",
			       "experiment: '%.64s' is not in the catalog (allowed: %s)",
			       json_string_value(v), known);
		goto out;
	}
	out = json_object();
	variants = json_array();
	params = json_object();
	kernels = json_array();
	if (!out || !variants || !params || !kernels) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	json_object_set_new(out, "experiment", json_string(exp->id));
	v = json_object_get(body, "kernels");
	if (v && wl_custom_kernels_validate(exp, v, kernels, err) < 0)
		goto out;
	if (validate_variants(exp, json_object_get(body, "variants"), json_array_size(kernels) > 0,
			      variants, err) < 0 ||
	    validate_params(cat, exp, json_object_get(body, "params"), params, cat->max_measurements,
			    &points, err) < 0 ||
	    validate_scalars(body, out, err) < 0 || validate_sampling(exp, body, out, err) < 0)
		goto out;
	nvariants = (long long)(json_array_size(variants) + json_array_size(kernels));
	if (points * nvariants > cat->max_measurements) {
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
	if (wl_request_points(exp, out, &pts, err) < 0)
		goto out;
	*measurements = (long long)pts.count * nvariants;
	*normalized = out;
	out = NULL;
	rc = 0;
out:
	wl_points_free(&pts);
	json_decref(out);
	json_decref(variants);
	json_decref(params);
	json_decref(kernels);
	return rc;
}

struct collect_ctx {
	long long *values;
	size_t n;
};

static int collect_cb(long long v, void *ctx)
{
	struct collect_ctx *c = ctx;

	c->values[c->n++] = v;
	return 0;
}

int wl_request_points(const struct wl_experiment *exp, const json_t *normalized,
		      struct wl_points *out, struct wl_error *err)
{
	json_t *params = json_object_get(normalized, "params");
	long long *lists[64] = { 0 }, counts[64];
	size_t total = 1;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (exp->nparams > 64) {
		wl_error_set(err, WL_ERR_INTERNAL, "too many parameters");
		return -1;
	}
	for (size_t p = 0; p < exp->nparams; p++) {
		json_t *spec = json_object_get(params, exp->params[p].name);
		struct collect_ctx c;

		if (!spec)
			spec = exp->params[p].default_spec;
		if (wl_param_spec_count(exp, (int)p, spec, WL_PARAM_VALUE_MAX, &counts[p], err) < 0)
			goto out;
		if (counts[p] > 1 << 20 || total * (size_t)counts[p] > (size_t)1 << 20) {
			wl_error_set(err, WL_ERR_TOO_MANY_POINTS, "too many points");
			goto out;
		}
		total *= (size_t)counts[p];
		lists[p] = calloc((size_t)counts[p], sizeof(long long));
		if (!lists[p]) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
		c.values = lists[p];
		c.n = 0;
		spec_foreach(spec, collect_cb, &c);
	}
	out->count = total;
	out->nparams = exp->nparams;
	out->values = calloc(total * (exp->nparams ? exp->nparams : 1), sizeof(long long));
	if (!out->values) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < total; i++) {
		size_t rest = i;
		long long *row = out->values + i * exp->nparams;

		for (size_t p = exp->nparams; p-- > 0;) {
			row[p] = lists[p][rest % (size_t)counts[p]];
			rest /= (size_t)counts[p];
		}
		for (size_t p = 0; p < exp->nparams; p++) {
			int q = exp->params[p].multiple_of_param;

			if (q >= 0 && row[p] % row[q]) {
				char field[160];

				snprintf(field, sizeof(field), "params.%s", exp->params[p].name);
				wl_error_field(err, WL_ERR_INVALID_PARAM, field,
					       "%s: %lld is not a multiple of params.%s (%lld)", field,
					       row[p], exp->params[q].name, row[q]);
				goto out;
			}
		}
	}
	rc = 0;
out:
	for (size_t p = 0; p < exp->nparams && p < 64; p++)
		free(lists[p]);
	if (rc < 0)
		wl_points_free(out);
	return rc;
}

void wl_points_free(struct wl_points *pts)
{
	free(pts->values);
	memset(pts, 0, sizeof(*pts));
}

json_t *wl_point_to_json(const struct wl_experiment *exp, const struct wl_points *pts, size_t i)
{
	json_t *o = json_object();

	for (size_t p = 0; o && p < exp->nparams; p++)
		json_object_set_new(o, exp->params[p].name,
				    json_integer(pts->values[i * pts->nparams + p]));
	return o;
}

static void format_bytes(double b, char *buf, size_t len)
{
	if (b >= 1024.0 * 1024 * 1024)
		snprintf(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.0f bytes", b);
}

void wl_point_text(const struct wl_experiment *exp, const long long *row, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t p = 0; p < exp->nparams; p++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s=%lld", p ? ", " : "",
			 exp->params[p].name, row[p]);
}

int wl_request_check_device(const struct wl_experiment *exp, const json_t *normalized,
			    const struct wl_device_limits *dev, struct wl_error *err)
{
	json_t *variants = json_object_get(normalized, "variants");
	json_t *kernels = json_object_get(normalized, "kernels");
	size_t nbuiltin = json_array_size(variants);
	struct wl_points pts;
	int rc = -1;

	if (wl_request_points(exp, normalized, &pts, err) < 0)
		return -1;
	for (size_t i = 0; i < pts.count; i++) {
		const long long *row = pts.values + i * pts.nparams;

		/* Built-in variants, then custom kernels, which cost what their
		 * "like" variant costs. */
		for (size_t k = 0; k < nbuiltin + json_array_size(kernels); k++) {
			const json_t *custom = k < nbuiltin ? NULL : json_array_get(kernels, k - nbuiltin);
			const struct wl_variant_def *v = custom ? wl_custom_kernel_like(exp, custom) :
				wl_experiment_variant(exp, json_string_value(json_array_get(variants, k)), NULL);
			const char *name = custom ? json_string_value(json_object_get(custom, "name")) :
				v ? v->id : NULL;
			double mem, buf, local, wg;
			char where[256], need[32], have[32];

			if (!v)
				continue;
			wl_point_text(exp, row, where, sizeof(where));
			mem = wl_variant_cost(exp, v, WL_COST_MEMORY, row);
			buf = wl_variant_cost(exp, v, WL_COST_BUFFER, row);
			local = wl_variant_cost(exp, v, WL_COST_LOCAL, row);
			wg = wl_variant_cost(exp, v, WL_COST_WORK_GROUP, row);
			if (mem > dev->global_mem) {
				format_bytes(mem, need, sizeof(need));
				format_bytes(dev->global_mem, have, sizeof(have));
				wl_error_field(err, WL_ERR_DEVICE_LIMIT, "params",
					       "params: %s (%s) needs %s of device memory; device %s has %s",
					       where, name, need, dev->id, have);
				goto out;
			}
			if (dev->max_alloc > 0 && buf > dev->max_alloc) {
				format_bytes(buf, need, sizeof(need));
				format_bytes(dev->max_alloc, have, sizeof(have));
				wl_error_field(err, WL_ERR_DEVICE_LIMIT, "params",
					       "params: %s (%s) needs a %s buffer; device %s allocates at most %s at once",
					       where, name, need, dev->id, have);
				goto out;
			}
			if (local > dev->local_mem) {
				format_bytes(local, need, sizeof(need));
				format_bytes(dev->local_mem, have, sizeof(have));
				wl_error_field(err, WL_ERR_DEVICE_LIMIT, "params",
					       "params: %s (%s) needs %s of local memory per work-group; device %s has %s",
					       where, name, need, dev->id, have);
				goto out;
			}
			if (wg > (double)dev->max_work_group) {
				wl_error_field(err, WL_ERR_DEVICE_LIMIT, "params",
					       "params: %s (%s) needs work-groups of %.0f work-items; device %s allows at most %lld",
					       where, name, wg, dev->id, dev->max_work_group);
				goto out;
			}
		}
	}
	rc = 0;
out:
	wl_points_free(&pts);
	return rc;
}
