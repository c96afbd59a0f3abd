/* Filling struct wl_error, and the stable code words the API reports. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void wl_error_clear(struct wl_error *err)
{
	if (!err)
		return;
	err->kind = WL_ERR_NONE;
	err->field[0] = '\0';
	err->msg[0] = '\0';
}

static void error_vset(struct wl_error *err, enum wl_error_kind kind, const char *field,
		       const char *fmt, va_list ap)
{
	err->kind = kind;
	snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

void wl_error_set(struct wl_error *err, enum wl_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	error_vset(err, kind, NULL, fmt, ap);
	va_end(ap);
}

void wl_error_field(struct wl_error *err, enum wl_error_kind kind, const char *field,
		    const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	error_vset(err, kind, field, fmt, ap);
	va_end(ap);
}

const char *wl_error_code(enum wl_error_kind kind)
{
	switch (kind) {
	case WL_ERR_NONE: return "ok";
	case WL_ERR_BAD_JSON: return "bad_json";
	case WL_ERR_INVALID_FIELD: return "invalid_field";
	case WL_ERR_UNKNOWN_EXPERIMENT: return "unknown_experiment";
	case WL_ERR_UNKNOWN_VARIANT: return "unknown_variant";
	case WL_ERR_INVALID_PARAM: return "invalid_param";
	case WL_ERR_TOO_MANY_POINTS: return "too_many_points";
	case WL_ERR_DEVICE_LIMIT: return "device_limit";
	case WL_ERR_NOT_FOUND: return "not_found";
	case WL_ERR_CONFLICT: return "conflict";
	case WL_ERR_QUEUE_FULL: return "queue_full";
	case WL_ERR_UNAVAILABLE: return "unavailable";
	case WL_ERR_CONFIG: return "bad_config";
	case WL_ERR_BUILD: return "build_failed";
	case WL_ERR_DEVICE_LOST: return "device_lost";
	case WL_ERR_INTERNAL: break;
	}
	return "internal";
}
