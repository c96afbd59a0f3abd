/* Bodies answered as static files are (see cacheable.h). */
#include "cacheable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conditional.h"
#include "negotiate.h"

/* A finished run never changes, but a new server version may render it
 * differently: an hour, then revalidation (which the ETag makes cheap). */
#define FINISHED_CACHE_CONTROL "public, max-age=3600"

/* Bodies shorter than this are sent as they are: gzip's header and the work
 * would cost more than they save. */
#define GZIP_MIN 512

static void respond_shared(const struct wl_request *req, struct wl_body *b, const char *type,
			   int gzipped, int finished, struct wl_response *resp)
{
	resp->content_type = type;
	resp->content_encoding = gzipped ? "gzip" : NULL;
	resp->cache_control = finished ? FINISHED_CACHE_CONTROL : "no-cache";
	if (!resp->vary)
		resp->vary = "Accept-Encoding";
	snprintf(resp->etag, sizeof(resp->etag), "%s", b->etag);
	if (wl_etag_matches(req->header(req->ctx, "If-None-Match"), b->etag)) {
		resp->status = 304;
		resp->content_encoding = NULL;
		wl_body_unref(b);
		return;
	}
	resp->status = 200;
	resp->shared = b;
}

int wl_respond_from_cache(struct wl_body_cache *bodies, const struct wl_request *req, const char *key,
			  const char *type, struct wl_response *resp)
{
	int gzip = wl_accepts_gzip(req->header(req->ctx, "Accept-Encoding"));
	char gz_key[160];
	struct wl_body *b;

	snprintf(gz_key, sizeof(gz_key), "%s|gzip", key);
	b = wl_body_cache_get(bodies, gzip ? gz_key : key);
	if (!b)
		return 0;
	respond_shared(req, b, type, gzip && strstr(b->etag, "-gz") != NULL, 1, resp);
	return 1;
}

void wl_respond_cacheable(struct wl_body_cache *bodies, const struct wl_request *req, const char *key,
			  const char *data, size_t len, const char *type, struct wl_response *resp)
{
	int gzip = wl_accepts_gzip(req->header(req->ctx, "Accept-Encoding"));
	struct wl_body *plain, *packed = NULL;
	char etag[64], *z = NULL;
	size_t zlen = 0;

	wl_etag_of(data, len, NULL, etag, sizeof(etag));
	plain = wl_body_new(data, len, etag);
	if (!plain) {
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
		return;
	}
	/* The compressed form has its own tag: it is another representation. */
	if ((gzip || key) && len >= GZIP_MIN && wl_gzip(data, len, &z, &zlen) == 0) {
		wl_etag_of(data, len, "-gz", etag, sizeof(etag));
		packed = wl_body_new(z, zlen, etag);
		free(z);
	}
	if (key) {
		char gz_key[160];

		snprintf(gz_key, sizeof(gz_key), "%s|gzip", key);
		wl_body_cache_put(bodies, key, plain);
		/* Small bodies are kept plain under the gzip key too, so a
		 * lookup never misses for want of a compressed form. */
		wl_body_cache_put(bodies, gz_key, packed ? packed : plain);
	}
	if (gzip && packed) {
		respond_shared(req, packed, type, 1, key != NULL, resp);
		wl_body_unref(plain);
	} else {
		respond_shared(req, plain, type, 0, key != NULL, resp);
		wl_body_unref(packed);
	}
}
