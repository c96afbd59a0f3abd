/* The store pool: a mutex-protected stack of idle handles. */
#include "store_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define POOL_MAX_IDLE 32

struct wl_store_pool {
	char *path;
	pthread_mutex_t lock;
	size_t nidle;
	struct wl_store *idle[POOL_MAX_IDLE];
};

int wl_store_pool_new(const char *path, struct wl_store_pool **out, struct wl_error *err)
{
	struct wl_store_pool *pool = calloc(1, sizeof(*pool));
	struct wl_store *st;

	if (!pool || !(pool->path = strdup(path))) {
		free(pool);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	pthread_mutex_init(&pool->lock, NULL);
	if (wl_store_open(path, &st, err) < 0) {
		wl_store_pool_free(pool);
		return -1;
	}
	pool->idle[pool->nidle++] = st;
	*out = pool;
	return 0;
}

void wl_store_pool_free(struct wl_store_pool *pool)
{
	if (!pool)
		return;
	for (size_t i = 0; i < pool->nidle; i++)
		wl_store_close(pool->idle[i]);
	pthread_mutex_destroy(&pool->lock);
	free(pool->path);
	free(pool);
}

int wl_store_pool_get(struct wl_store_pool *pool, struct wl_store **out, struct wl_error *err)
{
	struct wl_store *st = NULL;

	pthread_mutex_lock(&pool->lock);
	if (pool->nidle > 0)
		st = pool->idle[--pool->nidle];
	pthread_mutex_unlock(&pool->lock);
	if (!st && wl_store_open(pool->path, &st, err) < 0) {
		err->kind = WL_ERR_UNAVAILABLE;
		return -1;
	}
	*out = st;
	return 0;
}

void wl_store_pool_put(struct wl_store_pool *pool, struct wl_store *st)
{
	if (!st)
		return;
	pthread_mutex_lock(&pool->lock);
	if (pool->nidle < POOL_MAX_IDLE) {
		pool->idle[pool->nidle++] = st;
		st = NULL;
	}
	pthread_mutex_unlock(&pool->lock);
	wl_store_close(st);
}
