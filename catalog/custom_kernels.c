/* Validation of custom kernels (see custom_kernels.h). The source is only read
 * here, never compiled: the server finds the __kernel functions and refuses any
 * preprocessor directive that could make the compiler open a file of the host
 * (whose text a build log would then echo back). */
#include "custom_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directive_check.h"
#include "json_strict.h"
#include "kernel_scan.h"

static int valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > WL_CUSTOM_NAME_MAX || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

/* The names of list's kernels, for messages. */
static void kernel_names(const struct wl_kernel_list *list, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t k = 0; k < list->count; k++)
		wl_list_append(buf, len, list->items[k].name);
}

/* A required string member of kernel i; NULL (err set) when missing or not a
 * string. */
static const char *member(const json_t *k, size_t i, const char *key, int required,
			  struct wl_error *err)
{
	json_t *v = json_object_get(k, key);
	char field[64];

	snprintf(field, sizeof(field), "kernels[%zu].%s", i, key);
	if (!v && !required)
		return "";
	if (!v) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: is required", field);
		return NULL;
	}
	if (!json_is_string(v)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: expected a string", field);
		return NULL;
	}
	return json_string_value(v);
}

/* The entry point: the named kernel, or the source's only one. */
static int check_entry(const char *source, const char *entry, size_t i, const char **out,
		       struct wl_kernel_list *list, struct wl_error *err)
{
	char field[64], names[512];

	if (wl_kernels_scan(source, strlen(source), list, err) < 0) {
		snprintf(field, sizeof(field), "kernels[%zu].source", i);
		wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: more than %d kernels", field,
			       WL_KERNELS_MAX);
		return -1;
	}
	kernel_names(list, names, sizeof(names));
	if (entry[0]) {
		if (!wl_kernels_find(list, entry)) {
			snprintf(field, sizeof(field), "kernels[%zu].entry", i);
			wl_error_field(err, WL_ERR_INVALID_FIELD, field,
				       "%s: '%.64s' is not a __kernel function of the source (its kernels: %s)",
				       field, entry, list->count ? names : "none");
			return -1;
		}
		*out = entry;
		return 0;
	}
	if (list->count == 1) {
		*out = list->items[0].name;
		return 0;
	}
	if (list->count == 0) {
		snprintf(field, sizeof(field), "kernels[%zu].source", i);
		wl_error_field(err, WL_ERR_INVALID_FIELD, field,
			       "%s: defines no __kernel function (write one, e.g. '__kernel void mine(...) { ... }')",
			       field);
	} else {
		snprintf(field, sizeof(field), "kernels[%zu].entry", i);
		wl_error_field(err, WL_ERR_INVALID_FIELD, field,
			       "%s: the source defines %zu kernels (%s); name the one to run with 'entry'",
			       field, list->count, names);
	}
	return -1;
}

/* A kernel's declared accesses, when it gives them, read as the catalog reads
 * a variant's (the work-group's shape from the variant it runs like), so the
 * run page can set the same prediction beside it. */
static int check_accesses(const struct wl_experiment *exp, const struct wl_variant_def *like,
			  const json_t *accesses, size_t i, struct wl_error *err)
{
	struct wl_model *m = NULL;
	char where[32], field[sizeof(err->field)];
	json_t *obj;
	int rc;

	if (!accesses)
		return 0;
	snprintf(where, sizeof(where), "kernels[%zu]", i);
	obj = json_pack("{s:O}", "accesses", accesses);
	if (!obj) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	rc = wl_experiment_model(exp, like, obj, where, &m, err);
	json_decref(obj);
	wl_model_free(m);
	if (rc < 0 && err && err->kind == WL_ERR_CONFIG) {
		/* The request's field, not the catalog's: kernels[0].accesses[1].index. */
		snprintf(field, sizeof(field), "%.24s.%.96s", where, err->field[0] ? err->field : "accesses");
		err->kind = WL_ERR_INVALID_FIELD;
		memcpy(err->field, field, sizeof(field));
	}
	return rc;
}

