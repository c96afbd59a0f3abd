/* Reading and evaluating a variant's launch declaration (see launch_decl.h).
 * The merge is key by key, so a variant that only launches a different grid
 * says only "global". */
#include "launch_decl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_strict.h"

static int is_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= WL_EXPR_NAME_MAX || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static int parse(const json_t *v, const char *const *names, int nnames, const char *where,
		 const char *field, struct wl_expr *out, struct wl_error *err)
{
	struct wl_error inner;

	if (!json_is_string(v)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s host.%s: expected a string expression, got %s",
			     where, field, wl_json_type_name(v));
		return -1;
	}
	if (wl_expr_parse(json_string_value(v), names, nnames, 0, out, &inner) < 0) {
		wl_error_set(err, WL_ERR_CONFIG, "%s host.%s: %s", where, field, inner.msg);
		return -1;
	}
	return 0;
}

/* "global" or "local": one or two expressions; *dims is set or checked. */
static int load_dims(const json_t *a, const char *const *names, int nnames, const char *where,
		     const char *field, struct wl_expr *out, int *dims, struct wl_error *err)
{
	size_t n = json_array_size(a);

	if (!json_is_array(a) || n < 1 || n > 2) {
		wl_error_set(err, WL_ERR_CONFIG, "%s host.%s: expected one or two expressions", where,
			     field);
		return -1;
	}
	if (*dims && (size_t)*dims != n) {
		wl_error_set(err, WL_ERR_CONFIG, "%s host.%s: %zu dimensions where global has %d",
			     where, field, n, *dims);
		return -1;
	}
	*dims = (int)n;
	for (size_t i = 0; i < n; i++)
		if (parse(json_array_get(a, i), names, nnames, where, field, &out[i], err) < 0)
			return -1;
	return 0;
}

/* A string names a family's buffer unless it reads as an expression over the
 * params; {"local": bytes} is local memory. */
static int load_arg(const json_t *v, const char *const *names, int nnames, const char *where,
		    size_t i, struct wl_launch_arg *out, struct wl_error *err)
{
	char field[32];

	snprintf(field, sizeof(field), "args[%zu]", i);
	if (json_is_object(v)) {
		static const char *const keys[] = { "local", NULL };
		char sub[300];

		snprintf(sub, sizeof(sub), "%s host", where);
		if (wl_json_check_keys(v, keys, sub, field, err) < 0)
			return -1;
		out->kind = WL_ARG_LOCAL;
		return parse(json_object_get(v, "local"), names, nnames, where, field, &out->value, err);
	}
	if (json_is_string(v)) {
		struct wl_error ignored;

		if (wl_expr_parse(json_string_value(v), names, nnames, 0, &out->value, &ignored) == 0) {
			out->kind = WL_ARG_INT;
			return 0;
		}
		if (is_name(json_string_value(v))) {
			out->kind = WL_ARG_BUFFER;
			snprintf(out->buffer, sizeof(out->buffer), "%s", json_string_value(v));
			return 0;
		}
	}
	return parse(v, names, nnames, where, field, &out->value, err);
}

static int load_args(const json_t *a, const char *const *names, int nnames, const char *where,
		     struct wl_launch_decl *d, struct wl_error *err)
{
	if (!json_is_array(a) || json_array_size(a) > WL_LAUNCH_ARGS_MAX) {
		wl_error_set(err, WL_ERR_CONFIG, "%s host.args: expected a list of at most %d arguments",
			     where, WL_LAUNCH_ARGS_MAX);
		return -1;
	}
	d->nargs = (int)json_array_size(a);
	for (size_t i = 0; i < json_array_size(a); i++)
		if (load_arg(json_array_get(a, i), names, nnames, where, i, &d->args[i], err) < 0)
			return -1;
	return 0;
}

static int load_merged(const json_t *m, const char *const *names, int nnames, const char *where,
		       struct wl_launch_decl *d, struct wl_error *err)
{
	const json_t *global = json_object_get(m, "global"), *fill = json_object_get(m, "fill");
	const json_t *local = json_object_get(m, "local"), *output = json_object_get(m, "output");

