/* The HTTP daemon: libmicrohttpd serving a handler on a listen address, with
 * the connection limits (gate.h), the body limit and the security headers.
 * It knows nothing of what it serves: the handler fills each response, and
 * the daemon sends it and counts it. */
#ifndef WL_DAEMON_H
#define WL_DAEMON_H

#include "error.h"
#include "metrics.h"
#include "response.h"

struct wl_daemon;

struct wl_daemon_config {
	const char *listen;		/* "HOST:PORT", "[V6]:PORT"; port 0 picks a free one */
	long max_body;			/* bytes of a request body */
	long max_connections, per_ip_connections;
	long connection_timeout;	/* seconds */
	/* Fill resp (initialised with wl_response_init) for req; called on
	 * libmicrohttpd's threads, several at once. */
	void (*handle)(void *ctx, const struct wl_request *req, struct wl_response *resp);
	/* Called once while stopping, after new connections are refused and
	 * before the open ones are closed: where endless bodies (event
	 * streams) are ended cleanly. NULL: nothing to end. */
	void (*closing)(void *ctx);
	void *ctx;
	struct wl_http_counters *counters;	/* each response sent is counted here; or NULL */
};

/* Start serving as cfg says (copied; its strings and ctx must outlive the
 * daemon). *port receives the bound port. Free with wl_daemon_stop(); on
 * failure (-1: the address cannot be parsed or bound, err says which)
 * nothing is listening and nothing is left to free. */
int wl_daemon_start(const struct wl_daemon_config *cfg, struct wl_daemon **out, unsigned *port,
		    struct wl_error *err);
void wl_daemon_stop(struct wl_daemon *d);

/* Whether HOST:PORT names a loopback address. */
int wl_listen_is_loopback(const char *listen);

#endif
