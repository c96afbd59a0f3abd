/* A run's points (see points.h): the product of its params' specs, the last
 * param varying fastest, with the constraints between params checked per
 * point. */
#include "points.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuning.h"

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
	int rc = -1, tuning = json_object_get(normalized, "restrict") || json_object_get(normalized, "tune");

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
		if (wl_param_spec_count(&exp->params[p], spec, WL_PARAM_VALUE_MAX, &counts[p], err) < 0)
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
		wl_param_spec_foreach(spec, collect_cb, &c);
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

			/* A tuning run's space holds settings that do not
			 * go together: wl_tuning_select leaves them out. */
			if (q >= 0 && row[p] % row[q] && !tuning) {
				char field[160];

				snprintf(field, sizeof(field), "params.%s", exp->params[p].name);
				wl_error_field(err, WL_ERR_INVALID_PARAM, field,
					       "%s: %lld is not a multiple of params.%s (%lld)", field,
					       row[p], exp->params[q].name, row[q]);
				goto out;
			}
		}
	}
	/* A tuning run measures what its restrictions and strategy leave. */
	rc = wl_tuning_select(exp, normalized, out, err);
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

int wl_point_from_json(const struct wl_experiment *exp, const json_t *obj, long long *values)
{
	for (size_t i = 0; i < exp->nparams; i++) {
		json_t *v = json_object_get(obj, exp->params[i].name);

		if (!json_is_integer(v))
			return -1;
		values[i] = json_integer_value(v);
	}
	return 0;
}

void wl_point_text(const struct wl_experiment *exp, const long long *row, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t p = 0; p < exp->nparams; p++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s=%lld", p ? ", " : "",
			 exp->params[p].name, row[p]);
}
