/* Building responses: JSON bodies, the API's error shape, text. */
#include "response.h"

#include "body_cache.h"
#include "event_stream.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JSON_TYPE "application/json; charset=utf-8"

void wl_response_init(struct wl_response *r)
{
	memset(r, 0, sizeof(*r));
	r->status = 500;
	r->fd = -1;
}

void wl_response_free(struct wl_response *r)
{
	wl_body_unref(r->shared);
	r->shared = NULL;
	wl_stream_detach(r->stream);
	r->stream = NULL;
	free(r->body);
	if (r->fd >= 0)
		close(r->fd);
	r->body = NULL;
	r->fd = -1;
}

static void set_body(struct wl_response *r, char *body, size_t len)
{
	free(r->body);
	r->body = body;
	r->body_len = len;
}

void wl_response_json(struct wl_response *r, unsigned status, json_t *value)
{
	char *text = value ? json_dumps(value, JSON_COMPACT) : NULL;

	json_decref(value);
	if (!text) {
		r->status = 500;
		r->content_type = JSON_TYPE;
		text = strdup("{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}");
		set_body(r, text, text ? strlen(text) : 0);
		return;
	}
	r->status = status;
	r->content_type = JSON_TYPE;
	set_body(r, text, strlen(text));
}

void wl_response_error(struct wl_response *r, unsigned status, const char *code,
		       const char *field, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;
	json_t *e;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A message may quote client bytes; jansson needs valid UTF-8. */
	e = json_pack("{s:s, s:s}", "code", code, "message", msg);
	if (!e)
		e = json_pack("{s:s, s:s}", "code", code, "message", "(message not valid UTF-8)");
	if (e && field && *field) {
		json_t *f = json_string(field);

		if (f)
			json_object_set_new(e, "field", f);
	}
	wl_response_json(r, status, e ? json_pack("{s:o}", "error", e) : NULL);
}

unsigned wl_error_status(enum wl_error_kind kind)
{
	switch (kind) {
	case WL_ERR_BAD_JSON:
	case WL_ERR_INVALID_FIELD:
	case WL_ERR_UNKNOWN_EXPERIMENT:
	case WL_ERR_UNKNOWN_VARIANT:
	case WL_ERR_INVALID_PARAM:
	case WL_ERR_TOO_MANY_POINTS:
		return 400;
	case WL_ERR_DEVICE_LIMIT: return 422;
	case WL_ERR_NOT_FOUND: return 404;
	case WL_ERR_CONFLICT: return 409;
	case WL_ERR_QUEUE_FULL: return 429;
	case WL_ERR_UNAVAILABLE: return 503;
	case WL_ERR_NONE:
	case WL_ERR_INTERNAL:
	case WL_ERR_CONFIG:
	case WL_ERR_BUILD:
	case WL_ERR_DEVICE_LOST:
		break;
	}
	return 500;
}

void wl_response_from_error(struct wl_response *r, const struct wl_error *err)
{
	wl_response_error(r, wl_error_status(err->kind), wl_error_code(err->kind),
			  err->field[0] ? err->field : NULL, "%s", err->msg);
}

void wl_response_text(struct wl_response *r, unsigned status, const char *content_type,
		      const char *text, size_t len)
{
	char *copy = malloc(len + 1);

	if (!copy) {
		wl_response_error(r, 500, "internal", NULL, "out of memory");
		return;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	r->status = status;
	r->content_type = content_type;
	set_body(r, copy, len);
}
