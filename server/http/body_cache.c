/* The body cache (body_cache.h): a chained hash table for lookups and a
 * doubly linked list in use order for eviction, under one mutex — lookups are
 * a hash and a few string compares, far below the cost of the request. */
#include "body_cache.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 4096

struct entry {
	struct entry *chain;		/* next in the bucket */
	struct entry *newer, *older;	/* the use list */
	struct wl_body *body;
	char *key;
	uint64_t hash;
};

struct wl_body_cache {
	pthread_mutex_t lock;
	size_t max_bytes, bytes, entries;
	unsigned long long hits, misses;
	struct entry *newest, *oldest;
	struct entry *buckets[BUCKETS];
};

struct wl_body *wl_body_new(const void *data, size_t len, const char *etag)
{
	struct wl_body *b = malloc(sizeof(*b) + len + 1);

	if (!b)
		return NULL;
	b->refs = 1;
	b->len = len;
	strncpy(b->etag, etag ? etag : "", sizeof(b->etag) - 1);
	b->etag[sizeof(b->etag) - 1] = '\0';
	if (len)
		memcpy(b->data, data, len);
	b->data[len] = '\0';
	return b;
}

void wl_body_ref(struct wl_body *b)
{
	__atomic_add_fetch(&b->refs, 1, __ATOMIC_RELAXED);
}

void wl_body_unref(struct wl_body *b)
{
	if (b && __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(b);
}

static uint64_t key_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *key; key++) {
		h ^= (unsigned char)*key;
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct wl_body_cache *wl_body_cache_new(size_t max_bytes)
{
	struct wl_body_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	pthread_mutex_init(&c->lock, NULL);
	c->max_bytes = max_bytes;
	return c;
}

static void unlink_use(struct wl_body_cache *c, struct entry *e)
{
	if (e->newer)
		e->newer->older = e->older;
	else
		c->newest = e->older;
	if (e->older)
		e->older->newer = e->newer;
	else
		c->oldest = e->newer;
	e->newer = e->older = NULL;
}

static void push_newest(struct wl_body_cache *c, struct entry *e)
{
	e->older = c->newest;
	e->newer = NULL;
	if (c->newest)
		c->newest->newer = e;
	c->newest = e;
	if (!c->oldest)
		c->oldest = e;
}

static void drop(struct wl_body_cache *c, struct entry *e)
{
	struct entry **p = &c->buckets[e->hash % BUCKETS];

	while (*p != e)
		p = &(*p)->chain;
	*p = e->chain;
	unlink_use(c, e);
	c->bytes -= e->body->len;
	c->entries--;
	wl_body_unref(e->body);
	free(e->key);
	free(e);
}

void wl_body_cache_free(struct wl_body_cache *c)
{
	if (!c)
		return;
	while (c->oldest)
		drop(c, c->oldest);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static struct entry *find(struct wl_body_cache *c, const char *key, uint64_t h)
{
	for (struct entry *e = c->buckets[h % BUCKETS]; e; e = e->chain)
		if (e->hash == h && strcmp(e->key, key) == 0)
			return e;
	return NULL;
}

struct wl_body *wl_body_cache_get(struct wl_body_cache *c, const char *key)
{
	uint64_t h = key_hash(key);
	struct wl_body *b = NULL;
	struct entry *e;

	if (!c)
		return NULL;
	pthread_mutex_lock(&c->lock);
	e = find(c, key, h);
	if (e) {
		unlink_use(c, e);
		push_newest(c, e);
		b = e->body;
		wl_body_ref(b);
		c->hits++;
	} else {
		c->misses++;
	}
	pthread_mutex_unlock(&c->lock);
	return b;
}

void wl_body_cache_put(struct wl_body_cache *c, const char *key, struct wl_body *b)
{
	uint64_t h = key_hash(key);
	struct entry *e;

	if (!c || b->len > c->max_bytes / 4)
		return;
	e = calloc(1, sizeof(*e));
	if (!e || !(e->key = strdup(key))) {
		free(e);
		return;
	}
	e->hash = h;
	e->body = b;
	pthread_mutex_lock(&c->lock);
	if (find(c, key, h)) {
		pthread_mutex_unlock(&c->lock);
		free(e->key);
		free(e);
		return;
	}
	wl_body_ref(b);
	while (c->oldest && c->bytes + b->len > c->max_bytes)
		drop(c, c->oldest);
	e->chain = c->buckets[h % BUCKETS];
	c->buckets[h % BUCKETS] = e;
	push_newest(c, e);
	c->bytes += b->len;
	c->entries++;
	pthread_mutex_unlock(&c->lock);
}

void wl_body_cache_stats(struct wl_body_cache *c, size_t *bytes, size_t *entries,
			 unsigned long long *hits, unsigned long long *misses)
{
	pthread_mutex_lock(&c->lock);
	*bytes = c->bytes;
	*entries = c->entries;
	*hits = c->hits;
	*misses = c->misses;
	pthread_mutex_unlock(&c->lock);
}
