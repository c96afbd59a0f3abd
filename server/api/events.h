/* The event hub: one watcher per server that turns the store's commits into
 * Server-Sent Events for every open stream. The store stays the truth: the
 * watcher reads "what changed since N" (one index range) when a commit wakes it
 * (wakeup.h's watcher channel, sent by the store itself) or, as a fallback,
 * every quarter second; it reads each changed run that someone follows once,
 * however many follow it, and queues the events on their streams.
 *
 * Run streams (GET /api/runs/{id}/events) carry, in order:
 *   event: result  id: E.C   one result, the C-th of the run's E-th attempt
 *   event: reset   id: E.0   the run went back to the queue: drop its results
 *   event: run               the run as GET /api/runs/{id} has it, without results
 *   event: end               the finished run, with results; then the stream ends
 * The status stream (GET /api/events) carries "event: run" with id N, the
 * run's summary as GET /api/runs lists it, for every change numbered N, and
 * "event: resync" when a client is too far behind to replay (reload the list).
 * Idle streams get a comment line every heartbeat. */
#ifndef WL_EVENTS_H
#define WL_EVENTS_H

#include <stddef.h>

#include "catalog.h"
#include "error.h"
#include "event_stream.h"

struct wl_events;

/* Start the watcher on the store at db (its own connection), deriving runs'
 * figures with cat. heartbeat_ms: the longest a stream stays silent. On
 * failure (-1, err says why: the store or its wake-up listener) no thread is
 * left running. */
int wl_events_start(const char *db, const struct wl_catalog *cat, long heartbeat_ms,
		    struct wl_events **out, struct wl_error *err);

/* End every stream (what is queued is still sent) and wait up to wait_ms for
 * their connections to close: a stopping server closes streams cleanly. */
void wl_events_end_all(struct wl_events *ev, long wait_ms);

/* Stop the watcher and drop the hub's streams. NULL is allowed. */
void wl_events_stop(struct wl_events *ev);

/* Open a stream from cursor (see event_stream.h; change < 0: from now on) and
 * wake the watcher to fill it. *out is the connection's reference; -1 (out of
 * memory, or the server is stopping) leaves nothing subscribed. */
int wl_events_subscribe(struct wl_events *ev, const struct wl_stream_cursor *cursor,
			struct wl_event_stream **out, struct wl_error *err);

/* Streams open now, for /metrics. */
size_t wl_events_open_streams(struct wl_events *ev);

/* Parse a Last-Event-ID of a run stream, "E.C" (two non-negative integers):
 * 0 with *epoch and *count set, -1 when it is not of that form. */
int wl_parse_run_event_id(const char *text, long long *epoch, long long *count);

#endif