static int check_kernel(const struct wl_experiment *exp, const json_t *k, size_t i,
			const json_t *seen, size_t *total, json_t *out, struct wl_error *err)
{
	static const char *const keys[] = { "name", "like", "source", "entry", "accesses", "language", NULL };
	struct wl_kernel_list *list = NULL;
	const char *name, *like, *entry, *source, *key;
	char field[64], known[512], what[64];
	json_t *value;
	int line, rc = -1;

	snprintf(field, sizeof(field), "kernels[%zu]", i);
	if (!json_is_object(k)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, field,
			       "%s: expected an object {\"name\", \"like\", \"source\"[, \"entry\"]}", field);
		return -1;
	}
	key = wl_json_unknown_key(k, keys);
	if (key) {
		char list[96];

		wl_list_join(keys, list, sizeof(list));
		snprintf(field, sizeof(field), "kernels[%zu].%.32s", i, key);
		wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: unknown field (allowed: %s)",
			       field, list);
		return -1;
	}
	if (!(name = member(k, i, "name", 1, err)) || !(like = member(k, i, "like", 1, err)) ||
	    !(source = member(k, i, "source", 1, err)) || !(entry = member(k, i, "entry", 0, err)))
		return -1;

	snprintf(field, sizeof(field), "kernels[%zu].name", i);
	if (!valid_name(name)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, field,
			       "%s: '%.80s' is not allowed (a letter or '_', then up to 63 letters, digits or '_')",
			       field, name);
		return -1;
	}
	if (wl_experiment_variant(exp, name, NULL)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, field,
			       "%s: '%s' is the name of a built-in variant of %s; choose another", field,
			       name, exp->id);
		return -1;
	}
	if (json_object_get(seen, name)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: '%s' is used twice", field, name);
		return -1;
	}

	snprintf(field, sizeof(field), "kernels[%zu].like", i);
	if (!wl_experiment_variant(exp, like, NULL)) {
		wl_experiment_variant_list(exp, known, sizeof(known));
		wl_error_field(err, WL_ERR_UNKNOWN_VARIANT, field,
			       "%s: '%.64s' is not a variant of %s (allowed: %s)", field, like, exp->id,
			       known);
		return -1;
	}

	if (check_accesses(exp, wl_experiment_variant(exp, like, NULL), json_object_get(k, "accesses"),
			   i, err) < 0)
		return -1;

	snprintf(field, sizeof(field), "kernels[%zu].source", i);
	*total += strlen(source);
	if (*total > WL_CUSTOM_SOURCE_MAX) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, field,
			       "%s: the custom sources hold %zu bytes in all with this one; at most %d are allowed",
			       field, *total, WL_CUSTOM_SOURCE_MAX);
		return -1;
	}
	if (wl_source_check_directives(source, strlen(source), what, sizeof(what), &line) < 0) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, field,
			       "%s: line %d uses %s, which is not allowed: a custom kernel is one self-contained source (allowed: #define, #undef, #if/#ifdef/#ifndef/#elif/#else/#endif, #error, #warning, #line, and #pragma OPENCL, STDC, unroll, nounroll or clang loop; no ##, _Pragma or __has_include)",
			       field, line, what);
		return -1;
	}
	list = malloc(sizeof(*list));
	if (!list) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (check_entry(source, entry, i, &entry, list, err) < 0)
		goto out;
	value = json_pack("{s:s, s:s, s:s, s:s, s:O*}", "name", name, "like", like, "entry", entry,
			  "source", source, "accesses", json_object_get(k, "accesses"));
	if (!value || json_array_append_new(out, value) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(list);
	return rc;
}

int wl_custom_kernels_validate(const struct wl_experiment *exp, const json_t *spec, json_t *out,
			       struct wl_error *err)
{
	json_t *seen = NULL, *k;
	size_t total = 0, i;
	int rc = -1;

	if (!json_is_array(spec)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "kernels",
			       "kernels: expected an array of {\"name\", \"like\", \"source\"[, \"entry\"]}");
		return -1;
	}
	if (json_array_size(spec) > WL_CUSTOM_MAX) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "kernels",
			       "kernels: %zu custom kernels is too many (at most %d in one run)",
			       json_array_size(spec), WL_CUSTOM_MAX);
		return -1;
	}
	seen = json_object();
	if (!seen) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	json_array_foreach(spec, i, k) {
		if (check_kernel(exp, k, i, seen, &total, out, err) < 0)
			goto out;
		json_object_set_new(seen, json_string_value(json_object_get(k, "name")), json_true());
	}
	rc = 0;
out:
	json_decref(seen);
	return rc;
}

const struct wl_variant_def *wl_custom_kernel_like(const struct wl_experiment *exp, const json_t *k)
{
	const char *like = json_string_value(json_object_get(k, "like"));

	return like ? wl_experiment_variant(exp, like, NULL) : NULL;
}
