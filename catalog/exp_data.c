/* Reading an experiment's buffers, scalars, defines and check (see
 * exp_data.h), strictly: every key known, every type one of the list, every
 * count an expression of the params, every name a kernel argument gives
 * declared, each error naming its path. */
#include "exp_data.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_strict.h"

/* Where the reading is and how its errors are said. */
struct reader {
	const struct wl_exp_data_names *names;
	const char *where;
	int fields;
	struct wl_error *err;
};

/* The param called name, or -1. */
static int param(const struct reader *r, const char *name)
{
	for (int i = 0; i < r->names->nparams; i++)
		if (strcmp(r->names->params[i], name) == 0)
			return i;
	return -1;
}

/* An error at path (below the reader's where): "where.path: message". */
__attribute__((format(printf, 3, 4)))
static int fail(const struct reader *r, const char *path, const char *fmt, ...)
{
	char msg[900], at[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(at, sizeof(at), "%s.%s", r->where, path);
	if (r->fields)
		wl_error_field(r->err, WL_ERR_INVALID_FIELD, at, "%s: %s", at, msg);
	else
		wl_error_set(r->err, WL_ERR_CONFIG, "%s: %s", at, msg);
	return -1;
}

/* Whether s is a name a kernel argument or a define may be. */
static int is_ident(const char *s)
{
	if (!s || !*s || strlen(s) >= WL_EXPR_NAME_MAX || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* The numbers after "kind:" in text, exactly want of them, into v. */
static int numbers(const char *text, int want, double *v)
{
	const char *p = strchr(text, ':');
	int n = 0;

	while (p && n < want) {
		char *end;

		v[n++] = strtod(p + 1, &end);
		if (end == p + 1 || !isfinite(v[n - 1]) || (*end && *end != ':'))
			return -1;
		p = *end ? end : NULL;
	}
	return n == want && !p ? 0 : -1;
}

static const char INITS[] = "zeros, index, constant:<v>, random, random:<lo>:<hi>, random_int:<lo>:<hi>, "
			    "nonzero_int:<max>, permutation, transpose:<buffer>, csr_rows:<nonzeros per row>, "
			    "csr_cols:<band>";

static int load_init(const struct reader *r, const char *path, const char *text, const struct wl_elem_type *t,
		     struct wl_buffer_init *out)
{
	double v[2];

	if (strcmp(text, "zeros") == 0) {
		out->kind = WL_INIT_ZEROS;
	} else if (strcmp(text, "index") == 0) {
		out->kind = WL_INIT_INDEX;
	} else if (strncmp(text, "constant:", 9) == 0 && numbers(text, 1, v) == 0) {
		*out = (struct wl_buffer_init){ .kind = WL_INIT_CONSTANT, .value = v[0] };
	} else if (strncmp(text, "constant:", 9) == 0 && !t->is_float) {
		struct wl_error why;

		*out = (struct wl_buffer_init){ .kind = WL_INIT_CONSTANT, .has_expr = 1 };
		if (wl_expr_parse(text + 9, r->names->params, r->names->nparams, 0, &out->value_expr, &why) < 0)
			return fail(r, path, "'%.64s': %s", text, why.msg);
	} else if (strncmp(text, "nonzero_int:", 12) == 0 && numbers(text, 1, v) == 0) {
		*out = (struct wl_buffer_init){ .kind = WL_INIT_NONZERO_INT, .lo = -v[0], .hi = v[0] };
		if (v[0] != floor(v[0]) || v[0] < 1 || v[0] > 1 << 24)
			return fail(r, path, "'%s': max must be an integer from 1 to %d", text, 1 << 24);
	} else if (strncmp(text, "transpose:", 10) == 0 && is_ident(text + 10)) {
		*out = (struct wl_buffer_init){ .kind = WL_INIT_TRANSPOSE, .source = -1 };
		snprintf(out->source_name, sizeof(out->source_name), "%s", text + 10);
	} else if (strcmp(text, "random") == 0 || (strncmp(text, "random:", 7) == 0 && numbers(text, 2, v) == 0)) {
		*out = (struct wl_buffer_init){ .kind = WL_INIT_RANDOM, .lo = text[6] ? v[0] : -1, .hi = text[6] ? v[1] : 1 };
		if (!t->is_float)
			return fail(r, path, "'%s' makes floats; a buffer of integers takes random_int:<lo>:<hi>", text);
		if (!(out->lo < out->hi))
			return fail(r, path, "'%s': lo must be below hi", text);
	} else if (strncmp(text, "random_int:", 11) == 0 && numbers(text, 2, v) == 0) {
		*out = (struct wl_buffer_init){ .kind = WL_INIT_RANDOM_INT, .lo = v[0], .hi = v[1] };
		if (v[0] != floor(v[0]) || v[1] != floor(v[1]) || v[0] > v[1] || fabs(v[0]) > 9e15 || fabs(v[1]) > 9e15)
			return fail(r, path, "'%s': lo and hi must be integers, lo <= hi", text);
	} else if (strcmp(text, "permutation") == 0) {
		out->kind = WL_INIT_PERMUTATION;
	} else if (strncmp(text, "csr_rows:", 9) == 0 && numbers(text, 1, v) == 0) {
		*out = (struct wl_buffer_init){ .kind = WL_INIT_CSR_ROWS, .per_row = (long long)v[0] };
		if (v[0] != floor(v[0]) || v[0] < 1 || v[0] > 1 << 20)
			return fail(r, path, "'%s': nonzeros per row must be an integer from 1 to %d", text, 1 << 20);
	} else if (strncmp(text, "csr_cols:", 9) == 0 && numbers(text, 1, v) == 0) {
		*out = (struct wl_buffer_init){ .kind = WL_INIT_CSR_COLS, .band = (long long)v[0] };
		if (v[0] != floor(v[0]) || v[0] < 1 || v[0] > 1 << 30)
			return fail(r, path, "'%s': the band must be an integer from 1 to %d", text, 1 << 30);
	} else {
		return fail(r, path, "'%.64s' is no init (allowed: %s)", text, INITS);
	}
	if ((out->kind == WL_INIT_PERMUTATION || out->kind >= WL_INIT_CSR_ROWS) && (t->is_float || t->lanes != 1))
		return fail(r, path, "'%s' makes integer indices: the buffer must be of int, uint, long or ulong", text);
	return 0;
}

static int load_buffer(const struct reader *r, size_t i, const json_t *obj, struct wl_buffer_def *b)
{
	static const char *const keys[] = { "name", "type", "count", "init", "output", NULL };
	const json_t *init = json_object_get(obj, "init"), *output = json_object_get(obj, "output");
	const json_t *count = json_object_get(obj, "count");
	const char *unknown, *type = json_string_value(json_object_get(obj, "type"));
	char path[64], sub[80];
	struct wl_error why;

	snprintf(path, sizeof(path), "buffers[%zu]", i);
	if (!json_is_object(obj))
		return fail(r, path, "expected an object {\"name\", \"type\", \"count\", \"init\", \"output\"}, got %s",
			    wl_json_type_name(obj));
	if ((unknown = wl_json_unknown_key(obj, keys)))
		return fail(r, path, "unknown key '%.40s' (allowed: name, type, count, init, output)", unknown);
	b->name = is_ident(json_string_value(json_object_get(obj, "name"))) ?
		strdup(json_string_value(json_object_get(obj, "name"))) : NULL;
	snprintf(sub, sizeof(sub), "%s.name", path);
	if (!b->name)
		return fail(r, sub, "expected a name of letters, digits and '_' (a C identifier under %d bytes)",
			    WL_EXPR_NAME_MAX);
	snprintf(sub, sizeof(sub), "%s.type", path);
	if (wl_elem_type_parse(type, &b->type) < 0)
		return fail(r, sub, "'%.32s' is no type (allowed: %s)", type ? type : "(none)", wl_elem_type_allowed());
	snprintf(sub, sizeof(sub), "%s.count", path);
	if (json_is_integer(count)) {
		char text[32];

		snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(count));
		b->count_text = strdup(text);
	} else if (json_is_string(count)) {
		b->count_text = strdup(json_string_value(count));
	} else {
		return fail(r, sub, "expected an integer or an expression of the parameters, got %s",
			    wl_json_type_name(count));
	}
	if (!b->count_text || wl_expr_parse(b->count_text, r->names->params, r->names->nparams, 0, &b->count, &why) < 0)
		return fail(r, sub, "%s", b->count_text ? why.msg : "out of memory");
	snprintf(sub, sizeof(sub), "%s.init", path);
	if (init && !json_is_string(init))
		return fail(r, sub, "expected a string (allowed: %s), got %s", INITS, wl_json_type_name(init));
	if (init && load_init(r, sub, json_string_value(init), &b->type, &b->init) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.output", path);
	if (output && !json_is_boolean(output))
		return fail(r, sub, "expected true or false, got %s", wl_json_type_name(output));
	b->output = json_is_true(output);
	if (!init && !b->output)
		return fail(r, path, "'%s' is read and never filled: give it an init, or \"output\": true", b->name);
	return 0;
}

static int load_scalar(const struct reader *r, size_t i, const json_t *obj, struct wl_scalar_def *s)
{
	static const char *const keys[] = { "name", "type", "value", NULL };
	const json_t *value = json_object_get(obj, "value");
	const char *unknown, *type = json_string_value(json_object_get(obj, "type"));
	char path[64], sub[80], text[64];
	struct wl_error why;

	snprintf(path, sizeof(path), "scalars[%zu]", i);
	if (!json_is_object(obj))
		return fail(r, path, "expected an object {\"name\", \"type\", \"value\"}, got %s", wl_json_type_name(obj));
	if ((unknown = wl_json_unknown_key(obj, keys)))
		return fail(r, path, "unknown key '%.40s' (allowed: name, type, value)", unknown);
	s->name = is_ident(json_string_value(json_object_get(obj, "name"))) ?
		strdup(json_string_value(json_object_get(obj, "name"))) : NULL;
	snprintf(sub, sizeof(sub), "%s.name", path);
	if (!s->name)
		return fail(r, sub, "expected a name of letters, digits and '_' (a C identifier under %d bytes)",
			    WL_EXPR_NAME_MAX);
	snprintf(sub, sizeof(sub), "%s.type", path);
	if (wl_elem_type_parse(type, &s->type) < 0 || s->type.lanes != 1)
		return fail(r, sub, "'%.32s' is no scalar type (allowed: char, uchar, short, ushort, int, uint, long, "
			    "ulong, float, double)", type ? type : "(none)");
	snprintf(sub, sizeof(sub), "%s.value", path);
	if (json_is_number(value))
		snprintf(text, sizeof(text), "%.17g", json_number_value(value));
	else if (json_is_string(value))
		snprintf(text, sizeof(text), "%s", json_string_value(value));
	else
		return fail(r, sub, "expected a number, or an expression of the parameters for an integer, got %s",
			    wl_json_type_name(value));
	if (s->type.is_float) {
		char *end;

		s->real = strtod(text, &end);
		if (end == text || *end || !isfinite(s->real))
			return fail(r, sub, "'%s' is no number", text);
		return 0;
	}
	if (wl_expr_parse(text, r->names->params, r->names->nparams, 0, &s->value, &why) < 0)
		return fail(r, sub, "%s", why.msg);
	return 0;
}

/* A list under key of at most max objects, each read by load. */
static int load_list(const struct reader *r, const json_t *obj, const char *key, size_t max, size_t each,
		     void **items, size_t *n,
		     int (*load)(const struct reader *, size_t, const json_t *, void *))
{
	const json_t *list = json_object_get(obj, key);

	if (!list)
		return 0;
	if (!json_is_array(list) || json_array_size(list) > max)
		return fail(r, key, "expected a list of at most %zu, got %s", max,
			    json_is_array(list) ? "more" : wl_json_type_name(list));
	*items = calloc(json_array_size(list) + 1, each);
	if (!*items)
		return fail(r, key, "out of memory");
	for (size_t i = 0; i < json_array_size(list); i++) {
		*n = i + 1;
		if (load(r, i, json_array_get(list, i), (char *)*items + i * each) < 0)
			return -1;
	}
	return 0;
}

static int buffer_loader(const struct reader *r, size_t i, const json_t *obj, void *item)
{
	return load_buffer(r, i, obj, item);
}

static int scalar_loader(const struct reader *r, size_t i, const json_t *obj, void *item)
{
	return load_scalar(r, i, obj, item);
}

/* Names unique across buffers and scalars, and none a param's (an argument
 * naming both would be ambiguous); a csr_cols has its csr_rows. */
static int check_names(const struct reader *r, const struct wl_exp_data *d)
{
	size_t rows = 0, n = d->nbuffers + d->nscalars;
	char path[64];

	for (size_t i = 0; i < n; i++) {
		const char *a = i < d->nbuffers ? d->buffers[i].name : d->scalars[i - d->nbuffers].name;

		snprintf(path, sizeof(path), i < d->nbuffers ? "buffers[%zu].name" : "scalars[%zu].name",
			 i < d->nbuffers ? i : i - d->nbuffers);
		if (param(r, a) >= 0)
			return fail(r, path, "'%s' is a parameter's name too", a);
		for (size_t j = 0; j < i; j++)
			if (strcmp(a, j < d->nbuffers ? d->buffers[j].name : d->scalars[j - d->nbuffers].name) == 0)
				return fail(r, path, "'%s' is named twice", a);
	}
	for (size_t i = 0; i < d->nbuffers; i++) {
		struct wl_buffer_init *in = &d->buffers[i].init;

		rows += in->kind == WL_INIT_CSR_ROWS;
		for (size_t j = 0; in->kind == WL_INIT_TRANSPOSE && j < i; j++)
			if (strcmp(d->buffers[j].name, in->source_name) == 0)
				in->source = (int)j;
		snprintf(path, sizeof(path), "buffers[%zu].init", i);
		if (in->kind == WL_INIT_TRANSPOSE &&
		    (in->source < 0 || d->buffers[in->source].init.kind == WL_INIT_NONE ||
		     d->buffers[in->source].init.kind >= WL_INIT_TRANSPOSE ||
		     strcmp(d->buffers[in->source].count_text, d->buffers[i].count_text) != 0 ||
		     d->buffers[in->source].type.base != d->buffers[i].type.base ||
		     d->buffers[in->source].type.lanes != 1 || d->buffers[i].type.lanes != 1))
			return fail(r, path, "transpose:%s needs a buffer of that name listed before it, filled element by "
				    "element (zeros, index, constant, random, random_int or nonzero_int), of one-lane "
				    "elements of the same type and the same count", in->source_name);
	}
	for (size_t i = 0; i < d->nbuffers; i++) {
		snprintf(path, sizeof(path), "buffers[%zu].init", i);
		if (d->buffers[i].init.kind == WL_INIT_CSR_ROWS && rows > 1)
			return fail(r, path, "a second csr_rows: one sparse matrix an experiment");
		if (d->buffers[i].init.kind == WL_INIT_CSR_COLS && rows != 1)
			return fail(r, path, "csr_cols needs its partner, a buffer with init csr_rows:<nonzeros per row>");
	}
	return 0;
}

/* define i: a param's name, or {"name": MACRO, "value": expression}. */
static int load_define(const struct reader *r, size_t i, const json_t *v, struct wl_define *out)
{
	static const char *const keys[] = { "name", "value", NULL };
	const char *name = json_is_string(v) ? json_string_value(v) : json_string_value(json_object_get(v, "name"));
	const json_t *value = json_is_object(v) ? json_object_get(v, "value") : v;
	char path[48], text[64];
	struct wl_error why;

	snprintf(path, sizeof(path), "defines[%zu]", i);
	if (json_is_object(v) && wl_json_unknown_key(v, keys))
		return fail(r, path, "unknown key '%.40s' (allowed: name, value)", wl_json_unknown_key(v, keys));
	if (!is_ident(name))
		return fail(r, path, "expected a parameter's name or {\"name\": <a macro>, \"value\": <an expression of the parameters>}");
	if (json_is_string(v) && param(r, name) < 0)
		return fail(r, path, "'%.40s' is no parameter of the experiment (a macro of another name is {\"name\", \"value\"})",
			    name);
	if (json_is_integer(value))
		snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(value));
	else if (json_is_string(value))
		snprintf(text, sizeof(text), "%s", json_string_value(value));
	else
		return fail(r, path, "value: expected an integer or an expression of the parameters, got %s",
			    wl_json_type_name(value));
	snprintf(out->name, sizeof(out->name), "%s", name);
	if (wl_expr_parse(text, r->names->params, r->names->nparams, 0, &out->value, &why) < 0)
		return fail(r, path, "%s", why.msg);
	return 0;
}

static int load_defines(const struct reader *r, const json_t *list, struct wl_exp_data *d)
{
	if (!list)
		return 0;
	if (!json_is_array(list) || json_array_size(list) > WL_DATA_DEFINES_MAX)
		return fail(r, "defines", "expected a list of at most %d parameters or macros, got %s", WL_DATA_DEFINES_MAX,
			    json_is_array(list) ? "more" : wl_json_type_name(list));
	d->defines = calloc(json_array_size(list) + 1, sizeof(*d->defines));
	if (!d->defines)
		return fail(r, "defines", "out of memory");
	for (size_t i = 0; i < json_array_size(list); i++) {
		char path[48];

		if (load_define(r, i, json_array_get(list, i), &d->defines[i]) < 0)
			return -1;
		snprintf(path, sizeof(path), "defines[%zu]", i);
		for (size_t j = 0; j < i; j++)
			if (strcmp(d->defines[j].name, d->defines[i].name) == 0)
				return fail(r, path, "'%s' is defined twice", d->defines[i].name);
		d->ndefines = i + 1;
	}
	return 0;
}

/* A tolerance: a number >= 0 (ulps an integer), or absent (-1). */
static int tolerance(const struct reader *r, const json_t *obj, const char *key, int integer, double *out)
{
	const json_t *v = json_object_get(obj, key);
	char path[32];

	*out = -1;
	if (!v)
		return 0;
	snprintf(path, sizeof(path), "check.%s", key);
	if (!json_is_number(v) || json_number_value(v) < 0 || (integer && !json_is_integer(v)))
		return fail(r, path, "expected %s >= 0, got %s", integer ? "an integer" : "a number", wl_json_type_name(v));
	*out = json_number_value(v);
	return 0;
}

static int load_check(const struct reader *r, const json_t *obj, struct wl_check_def *c)
{
	static const char *const keys[] = { "against", "abs", "rel", "ulps", NULL };
	static const char *const catalog_keys[] = { "reference", NULL };
	const char *unknown, *against = json_string_value(json_object_get(obj, "against"));
	const char *reference = json_string_value(json_object_get(obj, "reference"));
	double ulps;
	char list[256] = "";

	*c = (struct wl_check_def){ .kind = WL_CHECK_NONE, .against = -1, .abs = -1, .rel = -1, .ulps = -1 };
	if (json_is_string(obj) && strcmp(json_string_value(obj), "none") == 0)
		return 0;
	/* The catalog's references are code of the runner's: not a request's. */
	if (!r->fields && json_is_object(obj) && json_object_get(obj, "reference")) {
		if ((unknown = wl_json_unknown_key(obj, catalog_keys)))
			return fail(r, "check", "unknown key '%.40s' beside a reference", unknown);
		if (!is_ident(reference) || strlen(reference) >= sizeof(c->reference))
			return fail(r, "check.reference", "expected the name of one of the runner's references");
		c->kind = WL_CHECK_REFERENCE;
		snprintf(c->reference, sizeof(c->reference), "%s", reference);
		return 0;
	}
	if (!json_is_object(obj))
		return fail(r, "check", "expected {\"against\": <variant>, \"abs\"|\"rel\"|\"ulps\": <tolerance>} or \"none\", "
			    "got %s", wl_json_type_name(obj));
	if ((unknown = wl_json_unknown_key(obj, keys)))
		return fail(r, "check", "unknown key '%.40s' (allowed: against, abs, rel, ulps)", unknown);
	for (size_t v = 0; v < r->names->nvariants; v++) {
		wl_list_append(list, sizeof(list), r->names->variants[v]);
		if (against && strcmp(against, r->names->variants[v]) == 0)
			c->against = (int)v;
	}
	if (c->against < 0)
		return fail(r, "check.against", "'%.40s' is no variant (allowed: %s)", against ? against : "(none)", list);
	c->kind = WL_CHECK_AGAINST;
	if (tolerance(r, obj, "abs", 0, &c->abs) < 0 || tolerance(r, obj, "rel", 0, &c->rel) < 0 ||
	    tolerance(r, obj, "ulps", 1, &ulps) < 0)
		return -1;
	c->ulps = ulps < 0 ? -1 : (long long)ulps;
	return 0;
}

int wl_exp_data_load(const json_t *obj, const struct wl_exp_data_names *names, const char *where, int fields,
		     struct wl_exp_data **out, struct wl_error *err)
{
	struct reader r = { names, where, fields, err };
	struct wl_exp_data *d = NULL;
	int rc = -1;

	*out = NULL;
	if (!json_object_get(obj, "buffers") && fields)
		return fail(&r, "buffers", "is required: the buffers its kernels take");
	if (!json_object_get(obj, "buffers")) {
		const char *key = json_object_get(obj, "scalars") ? "scalars" :
			json_object_get(obj, "defines") ? "defines" : json_object_get(obj, "check") ? "check" : NULL;

		return key ? fail(&r, key, "needs the experiment's buffers (\"buffers\": [...])") : 0;
	}
	if (!(d = calloc(1, sizeof(*d)))) {
		fail(&r, "buffers", "out of memory");
		goto out;
	}
	if (load_list(&r, obj, "buffers", WL_DATA_BUFFERS_MAX, sizeof(*d->buffers), (void **)&d->buffers,
		      &d->nbuffers, buffer_loader) < 0 ||
	    load_list(&r, obj, "scalars", WL_DATA_SCALARS_MAX, sizeof(*d->scalars), (void **)&d->scalars,
		      &d->nscalars, scalar_loader) < 0 ||
	    load_defines(&r, json_object_get(obj, "defines"), d) < 0 || check_names(&r, d) < 0)
		goto out;
	if (d->nbuffers == 0) {
		fail(&r, "buffers", "expected at least one buffer");
		goto out;
	}
	if (json_object_get(obj, "check") ? load_check(&r, json_object_get(obj, "check"), &d->check) < 0 :
	    fail(&r, "check", "is required: {\"against\": <variant>} or \"none\"") < 0)
		goto out;
	*out = d;
	d = NULL;
	rc = 0;
out:
	wl_exp_data_free(d);
	return rc;
}

void wl_exp_data_free(struct wl_exp_data *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nbuffers; i++) {
		free(d->buffers[i].name);
		free(d->buffers[i].count_text);
	}
	for (size_t i = 0; i < d->nscalars; i++)
		free(d->scalars[i].name);
	free(d->buffers);
	free(d->scalars);
	free(d->defines);
	free(d);
}

const struct wl_buffer_def *wl_exp_data_buffer(const struct wl_exp_data *d, const char *name)
{
	for (size_t i = 0; d && i < d->nbuffers; i++)
		if (strcmp(d->buffers[i].name, name) == 0)
			return &d->buffers[i];
	return NULL;
}

const struct wl_scalar_def *wl_exp_data_scalar(const struct wl_exp_data *d, const char *name)
{
	for (size_t i = 0; d && i < d->nscalars; i++)
		if (strcmp(d->scalars[i].name, name) == 0)
			return &d->scalars[i];
	return NULL;
}
