/* Strict JSON reading and its wording (see json_strict.h). */
#include "json_strict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *wl_json_type_name(const json_t *v)
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

const char *wl_json_unknown_key(const json_t *obj, const char *const *allowed)
{
	const char *key;
	json_t *value;

	json_object_foreach((json_t *)obj, key, value) {
		const char *const *a;

		for (a = allowed; *a; a++)
			if (strcmp(*a, key) == 0)
				break;
		if (!*a)
			return key;
	}
	return NULL;
}

void wl_list_append(char *buf, size_t len, const char *item)
{
	size_t used = strnlen(buf, len);

	if (used + 1 >= len)
		return;
	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", item);
}

void wl_list_join(const char *const *items, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	for (; *items; items++)
		wl_list_append(buf, len, *items);
}

int wl_json_check_keys(const json_t *obj, const char *const *allowed, const char *where,
		       const char *field, struct wl_error *err)
{
	const char *key;

	if (!json_is_object(obj)) {
		wl_error_field(err, WL_ERR_CONFIG, field, "%s%s%s: must be an object", where,
			       field ? "." : "", field ? field : "");
		return -1;
	}
	key = wl_json_unknown_key(obj, allowed);
	if (key) {
		char list[160];

		wl_list_join(allowed, list, sizeof(list));
		wl_error_field(err, WL_ERR_CONFIG, field ? field : key,
			       "%s%s%s: unknown key '%.40s' (allowed: %s)", where, field ? "." : "",
			       field ? field : "", key, list);
		return -1;
	}
	return 0;
}

/* obj[key] when it has type (JSON_STRING, JSON_INTEGER); NULL without an
 * error when it is absent and not required, else NULL with err set. */
static const json_t *member(const json_t *obj, const char *key, int required, json_type type,
			    const char *where, struct wl_error *err)
{
	const json_t *v = json_object_get(obj, key);

	if (!v) {
		if (required)
			wl_error_set(err, WL_ERR_CONFIG, "%s: '%s' is missing", where, key);
		return NULL;
	}
	if (json_typeof(v) != type) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: '%s' must be %s", where, key,
			     type == JSON_STRING ? "a string" : "an integer");
		return NULL;
	}
	return v;
}

int wl_json_get_string(const json_t *obj, const char *key, int required, char **out,
			const char *where, struct wl_error *err)
{
	const json_t *v = member(obj, key, required, JSON_STRING, where, err);

	*out = NULL;
	if (!v)
		return required || json_object_get(obj, key) ? -1 : 0;
	*out = strdup(json_string_value(v));
	if (!*out) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return 0;
}

int wl_json_get_int(const json_t *obj, const char *key, int required, long long *out,
		     const char *where, struct wl_error *err)
{
	const json_t *v = member(obj, key, required, JSON_INTEGER, where, err);

	if (!v)
		return required || json_object_get(obj, key) ? -1 : 0;
	*out = json_integer_value(v);
	return 0;
}
