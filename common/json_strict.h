/* Helpers for reading JSON strictly and saying what was wrong in words: the
 * type of a value, keys outside an allowed set, and the "allowed: a, b, c"
 * lists that messages end with. The catalog, the request and the server all
 * word their errors through these, so the wording is the same everywhere. */
#ifndef WL_JSON_STRICT_H
#define WL_JSON_STRICT_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"

/* The JSON type of v in words ("an integer", "a non-integer number", "null"),
 * for "expected X, got Y" messages. Never NULL. */
const char *wl_json_type_name(const json_t *v);

/* The first key of obj that is not in allowed (a NULL-terminated list), or NULL
 * when every key is allowed (or obj is not an object). The key belongs to obj. */
const char *wl_json_unknown_key(const json_t *obj, const char *const *allowed);

/* Fail (-1, WL_ERR_CONFIG) unless obj is an object whose keys are all in
 * allowed; the message begins with where and field ("where.field", or where
 * alone when field is NULL) and lists what is allowed. Returns 0 when it is;
 * nothing is changed either way. */
int wl_json_check_keys(const json_t *obj, const char *const *allowed, const char *where,
		       const char *field, struct wl_error *err);

/* Copy obj[key], a string, into *out (caller frees); absent leaves *out NULL
 * and is an error only when required. On failure (-1, WL_ERR_CONFIG naming
 * where and key) *out is NULL. */
int wl_json_get_string(const json_t *obj, const char *key, int required, char **out,
			const char *where, struct wl_error *err);

/* obj[key], an integer, into *out; absent leaves *out as it was and is an
 * error only when required. On failure (-1) *out is unchanged. */
int wl_json_get_int(const json_t *obj, const char *key, int required, long long *out,
		     const char *where, struct wl_error *err);

/* Append item to the comma-separated list in buf ("a, b" becomes "a, b, c");
 * what does not fit in len is cut, and buf stays a terminated string. */
void wl_list_append(char *buf, size_t len, const char *item);

/* items (NULL-terminated) joined as "a, b, c" into buf, cut to fit len. */
void wl_list_join(const char *const *items, char *buf, size_t len);

#endif
