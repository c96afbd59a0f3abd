/* The param-spec grammar (see param_spec.h): one value, a list, or a range
 * {"from","to","step"|"mul"}, each value checked against its param's limits.
 * Counts come before expansion, so a spec of 2^40 values costs no more to
 * refuse than one of 2. */
#include "param_spec.h"

#include <stdio.h>
#include <string.h>

#include "json_strict.h"

/* Check one value of param p on its own. */
static int check_value(const struct wl_param_def *d, long long v, const char *field,
		       struct wl_error *err)
{
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
				       "%s: expected an integer, got %s", field, wl_json_type_name(v));
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

int wl_param_spec_foreach(const json_t *spec, int (*fn)(long long v, void *ctx), void *ctx)
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
	const struct wl_param_def *d;
	const char *field;
	struct wl_error *err;
};

static int check_value_cb(long long v, void *ctx)
{
	struct check_ctx *c = ctx;

	return check_value(c->d, v, c->field, c->err);
}

int wl_param_spec_count(const struct wl_param_def *d, const json_t *spec, long long max_list,
			long long *count, struct wl_error *err)
{
	char field[160];
	struct check_ctx ctx = { d, field, err };
	long long v;

	snprintf(field, sizeof(field), "params.%s", d->name);
	if (json_is_integer(spec) || json_is_real(spec)) {
		if (get_integer(spec, field, &v, err) < 0 || check_value(d, v, field, err) < 0)
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
			    check_value(d, v, sub, err) < 0)
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
		return wl_param_spec_foreach(spec, check_value_cb, &ctx);
	}
	wl_error_field(err, WL_ERR_INVALID_PARAM, field,
		       "%s: expected an integer, a list of integers or a range {\"from\",\"to\",\"step\"}, got %s",
		       field, wl_json_type_name(spec));
	return -1;
}
