/* The HTTP daemon: libmicrohttpd serving wl_server_handle() on a listen
 * address, with the connection limits, body limit and security headers. */
#ifndef WL_DAEMON_H
#define WL_DAEMON_H

#include "server.h"

struct wl_daemon;

/* Start serving srv on srv->cfg->listen ("HOST:PORT", "[V6]:PORT"; port 0
 * picks a free one). *port receives the bound port. Free with wl_daemon_stop();
 * on failure (-1: the address cannot be parsed or bound, err says which)
 * nothing is listening and nothing is left to free. */
int wl_daemon_start(struct wl_server *srv, struct wl_daemon **out, unsigned *port,
		    struct wl_error *err);
void wl_daemon_stop(struct wl_daemon *d);

/* Whether HOST:PORT names a loopback address. */
int wl_listen_is_loopback(const char *listen);

#endif
