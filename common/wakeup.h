/* Waking idle runners when work arrives. The store stays the truth: a runner
 * that misses a wake-up finds the run at its next poll. Each idle worker
 * listens on a Unix datagram socket in the "wake" folder beside the store's
 * file; the server, after committing a new run, sends one byte to every socket
 * there (removing those nobody listens on any more). Nothing crosses the
 * network, and a server and runners on one machine share the folder. */
#ifndef WL_WAKEUP_H
#define WL_WAKEUP_H

#include "error.h"

struct wl_wakeup;

/* Listen for wake-ups for the store at db_path. *out is NULL (not an error)
 * when the store is not a file whose folder can hold the socket. Caller closes
 * with wl_wakeup_close(), which removes the socket. */
int wl_wakeup_listen(const char *db_path, struct wl_wakeup **out, struct wl_error *err);
void wl_wakeup_close(struct wl_wakeup *w);

/* Wait up to timeout_ms for a wake-up (or just sleep when w is NULL); returns
 * 1 when woken, 0 on timeout. Pending wake-ups are drained. */
int wl_wakeup_wait(struct wl_wakeup *w, long timeout_ms);

/* Wake every runner listening for the store at db_path; best effort. */
void wl_wakeup_send(const char *db_path);

#endif
