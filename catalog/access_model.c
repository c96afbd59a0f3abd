/* Reading access declarations, strictly: every key known, every expression
 * parsed against exactly the names it may use (a loop's bounds may not depend
 * on the work-item, since the model runs a loop once for the whole group), so
 * that a typo stops the catalog at load and a custom kernel's request at POST. */
#include "access_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_strict.h"

static const char *const builtin_names[WL_VAR_BUILTINS] = {
	[WL_VAR_LID0] = "lid0", [WL_VAR_LID1] = "lid1", [WL_VAR_GRP0] = "grp0",
	[WL_VAR_GRP1] = "grp1", [WL_VAR_GID0] = "gid0", [WL_VAR_GID1] = "gid1",
	[WL_VAR_LSZ0] = "lsz0", [WL_VAR_LSZ1] = "lsz1", [WL_VAR_GSZ0] = "gsz0",
	[WL_VAR_GSZ1] = "gsz1", [WL_VAR_NGRP0] = "ngrp0", [WL_VAR_NGRP1] = "ngrp1",
};

#define NAMES_MAX (WL_VAR_BUILTINS + WL_ACCESS_LOOPS)

/* The name table of one context: params, then the builtins the model has
 * (per_item: the work-item's ids too), then loops[0..nloops) counters. Names
 * not allowed here are "" and match nothing. */
struct names {
	const char **name;
	int count;
};

static int names_make(struct names *t, const char *const *params, int nparams,
		      const struct wl_model *m, int per_item, const struct wl_access *a, int nloops)
{
	t->count = nparams + NAMES_MAX;
	t->name = calloc((size_t)t->count, sizeof(*t->name));
	if (!t->name)
		return -1;
	for (int i = 0; i < t->count; i++)
		t->name[i] = "";
	for (int i = 0; i < nparams; i++)
		t->name[i] = params[i];
	for (int b = 0; m && b < WL_VAR_BUILTINS; b++) {
		int dim = b % 2;
		int item = b == WL_VAR_LID0 || b == WL_VAR_LID1 || b == WL_VAR_GID0 || b == WL_VAR_GID1;
		int grid = b >= WL_VAR_GSZ0;

		if (dim < m->dims && (per_item || !item) && (m->has_grid || !grid))
			t->name[nparams + b] = builtin_names[b];
	}
	for (int k = 0; a && k < nloops; k++)
		t->name[nparams + WL_VAR_BUILTINS + k] = a->loops[k].var;
	return 0;
}

static int parse_at(const json_t *v, const struct names *t, struct wl_expr *out,
		    const char *where, const char *field, struct wl_error *err)
{
	char inner[sizeof(err->msg)];

	if (!json_is_string(v)) {
		wl_error_field(err, WL_ERR_CONFIG, field, "%s.%s: must be an expression string",
			       where, field);
		return -1;
	}
	if (wl_expr_parse(json_string_value(v), t->name, t->count, 0, out, err) == 0)
		return 0;
	snprintf(inner, sizeof(inner), "%s", err->msg);
	wl_error_field(err, WL_ERR_CONFIG, field, "%s.%s: %s", where, field, inner);
	return -1;
}

/* A name of a loop counter: a C identifier no other name already is. */
static int loop_var(const json_t *v, const struct names *t, char *out, const char *where,
		    const char *field, struct wl_error *err)
{
	const char *s = json_string_value(v);
	size_t len = s ? strlen(s) : 0;
	int ok = len > 0 && len < WL_EXPR_NAME_MAX && !(s[0] >= '0' && s[0] <= '9');

	for (size_t i = 0; ok && i < len; i++)
		ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		     (s[i] >= '0' && s[i] <= '9') || s[i] == '_';
	for (int i = 0; ok && i < t->count; i++)
		ok = strcmp(t->name[i], s) != 0;
	for (int b = 0; ok && b < WL_VAR_BUILTINS; b++)
		ok = strcmp(builtin_names[b], s) != 0;
	if (!ok) {
		wl_error_field(err, WL_ERR_CONFIG, field,
			       "%s.%s: '%.40s' is not allowed (a name of up to %d letters, digits or '_' that no parameter, id or outer loop has)",
			       where, field, s ? s : "(not a string)", WL_EXPR_NAME_MAX - 1);
		return -1;
	}
	memcpy(out, s, len + 1);
	return 0;
}

