/* Responses that cost what a static file costs: a body that never changes
 * (a finished run's JSON or CSV) is rendered once, kept plain and
 * gzip-compressed in a body cache (body_cache.h), and answered from there
 * with a strong ETag (304 when the client has it) and a Cache-Control that
 * lets browsers and proxies keep it. Bodies that can still change get an
 * ETag of their bytes and "no-cache", so a client revalidates and a 304
 * saves the transfer. */
#ifndef WL_CACHEABLE_H
#define WL_CACHEABLE_H

#include <stddef.h>

#include "body_cache.h"
#include "response.h"

/* Answer with len bytes of data (status 200, type) as a representation with
 * a strong ETag: 304 when req's If-None-Match holds it, gzip-compressed when
 * req accepts gzip. key, for a body that never changes, keeps both forms in
 * bodies and lets browsers and proxies keep them; NULL means "revalidate
 * every time". Out of memory, resp holds a 500. */
void wl_respond_cacheable(struct wl_body_cache *bodies, const struct wl_request *req, const char *key,
			  const char *data, size_t len, const char *type, struct wl_response *resp);

/* Answer from bodies when key is kept there; returns whether it did (resp
 * untouched where not). */
int wl_respond_from_cache(struct wl_body_cache *bodies, const struct wl_request *req, const char *key,
			  const char *type, struct wl_response *resp);

#endif
