/* The gate in front of libmicrohttpd. It owns the listening socket: every
 * connection waits at the gate until its request head has arrived (read with
 * MSG_PEEK, so libmicrohttpd later reads the same bytes), and is handed on only
 * when the head's framing is sound and the limits allow it. Otherwise the gate
 * itself answers with the API's JSON error and closes the connection cleanly:
 * - 400 for two Content-Length headers, a malformed one, both Content-Length
 *   and Transfer-Encoding, a target with %00 or a control character, HTTP/1.1
 *   without Host (RFC 9112) — framing a proxy could read otherwise;
 * - 429 when the client's address already holds its share of connections,
 *   503 when the server holds its most;
 * - 431 for a head over WL_GATE_HEAD_MAX bytes.
 * libmicrohttpd's own checks would answer some of these with its HTML page,
 * or reset the connection with no byte at all. */
#ifndef WL_GATE_H
#define WL_GATE_H

#include <stddef.h>
#include <sys/socket.h>

#include "error.h"

#define WL_GATE_HEAD_MAX (16 * 1024)	/* bytes of a request head */

struct MHD_Daemon;
struct wl_gate;

struct wl_gate_config {
	long max_connections;		/* open at once, waiting ones included */
	long per_ip_connections;	/* open at once from one address */
	long head_timeout;		/* seconds a connection may take to send its head */
};

/* Serve listen_fd (bound and listening) in a thread of its own, handing sound
 * connections to mhd (started with MHD_USE_NO_LISTEN_SOCKET). On failure
 * returns -1 with err set and nothing started; listen_fd stays the caller's.
 * Stop with wl_gate_stop(). */
int wl_gate_start(int listen_fd, struct MHD_Daemon *mhd, const struct wl_gate_config *cfg,
		  struct wl_gate **out, struct wl_error *err);

/* A connection the gate handed on has closed: its address has one fewer. */
void wl_gate_closed(struct wl_gate *g, const struct sockaddr *addr);

/* Stop taking connections, close those waiting and join the thread. The
 * listening socket is left to the caller; wl_gate_closed() may still be
 * called until wl_gate_free(). */
void wl_gate_stop(struct wl_gate *g);
void wl_gate_free(struct wl_gate *g);

#endif
