/* Waking processes that share a store when something they wait for is
 * committed. The store stays the truth: a process that misses a wake-up finds
 * the change at its next poll. On a SQLite store, a listener binds a Unix
 * datagram socket in a channel's folder beside the store's file; a sender,
 * after its commit, sends one byte to every socket there (removing those
 * nobody listens on any more); processes on one machine share the folder. On
 * PostgreSQL, a listener holds a connection that LISTENs, and the database
 * itself NOTIFYs at each commit that changes a run, on any host. Two channels:
 * - WL_WAKE_RUNNERS: idle runners, woken by the server when it queues a run;
 * - WL_WAKE_WATCHERS: servers' event watchers, woken by every commit that
 *   changes a run (the store sends these itself). */
#ifndef WL_WAKEUP_H
#define WL_WAKEUP_H

#include "error.h"

#define WL_WAKE_RUNNERS "wake"
#define WL_WAKE_WATCHERS "events"

struct wl_wakeup;

/* Listen on channel for wake-ups for the store at db_path (a --db value). *out
 * is NULL (not an error) when the store is a file whose folder cannot hold the
 * socket.
 * Caller closes with wl_wakeup_close(), which removes the socket. */
int wl_wakeup_listen(const char *db_path, const char *channel, struct wl_wakeup **out,
		     struct wl_error *err);
void wl_wakeup_close(struct wl_wakeup *w);

/* Wait up to timeout_ms for a wake-up (or just sleep when w is NULL); returns
 * 1 when woken, 0 on timeout. Pending wake-ups are drained. */
int wl_wakeup_wait(struct wl_wakeup *w, long timeout_ms);

/* The socket, for a caller that polls it beside other files (readable when a
 * wake-up is pending), and draining what arrived without waiting. */
int wl_wakeup_fd(struct wl_wakeup *w);
void wl_wakeup_drain(struct wl_wakeup *w);

/* Wake every process listening on channel for the store at db_path; best
 * effort. Nothing to do on PostgreSQL, where the commit has notified. */
void wl_wakeup_send(const char *db_path, const char *channel);

#endif