static int load_loops(const json_t *loops, const char *const *params, int nparams,
		      const struct wl_model *m, struct wl_access *a, const char *where,
		      const char *field, struct wl_error *err)
{
	static const char *const keys[] = { "var", "from", "while", "next", NULL };
	char sub[160];

	if (!json_is_array(loops) || json_array_size(loops) > WL_ACCESS_LOOPS) {
		wl_error_field(err, WL_ERR_CONFIG, field, "%s.%s: must be an array of at most %d loops",
			       where, field, WL_ACCESS_LOOPS);
		return -1;
	}
	for (size_t k = 0; k < json_array_size(loops); k++) {
		const json_t *l = json_array_get(loops, k);
		struct names t = { 0 };
		char f[200];
		int rc;

		snprintf(sub, sizeof(sub), "%s[%zu]", field, k);
		if (wl_json_check_keys(l, keys, where, sub, err) < 0)
			return -1;
		/* The counter may not shadow anything outside it. */
		if (names_make(&t, params, nparams, m, 1, a, (int)k) < 0) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
		snprintf(f, sizeof(f), "%s.var", sub);
		rc = loop_var(json_object_get(l, "var"), &t, a->loops[k].var, where, f, err);
		free(t.name);
		if (rc < 0)
			return -1;
		a->nloops = (int)k + 1;
		/* The bounds see the loop's own counter and the outer ones, never
		 * the work-item: the model runs each loop once per group. */
		if (names_make(&t, params, nparams, m, 0, a, (int)k + 1) < 0) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
		snprintf(f, sizeof(f), "%s.from", sub);
		rc = parse_at(json_object_get(l, "from"), &t, &a->loops[k].from, where, f, err);
		snprintf(f, sizeof(f), "%s.while", sub);
		if (rc == 0)
			rc = parse_at(json_object_get(l, "while"), &t, &a->loops[k].cond, where, f, err);
		snprintf(f, sizeof(f), "%s.next", sub);
		if (rc == 0)
			rc = parse_at(json_object_get(l, "next"), &t, &a->loops[k].next, where, f, err);
		free(t.name);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int load_access(const json_t *obj, const char *const *params, int nparams,
		       const struct wl_model *m, struct wl_access *a, int i, const char *where,
		       struct wl_error *err)
{
	static const char *const keys[] = { "array", "space", "op", "bytes", "index", "when",
					    "loops", NULL };
	const char *array, *space, *op;
	json_t *bytes, *loops;
	struct names t = { 0 };
	char field[64], f[96];
	int rc;

	snprintf(field, sizeof(field), "accesses[%d]", i);
	if (wl_json_check_keys(obj, keys, where, field, err) < 0)
		return -1;
	array = json_string_value(json_object_get(obj, "array"));
	space = json_string_value(json_object_get(obj, "space"));
	op = json_string_value(json_object_get(obj, "op"));
	bytes = json_object_get(obj, "bytes");
	if (!array || !*array || strlen(array) >= WL_EXPR_NAME_MAX) {
		snprintf(f, sizeof(f), "%s.array", field);
		wl_error_field(err, WL_ERR_CONFIG, f, "%s.%s: must name the array (1 to %d characters)",
			       where, f, WL_EXPR_NAME_MAX - 1);
		return -1;
	}
	memcpy(a->array, array, strlen(array) + 1);
	if (!space || (strcmp(space, "global") != 0 && strcmp(space, "local") != 0)) {
		snprintf(f, sizeof(f), "%s.space", field);
		wl_error_field(err, WL_ERR_CONFIG, f, "%s.%s: '%.20s' is not allowed (global or local)",
			       where, f, space ? space : "(not a string)");
		return -1;
	}
	a->space = strcmp(space, "local") == 0 ? WL_SPACE_LOCAL : WL_SPACE_GLOBAL;
	if (!op || (strcmp(op, "load") != 0 && strcmp(op, "store") != 0)) {
		snprintf(f, sizeof(f), "%s.op", field);
		wl_error_field(err, WL_ERR_CONFIG, f, "%s.%s: '%.20s' is not allowed (load or store)",
			       where, f, op ? op : "(not a string)");
		return -1;
	}
	a->store = strcmp(op, "store") == 0;
	a->bytes = json_is_integer(bytes) ? (int)json_integer_value(bytes) : 0;
	if (a->bytes != 1 && a->bytes != 2 && a->bytes != 4 && a->bytes != 8 && a->bytes != 16) {
		snprintf(f, sizeof(f), "%s.bytes", field);
		wl_error_field(err, WL_ERR_CONFIG, f, "%s.%s: must be 1, 2, 4, 8 or 16 (the element's size)",
			       where, f);
		return -1;
	}
	loops = json_object_get(obj, "loops");
	snprintf(f, sizeof(f), "%s.loops", field);
	if (loops && load_loops(loops, params, nparams, m, a, where, f, err) < 0)
		return -1;
	if (names_make(&t, params, nparams, m, 1, a, a->nloops) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	snprintf(f, sizeof(f), "%s.index", field);
	rc = parse_at(json_object_get(obj, "index"), &t, &a->index, where, f, err);
	a->has_when = json_object_get(obj, "when") != NULL;
	snprintf(f, sizeof(f), "%s.when", field);
	if (rc == 0 && a->has_when)
		rc = parse_at(json_object_get(obj, "when"), &t, &a->when, where, f, err);
	free(t.name);
	return rc;
}

/* "local" or "grid": an array of one or two expressions over the params. */
static int load_dims(const json_t *v, const char *const *params, int nparams, struct wl_expr *out,
		     int *dims, const char *where, const char *field, struct wl_error *err)
{
	struct names t = { 0 };
	int rc = 0;

	if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 2 ||
	    (*dims && (int)json_array_size(v) != *dims)) {
		wl_error_field(err, WL_ERR_CONFIG, field,
			       "%s.%s: must be an array of %s expressions, one per dimension", where,
			       field, *dims == 2 ? "two" : *dims == 1 ? "one" : "one or two");
		return -1;
	}
	*dims = (int)json_array_size(v);
	if (names_make(&t, params, nparams, NULL, 0, NULL, 0) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (int d = 0; d < *dims && rc == 0; d++) {
		char f[32];

		snprintf(f, sizeof(f), "%s[%d]", field, d);
		rc = parse_at(json_array_get(v, (size_t)d), &t, &out[d], where, f, err);
	}
	free(t.name);
	return rc;
}

int wl_when_parse(const char *text, struct wl_when *out)
{
	static const struct {
		const char *name;
		enum wl_when_kind kind;
	} plain[] = {
		{ "gpu", WL_WHEN_GPU }, { "local", WL_WHEN_LOCAL }, { "conflicts", WL_WHEN_CONFLICTS },
		{ "short", WL_WHEN_SHORT }, { "long", WL_WHEN_LONG }, { "drops", WL_WHEN_DROPS },
		{ "beyond_cache", WL_WHEN_BEYOND_CACHE }, { "in_cache", WL_WHEN_IN_CACHE },
	};
	const char *prefix = "slow_baseline:", *colon;
	char *end;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; text && i < sizeof(plain) / sizeof(plain[0]); i++)
		if (strcmp(text, plain[i].name) == 0) {
			out->kind = plain[i].kind;
			return 0;
		}
	if (!text || strncmp(text, prefix, strlen(prefix)) != 0)
		return -1;
	text += strlen(prefix);
	colon = strchr(text, ':');
	if (!colon || colon == text || (size_t)(colon - text) >= sizeof(out->than))
		return -1;
	memcpy(out->than, text, (size_t)(colon - text));
	out->by = strtod(colon + 1, &end);
	out->kind = WL_WHEN_SLOW_BASELINE;
	return *end == '\0' && out->by > 0 ? 0 : -1;
}

/* One cause: a sentence, or {"text", "when": [conditions]}. */
static int check_cause(const json_t *c, const char *where, const char *key, struct wl_error *err)
{
	static const char *const keys[] = { "text", "when", NULL };
	const json_t *when = json_object_get(c, "when"), *w;
	struct wl_when parsed;
	size_t i;

	if (json_is_string(c))
		return 0;
	if (!json_is_object(c) || wl_json_check_keys(c, keys, where, key, err) < 0 ||
	    !json_is_string(json_object_get(c, "text")) || (when && !json_is_array(when))) {
		if (err && err->kind == WL_ERR_NONE)
			wl_error_field(err, WL_ERR_CONFIG, key,
				       "%s.%s: a cause is a sentence or {\"text\", \"when\": [conditions]}", where, key);
		return -1;
	}
	json_array_foreach(when, i, w)
		if (wl_when_parse(json_string_value(w), &parsed) < 0) {
			wl_error_field(err, WL_ERR_CONFIG, key,
				       "%s.%s: when '%s' is not allowed (gpu, local, conflicts, short, long, drops, "
				       "beyond_cache, in_cache, slow_baseline:<variant>:<factor>)",
				       where, key, json_is_string(w) ? json_string_value(w) : "(not a string)");
			return -1;
		}
	return 0;
}

/* obj's causes under key (a cause or a non-empty list of them) into *out,
 * borrowed; left as it is where obj has none. */
static int get_causes(const json_t *obj, const char *key, json_t **out, const char *where, struct wl_error *err)
{
	json_t *v = json_object_get(obj, key), *c;
	size_t i;

	if (!v)
		return 0;
	if (json_is_array(v) && json_array_size(v) > 0) {
		json_array_foreach(v, i, c)
			if (check_cause(c, where, key, err) < 0)
				return -1;
	} else if (json_is_array(v) || check_cause(v, where, key, err) < 0) {
		if (err && err->kind == WL_ERR_NONE)
			wl_error_field(err, WL_ERR_CONFIG, key, "%s.%s: must be a cause or a list of causes", where, key);
		return -1;
	}
	*out = v;
	return 0;
}

int wl_model_shape_load(const json_t *obj, struct wl_model_shape *out, const char *where,
			struct wl_error *err)
{
	static const char *const keys[] = { "local", "grid", "faster", "slower", NULL };

	memset(out, 0, sizeof(*out));
	if (!obj)
		return 0;
	if (wl_json_check_keys(obj, keys, where, "model", err) < 0)
		return -1;
	out->local = json_object_get(obj, "local");
	out->grid = json_object_get(obj, "grid");
	if (get_causes(obj, "faster", &out->faster, where, err) < 0 ||
	    get_causes(obj, "slower", &out->slower, where, err) < 0)
		return -1;
	return 0;
}

/* "barriers": one loop {"var", "from", "while", "next"}, a barrier per trip,
 * its bounds over the parameters and the group's shape. */
static int load_barriers(const json_t *obj, const char *const *params, int nparams, struct wl_model *m,
			 const char *where, struct wl_error *err)
{
	json_t *one = json_is_object(obj) ? json_pack("[O]", obj) : NULL;
	int rc;

	if (!one) {
		wl_error_field(err, WL_ERR_CONFIG, "barriers",
			       "%s.barriers: must be one loop {\"var\", \"from\", \"while\", \"next\"}, a barrier per trip",
			       where);
		return -1;
	}
	snprintf(m->barriers.array, sizeof(m->barriers.array), "barriers");
	rc = load_loops(one, params, nparams, m, &m->barriers, where, "barriers", err);
	json_decref(one);
	m->has_barriers = rc == 0;
	return rc;
}

int wl_model_load(const json_t *obj, const struct wl_model_shape *base,
		  const char *const *params, int nparams, const char *where,
		  struct wl_model **out, struct wl_error *err)
{
	static const char *const keys[] = { "accesses", "local", "grid", "barriers", "faster", "slower", NULL };
	struct wl_model *m = calloc(1, sizeof(*m));
	const json_t *local, *grid, *accesses;
	json_t *faster, *slower;

	*out = NULL;
	if (!m) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_json_check_keys(obj, keys, where, NULL, err) < 0)
		goto fail;
	local = json_object_get(obj, "local") ? json_object_get(obj, "local") : base ? base->local : NULL;
	grid = json_object_get(obj, "grid") ? json_object_get(obj, "grid") : base ? base->grid : NULL;
	faster = base ? base->faster : NULL;
	slower = base ? base->slower : NULL;
	if (get_causes(obj, "faster", &faster, where, err) < 0 || get_causes(obj, "slower", &slower, where, err) < 0)
		goto fail;
	m->faster = json_incref(faster);
	m->slower = json_incref(slower);
	if (!local) {
		wl_error_field(err, WL_ERR_CONFIG, "local",
			       "%s: the work-group's shape ('local') is not declared", where);
		goto fail;
	}
	if (load_dims(local, params, nparams, m->local, &m->dims, where, "local", err) < 0)
		goto fail;
	if (grid) {
		int dims = m->dims;

		if (load_dims(grid, params, nparams, m->grid, &dims, where, "grid", err) < 0)
			goto fail;
		m->has_grid = 1;
	}
	accesses = json_object_get(obj, "accesses");
	if (!json_is_array(accesses) || json_array_size(accesses) < 1 ||
	    json_array_size(accesses) > WL_ACCESS_MAX) {
		wl_error_field(err, WL_ERR_CONFIG, "accesses",
			       "%s.accesses: must be an array of 1 to %d accesses", where, WL_ACCESS_MAX);
		goto fail;
	}
	m->accesses = calloc(json_array_size(accesses), sizeof(*m->accesses));
	if (!m->accesses) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < json_array_size(accesses); i++) {
		m->naccesses = (int)i + 1;
		if (load_access(json_array_get(accesses, i), params, nparams, m, &m->accesses[i],
				(int)i, where, err) < 0)
			goto fail;
	}
	if (json_object_get(obj, "barriers") && load_barriers(json_object_get(obj, "barriers"), params, nparams, m,
							       where, err) < 0)
		goto fail;
	m->shown = json_deep_copy(obj);
	if (!m->shown) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	if (!json_object_get(m->shown, "local"))
		json_object_set(m->shown, "local", (json_t *)local);
	if (grid && !json_object_get(m->shown, "grid"))
		json_object_set(m->shown, "grid", (json_t *)grid);
	*out = m;
	return 0;
fail:
	wl_model_free(m);
	return -1;
}

void wl_model_free(struct wl_model *m)
{
	if (!m)
		return;
	free(m->accesses);
	json_decref(m->faster);
	json_decref(m->slower);
	json_decref(m->shown);
	free(m);
}
