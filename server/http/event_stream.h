/* One open Server-Sent Events stream: the bytes the event hub has queued for
 * a client and not yet sent. The hub appends; the daemon reads out. When
 * nothing is queued the daemon parks the connection (libmicrohttpd's suspend),
 * and the next append wakes it, so an idle stream costs no thread and no
 * polling. Two owners hold a reference each: the hub (until it drops the
 * stream) and the connection (until it closes). Thread-safe. */
#ifndef WL_EVENT_STREAM_H
#define WL_EVENT_STREAM_H

#include <stddef.h>
#include <sys/types.h>

struct wl_event_stream;

/* What a client is following: one run (run_id > 0) or every run's status. */
struct wl_stream_cursor {
	long long run_id;	/* 0: the run-status stream */
	long long epoch;	/* run stream: the run's requeue count the results belong to */
	long long count;	/* run stream: results the client has */
	long long change;	/* status stream: the last change number it has */
	int fresh;		/* nothing sent yet */
};

/* A stream holding at most max_bytes unsent (a client that stops reading is
 * cut off past it and catches up when it reconnects). Two references: the
 * caller's and the connection's. NULL when out of memory. */
struct wl_event_stream *wl_stream_new(const struct wl_stream_cursor *cursor, size_t max_bytes);

/* Drop one reference. */
void wl_stream_unref(struct wl_event_stream *s);

/* The hub's view of what the client has; only the hub thread touches it. */
struct wl_stream_cursor *wl_stream_cursor(struct wl_event_stream *s);

/* Queue len bytes. Returns -1 when the stream no longer takes any (ended, or
 * its connection closed). */
int wl_stream_push(struct wl_event_stream *s, const char *text, size_t len);

/* End the stream once what is queued has been sent. */
void wl_stream_end(struct wl_event_stream *s);

/* Whether the connection has gone (the hub may drop the stream). */
int wl_stream_closed(struct wl_event_stream *s);

/* Milliseconds (CLOCK_MONOTONIC) of the last push, for heartbeats. */
long long wl_stream_last_push_ms(struct wl_event_stream *s);

/* ---- the connection's side (daemon.c) ---- */

/* How to park and wake the connection: park is called from inside
 * wl_stream_read when nothing is queued, wake from the pushing thread. fd is
 * the connection's socket (or -1), watched for a client that hangs up while
 * its stream is parked. */
void wl_stream_attach(struct wl_event_stream *s, void (*park)(void *ctx),
		      void (*wake)(void *ctx), void *ctx, int fd);

/* The connection's socket, or -1 once it is gone. */
int wl_stream_fd(struct wl_event_stream *s);

/* Copy up to max queued bytes to buf: the count, 0 when nothing is queued
 * (the connection was parked), or -1 when the stream has ended. */
ssize_t wl_stream_read(struct wl_event_stream *s, char *buf, size_t max);

/* The connection is gone: never park or wake it again; drops the
 * connection's reference. */
void wl_stream_detach(struct wl_event_stream *s);

#endif
