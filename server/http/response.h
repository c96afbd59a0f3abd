/* A request and its response as the server's handlers see them, independent of
 * libmicrohttpd: the daemon adapts connections to these, and a fuzzer or a test
 * can call the handlers with no socket at all. */
#ifndef WL_RESPONSE_H
#define WL_RESPONSE_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"

struct wl_body;
struct wl_event_stream;

struct wl_request {
	const char *method;		/* "GET", "POST", ... */
	const char *path;		/* decoded URL path, without the query */
	const char *body;		/* NULL when there is none; may hold NUL bytes */
	size_t body_len;
	/* Header and query-argument lookup (NULL when absent). */
	const char *(*header)(void *ctx, const char *name);
	const char *(*arg)(void *ctx, const char *name);
	void *ctx;
};

struct wl_response {
	unsigned status;
	char *body;			/* owned; NULL for none */
	size_t body_len;
	int fd;				/* a file to send instead of body, or -1; owned */
	size_t fd_size;
	const char *content_type;	/* a string constant */
	const char *allow;		/* Allow header for 405, or NULL */
	char location[64];		/* Location header, or "" */
	char disposition[96];		/* Content-Disposition header, or "" */
	const char *cache_control;	/* or NULL */
	const char *vary;		/* Vary header, or NULL */
	struct wl_body *shared;		/* a cached body to send instead of body; one reference owned */
	char etag[64];			/* ETag header, or "" */
	const char *content_encoding;	/* "gzip", or NULL */
	struct wl_event_stream *stream;	/* an endless body fed by the event hub; the
					 * connection's reference, owned */
	const char *route;		/* a route name for metrics ("GET /api/runs/{id}") */
	int close;			/* close the connection after it (Connection: close) */
};

/* A fresh, empty response (status 500 until a handler sets one). */
void wl_response_init(struct wl_response *r);

/* Release what r owns. */
void wl_response_free(struct wl_response *r);

/* Respond with the JSON value (the reference is stolen). */
void wl_response_json(struct wl_response *r, unsigned status, json_t *value);

/* Respond with the API's error body for status and code. field may be NULL. */
void wl_response_error(struct wl_response *r, unsigned status, const char *code,
		       const char *field, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Respond with err, mapping its kind to a status and code. */
void wl_response_from_error(struct wl_response *r, const struct wl_error *err);

/* Respond with text of the given type (copied). */
void wl_response_text(struct wl_response *r, unsigned status, const char *content_type,
		      const char *text, size_t len);

/* The HTTP status for an error kind. */
unsigned wl_error_status(enum wl_error_kind kind);

#endif
