/* Response bodies that never change — a finished run's JSON and CSV, plain
 * and gzip-compressed, and the dashboard's compressed files — kept in memory
 * up to a byte budget, least recently used first out, so a popular shared
 * link costs a lookup. A body is reference counted: the cache and every
 * response being sent hold one, so eviction never frees bytes in flight. */
#ifndef WL_BODY_CACHE_H
#define WL_BODY_CACHE_H

#include <stddef.h>

struct wl_body {
	int refs;			/* changed atomically */
	size_t len;
	char etag[64];			/* the strong validator, quoted */
	char data[];
};

/* A body of len bytes copied from data, with etag (quoted), one reference
 * held by the caller; NULL when out of memory. */
struct wl_body *wl_body_new(const void *data, size_t len, const char *etag);
void wl_body_ref(struct wl_body *b);
void wl_body_unref(struct wl_body *b);

struct wl_body_cache;

/* A cache of at most max_bytes of bodies (0: caches nothing). */
struct wl_body_cache *wl_body_cache_new(size_t max_bytes);
void wl_body_cache_free(struct wl_body_cache *c);

/* The body kept under key, with a reference for the caller, or NULL. */
struct wl_body *wl_body_cache_get(struct wl_body_cache *c, const char *key);

/* Keep b under key (the cache takes its own reference; an entry already
 * there stays). A body larger than a quarter of the budget is not kept. */
void wl_body_cache_put(struct wl_body_cache *c, const char *key, struct wl_body *b);

/* Bytes and entries kept, for /metrics and the tests. */
void wl_body_cache_stats(struct wl_body_cache *c, size_t *bytes, size_t *entries,
			 unsigned long long *hits, unsigned long long *misses);

#endif