	/* Nothing declared: a catalog only the server reads (a test's) may say
	 * nothing of the launch; the runner refuses such a variant at start. */
	if (json_object_size(m) == 0)
		return 0;
	if (!global == !fill) {
		wl_error_set(err, WL_ERR_CONFIG, "%s host: needs 'global' or 'fill', one of them", where);
		return -1;
	}
	if (global && load_dims(global, names, nnames, where, "global", d->global, &d->dims, err) < 0)
		return -1;
	if (fill) {
		d->dims = 1;
		d->has_fill = 1;
		if (parse(fill, names, nnames, where, "fill", &d->fill, err) < 0)
			return -1;
		if (!local) {
			wl_error_set(err, WL_ERR_CONFIG, "%s host: a 'fill' grid needs 'local'", where);
			return -1;
		}
	}
	if (local) {
		d->has_local = 1;
		if (load_dims(local, names, nnames, where, "local", d->local, &d->dims, err) < 0)
			return -1;
	}
	if (load_args(json_object_get(m, "args"), names, nnames, where, d, err) < 0)
		return -1;
	if (output) {
		if (!json_is_string(output)) {
			wl_error_set(err, WL_ERR_CONFIG, "%s host.output: expected a string", where);
			return -1;
		}
		d->output = strdup(json_string_value(output));
		if (!d->output) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
	}
	return 0;
}

int wl_launch_decl_load(const json_t *obj, const json_t *base, const char *const *names,
			int nnames, const char *where, struct wl_launch_decl *out,
			struct wl_error *err)
{
	static const char *const keys[] = { "global", "local", "fill", "args", "output", NULL };
	const char *key;
	json_t *value;

	memset(out, 0, sizeof(*out));
	if ((base && wl_json_check_keys(base, keys, where, "host", err) < 0) ||
	    (obj && wl_json_check_keys(obj, keys, where, "host", err) < 0))
		return -1;
	out->shown = base ? json_deep_copy(base) : json_object();
	if (!out->shown) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	/* A variant that gives a grid of its own drops its experiment's other one. */
	if (obj && json_object_get(obj, "global"))
		json_object_del(out->shown, "fill");
	if (obj && json_object_get(obj, "fill"))
		json_object_del(out->shown, "global");
	json_object_foreach((json_t *)obj, key, value)
		json_object_set(out->shown, key, value);
	if (load_merged(out->shown, names, nnames, where, out, err) < 0) {
		wl_launch_decl_clear(out);
		return -1;
	}
	return 0;
}

void wl_launch_decl_clear(struct wl_launch_decl *d)
{
	free(d->output);
	json_decref(d->shown);
	memset(d, 0, sizeof(*d));
}

static int eval(const struct wl_expr *e, const long long *values, const char *what,
		long long *out, struct wl_error *err)
{
	const char *why = NULL;

	if (wl_expr_eval(e, values, out, &why) < 0) {
		wl_error_set(err, WL_ERR_INVALID_PARAM, "the launch's %s: %s", what, why);
		return -1;
	}
	if (*out < 1) {
		wl_error_set(err, WL_ERR_INVALID_PARAM, "the launch's %s is %lld, below 1", what, *out);
		return -1;
	}
	return 0;
}

int wl_launch_decl_size(const struct wl_launch_decl *d, const long long *values,
			struct wl_launch_size *out, struct wl_error *err)
{
	memset(out, 0, sizeof(*out));
	out->dims = d->dims;
	for (int i = 0; i < d->dims; i++) {
		if ((!d->has_fill && eval(&d->global[i], values, "global size", &out->global[i], err) < 0) ||
		    (d->has_local && eval(&d->local[i], values, "work-group size", &out->local[i], err) < 0))
			return -1;
	}
	if (d->has_fill && eval(&d->fill, values, "fill", &out->fill, err) < 0)
		return -1;
	return 0;
}

int wl_launch_decl_driver_chooses(const struct wl_launch_decl *d)
{
	return d->dims > 0 && !d->has_local;
}

long long wl_launch_decl_local_arg_bytes(const struct wl_launch_decl *d, const long long *values)
{
	long long total = 0, value;
	const char *why;

	for (int i = 0; i < d->nargs; i++)
		if (d->args[i].kind == WL_ARG_LOCAL && wl_expr_eval(&d->args[i].value, values, &value, &why) == 0)
			total += value;
	return total;
}

int wl_launch_decl_reads(const struct wl_launch_decl *d, const char *name)
{
	for (int i = 0; i < d->nargs; i++)
		if (d->args[i].kind == WL_ARG_BUFFER && strcmp(d->args[i].buffer, name) == 0)
			return 1;
	return 0;
}

int wl_launch_decl_output_is(const struct wl_launch_decl *d, const char *output)
{
	return d->output && strcmp(d->output, output) == 0;
}
