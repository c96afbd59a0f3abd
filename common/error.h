/* A caller-provided error: a human-readable message, the request field at
 * fault (when one is) and a stable machine code, so the same failure can be
 * logged by a binary or returned to an HTTP client in the API's error shape. */
#ifndef WL_ERROR_H
#define WL_ERROR_H

#include <stddef.h>

/* Stable error classes; the server maps each to an HTTP status and code. */
enum wl_error_kind {
	WL_ERR_NONE = 0,
	WL_ERR_INTERNAL,	/* a bug or an unexpected system failure */
	WL_ERR_BAD_JSON,	/* body is not JSON */
	WL_ERR_INVALID_FIELD,	/* wrong type, unknown or bad top-level field */
	WL_ERR_UNKNOWN_EXPERIMENT,
	WL_ERR_UNKNOWN_VARIANT,
	WL_ERR_INVALID_PARAM,
	WL_ERR_TOO_MANY_POINTS,
	WL_ERR_DEVICE_LIMIT,	/* valid, but no device can run it */
	WL_ERR_NOT_FOUND,
	WL_ERR_CONFLICT,
	WL_ERR_QUEUE_FULL,
	WL_ERR_UNAVAILABLE,	/* the store cannot be used right now */
	WL_ERR_CONFIG,		/* bad configuration or catalog */
	WL_ERR_BUILD,		/* a kernel source did not compile (runner only) */
	WL_ERR_DEVICE_LOST,	/* a launch lost the device's context (runner only):
				 * the message names the API's code */
};

struct wl_error {
	enum wl_error_kind kind;
	char field[128];	/* "" when no single field is at fault */
	char msg[1024];
};

/* Set err (if not NULL) to kind with a printf-style message and no field. */
void wl_error_set(struct wl_error *err, enum wl_error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Set err (if not NULL) to kind, naming field; the message is printf-style. */
void wl_error_field(struct wl_error *err, enum wl_error_kind kind, const char *field,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Reset err to "no error". */
void wl_error_clear(struct wl_error *err);

/* The API's stable code word for kind ("invalid_param", ...). */
const char *wl_error_code(enum wl_error_kind kind);

#endif
