/* warplab-server: the REST API and the dashboard. It validates requests against
 * the catalog, queues runs in the store and reads them back; it never opens
 * OpenCL, so a device fault cannot take the web side down. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "events.h"
#include "log.h"
#include "options.h"
#include "server.h"

#ifndef WL_VERSION
#define WL_VERSION "0.0.0"
#endif

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* How long a stopping server waits for its event streams to end cleanly. */
#define STREAMS_END_MS 2000

static void handle(void *srv, const struct wl_request *req, struct wl_response *resp)
{
	wl_server_handle(srv, req, resp);
}

/* The daemon refuses new connections: let the event streams end with their
 * last chunk (a client sees the end of the stream, not a reset). */
static void closing(void *srv)
{
	wl_events_end_all(((struct wl_server *)srv)->events, STREAMS_END_MS);
}

/* Serve srv as cfg says: its requests go to the route table, and what it
 * sends is counted for /metrics. As wl_daemon_start. */
static int serve(struct wl_server *srv, const struct wl_server_config *cfg, struct wl_daemon **daemon,
		 unsigned *port, struct wl_error *err)
{
	const struct wl_daemon_config dc = {
		.listen = cfg->listen, .max_body = cfg->max_body, .max_connections = cfg->max_connections,
		.per_ip_connections = cfg->per_ip_connections, .connection_timeout = cfg->connection_timeout,
		.handle = handle, .closing = closing, .ctx = srv, .counters = &srv->counters,
	};

	return wl_daemon_start(&dc, daemon, port, err);
}

int main(int argc, char **argv)
{
	struct wl_server_config cfg = {
		.listen = "127.0.0.1:8080",
		.db = "var/warplab.db",
		.www = "www",
		.catalog = "kernels/catalog.json",
		.token_file = NULL,
		.max_body = 256 * 1024,
		.queue_limit = 1000,
		.max_connections = 256,
		.per_ip_connections = 64,
		.connection_timeout = 30,
		.heartbeat = 15,
		.response_cache_mb = 64,
		.stream_heartbeat = 15,
	};
	const struct wl_option options[] = {
		{ "listen", WL_OPT_STRING, &cfg.listen, "HOST:PORT", "address to serve on (default 127.0.0.1:8080; port 0 picks one)", 0, 0 },
		{ "db", WL_OPT_STRING, &cfg.db, "STORE", "the store: a SQLite file (path or sqlite:PATH) or postgresql://... (default var/warplab.db)", 0, 0 },
		{ "www", WL_OPT_STRING, &cfg.www, "DIR", "the dashboard's files (default www)", 0, 0 },
		{ "catalog", WL_OPT_STRING, &cfg.catalog, "FILE", "the experiment catalog (default kernels/catalog.json)", 0, 0 },
		{ "token-file", WL_OPT_STRING, &cfg.token_file, "FILE", "bearer tokens for writes, one per line (default: writes need none)", 0, 0 },
		{ "allow-anonymous-writes", WL_OPT_FLAG, &cfg.allow_anonymous_writes, NULL, "serve a non-loopback address without a token file", 0, 0 },
		{ "max-body", WL_OPT_INT, &cfg.max_body, "BYTES", "largest request body (default 262144: room for 64 KiB of custom kernel source)", 256, 16 * 1024 * 1024 },
		{ "queue-limit", WL_OPT_INT, &cfg.queue_limit, "N", "queued runs before new ones get 429 (default 1000)", 1, 1000000 },
		{ "max-measurements", WL_OPT_INT, &cfg.max_measurements, "N", "variants x points a run may hold (default: the catalog's, 1024)", 1, 1000000 },
		{ "max-connections", WL_OPT_INT, &cfg.max_connections, "N", "open connections at once (default 256)", 1, 100000 },
		{ "per-ip-connections", WL_OPT_INT, &cfg.per_ip_connections, "N", "open connections from one address (default 64)", 1, 100000 },
		{ "connection-timeout", WL_OPT_INT, &cfg.connection_timeout, "SECONDS", "idle connections are closed after this (default 30)", 1, 3600 },
		{ "no-custom-kernels", WL_OPT_FLAG, &cfg.no_custom_kernels, NULL, "refuse runs that bring their own kernels or experiments (for a public install)", 0, 0 },
		{ "response-cache", WL_OPT_INT, &cfg.response_cache_mb, "MIB", "finished runs' bodies kept in memory, plain and gzip (default 64; 0 keeps none)", 0, 65536 },
		{ "stream-heartbeat", WL_OPT_INT, &cfg.stream_heartbeat, "SECONDS", "an idle live-update stream gets a comment line this often (default 15)", 1, 3600 },
		{ "heartbeat", WL_OPT_INT, &cfg.heartbeat, "SECONDS", "a runner silent this long is shown offline (default 15)", 3, 3600 },
		{ 0 },
	};
	struct wl_server srv;
	struct wl_daemon *daemon = NULL;
	struct wl_error err;
	struct sigaction sa;
	sigset_t stop_set, wait_set;
	unsigned port = 0;
	int status = 1, srv_ready = 0;

	wl_log_init("warplab-server");
	switch (wl_options_parse(options, argc, argv,
				 "usage: warplab-server --listen HOST:PORT --db STORE --www DIR --catalog FILE [--config FILE] [--token-file FILE]",
				 "warplab-server " WL_VERSION, &err)) {
	case WL_OPTIONS_EXIT_OK:
		status = 0;
		goto out;
	case WL_OPTIONS_FAIL:
		wl_log_error("%s", err.msg);
		goto out;
	case WL_OPTIONS_OK:
		break;
	}
	if (!wl_listen_is_loopback(cfg.listen) && !(cfg.token_file && *cfg.token_file) &&
	    !cfg.allow_anonymous_writes) {
		wl_log_error("refusing to listen on %s without --token-file: anyone who can reach it could queue runs on this machine's devices; give a token file, or --allow-anonymous-writes if that is really wanted",
			     cfg.listen);
		goto out;
	}

	/* The signals stay blocked except inside sigsuspend(), so one arriving
	 * between the flag check and the wait cannot be missed. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGTERM);
	sigaddset(&stop_set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &stop_set, &wait_set);

	if (wl_server_init(&srv, &cfg, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	srv_ready = 1;
	if (serve(&srv, &cfg, &daemon, &port, &err) < 0) {
		wl_log_error("%s", err.msg);
		goto out;
	}
	wl_log_info("listening on %s (port %u), store %s, %zu experiments, writes %s", cfg.listen,
		    port, cfg.db, srv.catalog->nexperiments,
		    srv.tokens.count ? "need a token" : "open");
	while (!stop_requested)
		sigsuspend(&wait_set);
	wl_log_info("stopping");
	status = 0;
out:
	wl_daemon_stop(daemon);
	if (srv_ready)
		wl_server_free(&srv);
	wl_options_free(options);
	return status;
}
