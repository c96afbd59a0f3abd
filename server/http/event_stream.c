/* An SSE stream's queue and its connection's park/wake handshake (see
 * event_stream.h). The park happens under the stream's lock, and so does the
 * check that a push must wake: a push can never fall between "nothing queued"
 * and "parked" and be left unsent. */
#include "event_stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct wl_event_stream {
	pthread_mutex_t lock;
	int refs;
	char *buf;
	size_t off, len, cap, max;	/* unsent bytes are buf[off..len) */
	int parked, ended, closed;
	long long last_push_ms;
	void (*park)(void *ctx);
	void (*wake)(void *ctx);
	void *ctx;
	int fd;
	struct wl_stream_cursor cursor;
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct wl_event_stream *wl_stream_new(const struct wl_stream_cursor *cursor, size_t max_bytes)
{
	struct wl_event_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	pthread_mutex_init(&s->lock, NULL);
	s->refs = 2;
	s->max = max_bytes;
	s->cursor = *cursor;
	s->fd = -1;
	s->last_push_ms = now_ms();
	return s;
}

void wl_stream_unref(struct wl_event_stream *s)
{
	int last;

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	last = --s->refs == 0;
	pthread_mutex_unlock(&s->lock);
	if (!last)
		return;
	pthread_mutex_destroy(&s->lock);
	free(s->buf);
	free(s);
}

struct wl_stream_cursor *wl_stream_cursor(struct wl_event_stream *s)
{
	return &s->cursor;
}

/* Wake a parked connection; called with the lock held. */
static void wake_locked(struct wl_event_stream *s)
{
	if (s->parked && !s->closed && s->wake) {
		s->parked = 0;
		s->wake(s->ctx);
	}
}

int wl_stream_push(struct wl_event_stream *s, const char *text, size_t len)
{
	int rc = -1;

	pthread_mutex_lock(&s->lock);
	if (s->ended || s->closed)
		goto out;
	if (s->off == s->len)
		s->off = s->len = 0;
	if (s->len - s->off + len > s->max) {
		/* The client is not reading: cut it off rather than grow without
		 * bound. It resumes from its last event id. */
		s->ended = 1;
		s->off = s->len;
		wake_locked(s);
		goto out;
	}
	if (s->len + len > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;
		char *grown;

		if (s->off) {
			memmove(s->buf, s->buf + s->off, s->len - s->off);
			s->len -= s->off;
			s->off = 0;
		}
		while (cap < s->len + len)
			cap *= 2;
		if (cap != s->cap) {
			grown = realloc(s->buf, cap);
			if (!grown)
				goto out;
			s->buf = grown;
			s->cap = cap;
		}
	}
	memcpy(s->buf + s->len, text, len);
	s->len += len;
	s->last_push_ms = now_ms();
	wake_locked(s);
	rc = 0;
out:
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void wl_stream_end(struct wl_event_stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->ended = 1;
	wake_locked(s);
	pthread_mutex_unlock(&s->lock);
}

int wl_stream_closed(struct wl_event_stream *s)
{
	int closed;

	pthread_mutex_lock(&s->lock);
	closed = s->closed;
	pthread_mutex_unlock(&s->lock);
	return closed;
}

long long wl_stream_last_push_ms(struct wl_event_stream *s)
{
	long long t;

	pthread_mutex_lock(&s->lock);
	t = s->last_push_ms;
	pthread_mutex_unlock(&s->lock);
	return t;
}

void wl_stream_attach(struct wl_event_stream *s, void (*park)(void *ctx),
		      void (*wake)(void *ctx), void *ctx, int fd)
{
	pthread_mutex_lock(&s->lock);
	s->park = park;
	s->wake = wake;
	s->ctx = ctx;
	s->fd = fd;
	pthread_mutex_unlock(&s->lock);
}

int wl_stream_fd(struct wl_event_stream *s)
{
	int fd;

	pthread_mutex_lock(&s->lock);
	fd = s->closed ? -1 : s->fd;
	pthread_mutex_unlock(&s->lock);
	return fd;
}

ssize_t wl_stream_read(struct wl_event_stream *s, char *buf, size_t max)
{
	ssize_t n;

	pthread_mutex_lock(&s->lock);
	n = (ssize_t)(s->len - s->off);
	if (n > 0) {
		if ((size_t)n > max)
			n = (ssize_t)max;
		memcpy(buf, s->buf + s->off, (size_t)n);
		s->off += (size_t)n;
	} else if (s->ended) {
		n = -1;
	} else {
		s->parked = 1;
		if (s->park)
			s->park(s->ctx);
		n = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}

void wl_stream_detach(struct wl_event_stream *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->closed = 1;
	s->parked = 0;
	s->park = s->wake = NULL;
	s->ctx = NULL;
	s->fd = -1;
	pthread_mutex_unlock(&s->lock);
	wl_stream_unref(s);
}
