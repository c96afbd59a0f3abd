/* libmicrohttpd glue. A request body is collected up to the configured limit.
 * A Content-Length over it is answered 413 at once, before the body is read.
 * A body without one (chunked) that grows past the limit is no longer buffered:
 * libmicrohttpd accepts a response only before the body or after its end, so
 * the rest is discarded and the 413 sent when it ends, and a sender that keeps
 * going far past the limit has its connection closed. Every response gets the
 * security headers. An event stream's body is read from its queue; while the
 * queue is empty its connection is suspended, holding no thread, and the hub
 * resumes it when it queues more. */
#include "daemon.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "body_cache.h"
#include "event_stream.h"
#include "gate.h"
#include "http_head.h"
#include "log.h"
#include "metrics.h"

struct wl_daemon {
	struct MHD_Daemon *mhd;
	struct wl_daemon_config cfg;
	struct wl_gate *gate;	/* owns the listening socket's connections first */
	int listen_fd;
};

/* Per-request state, from the first call of the access handler to completion. */
struct conn_state {
	char *body;
	size_t len, cap;
	size_t discarded;	/* bytes dropped after the limit was passed */
	int too_large;		/* the body passed the limit */
	int answered;		/* a response is already queued */
	int started;		/* the handler's first call is done */
	char bad_target[160];	/* why the target as sent is refused, or "" */
};

/* Bytes past the limit a chunked sender may still send before it is cut off. */
#define DISCARD_MAX (1024 * 1024)

static const char *lookup_header(void *ctx, const char *name)
{
	return MHD_lookup_connection_value(ctx, MHD_HEADER_KIND, name);
}

static const char *lookup_arg(void *ctx, const char *name)
{
	return MHD_lookup_connection_value(ctx, MHD_GET_ARGUMENT_KIND, name);
}

static void add_headers(struct MHD_Response *r, const struct wl_response *resp)
{
	MHD_add_response_header(r, "Content-Security-Policy", "default-src 'self'");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Referrer-Policy", "same-origin");
	if (resp->content_type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, resp->content_type);
	if (resp->allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, resp->allow);
	if (resp->location[0])
		MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, resp->location);
	if (resp->disposition[0])
		MHD_add_response_header(r, "Content-Disposition", resp->disposition);
	if (resp->vary)
		MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, resp->vary);
	if (resp->etag[0])
		MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, resp->etag);
	if (resp->content_encoding)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, resp->content_encoding);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
				resp->cache_control ? resp->cache_control : "no-store");
	if (resp->close)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
}

static void release_body(void *cls)
{
	wl_body_unref(cls);
}

static void park_connection(void *ctx)
{
	MHD_suspend_connection(ctx);
}

static void wake_connection(void *ctx)
{
	MHD_resume_connection(ctx);
}

static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max)
{
	ssize_t n = wl_stream_read(cls, buf, max);

	(void)pos;
	return n < 0 ? MHD_CONTENT_READER_END_OF_STREAM : n;
}

static void release_stream(void *cls)
{
	wl_stream_detach(cls);
}

static enum MHD_Result send_response(struct wl_daemon *d, struct MHD_Connection *conn,
				     struct wl_response *resp)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	if (resp->stream) {
		/* The connection's reference goes with the response, released when
		 * libmicrohttpd is done with it. */
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

		wl_stream_attach(resp->stream, park_connection, wake_connection, conn,
				 ci ? ci->connect_fd : -1);
		r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read_stream,
						      resp->stream, release_stream);
		if (r) {
			resp->stream = NULL;
			MHD_add_response_header(r, "X-Accel-Buffering", "no");
		}
	} else if (resp->shared) {
		/* The cache's bytes themselves, held until the response is sent. */
		r = MHD_create_response_from_buffer_with_free_callback_cls(
			resp->shared->len, resp->shared->data, release_body, resp->shared);
		if (r)
			resp->shared = NULL;
	} else if (resp->fd >= 0) {
		r = MHD_create_response_from_fd(resp->fd_size, resp->fd);
		if (r)
			resp->fd = -1;	/* libmicrohttpd closes it */
	} else {
		r = MHD_create_response_from_buffer(resp->body_len, resp->body ? resp->body : (void *)"",
						    resp->body ? MHD_RESPMEM_MUST_FREE
							       : MHD_RESPMEM_PERSISTENT);
		if (r)
			resp->body = NULL;	/* libmicrohttpd frees it */
	}
	if (!r) {
		wl_response_free(resp);
		return MHD_NO;
	}
	add_headers(r, resp);
	ret = MHD_queue_response(conn, resp->status, r);
	MHD_destroy_response(r);
	if (d->cfg.counters)
		wl_http_counters_add(d->cfg.counters, resp->route ? resp->route : "other", resp->status);
	wl_response_free(resp);
	return ret;
}

static enum MHD_Result too_large(struct wl_daemon *d, struct MHD_Connection *conn)
{
	struct wl_response resp;

	wl_response_init(&resp);
	wl_response_error(&resp, 413, "too_large", NULL, "the request body is over the %ld-byte limit",
			  d->cfg.max_body);
	resp.route = "too_large";
	return send_response(d, conn, &resp);
}

/* libmicrohttpd's first word on a request, before it decodes the target: the
 * per-request state starts here so that the target is checked as it was sent
 * (a %00 would otherwise end the path early, unseen). */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct conn_state *cs = calloc(1, sizeof(*cs));

	(void)cls;
	(void)conn;
	if (cs && uri)
		wl_http_target_check(uri, strlen(uri), cs->bad_target, sizeof(cs->bad_target));
	return cs;
}

/* A request's framing headers as they are counted, and the first refusal. */
struct framing_count {
	struct wl_http_framing f;
	char msg[160];
	int status;
};

static enum MHD_Result count_framing(void *cls, enum MHD_ValueKind kind, const char *key,
				     const char *value)
{
	struct framing_count *c = cls;

	(void)kind;
	if (!c->status && key)
		c->status = wl_http_framing_add(&c->f, key, strlen(key), value ? value : "",
						value ? strlen(value) : 0, c->msg, sizeof(c->msg));
	return MHD_YES;
}

/* The gate checked the first request of a connection; this checks every one,
 * the later requests of a kept-alive connection too. 0, or a response queued. */
static int framing_refused(struct wl_daemon *d, struct MHD_Connection *conn, const char *version,
			   struct conn_state *cs, enum MHD_Result *ret)
{
	struct framing_count c = { 0 };
	struct wl_response resp;

	c.f.http11 = version && strcmp(version, "HTTP/1.1") == 0;
	MHD_get_connection_values(conn, MHD_HEADER_KIND, count_framing, &c);
	if (cs->bad_target[0]) {
		c.status = 400;
		snprintf(c.msg, sizeof(c.msg), "%s", cs->bad_target);
	} else if (!c.status) {
		c.status = wl_http_framing_verdict(&c.f, c.msg, sizeof(c.msg));
	}
	if (!c.status)
		return 0;
	cs->answered = cs->too_large = 1;	/* the body, if any, is discarded */
	wl_response_init(&resp);
	wl_response_error(&resp, 400, "bad_request", NULL, "%s", c.msg);
	resp.route = "bad_request";
	resp.close = 1;
	*ret = send_response(d, conn, &resp);
	return 1;
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *conn, const char *url,
				      const char *method, const char *version,
				      const char *upload_data, size_t *upload_data_size,
				      void **con_cls)
{
	struct wl_daemon *d = cls;
	struct conn_state *cs = *con_cls;
	struct wl_response resp;
	struct wl_request req;

	if (!cs || !cs->started) {
		const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
								 MHD_HTTP_HEADER_CONTENT_LENGTH);
		enum MHD_Result ret;

		if (!cs && !(cs = calloc(1, sizeof(*cs))))
			return MHD_NO;
		*con_cls = cs;
		cs->started = 1;
		if (framing_refused(d, conn, version, cs, &ret))
			return ret;
		if (length && strtoull(length, NULL, 10) > (unsigned long long)d->cfg.max_body) {
			cs->too_large = cs->answered = 1;
			return too_large(d, conn);
		}
		return MHD_YES;
	}
	if (*upload_data_size) {
		size_t n = *upload_data_size;

		*upload_data_size = 0;
		if (cs->too_large) {
			cs->discarded += n;
			return cs->discarded > DISCARD_MAX ? MHD_NO : MHD_YES;
		}
		if (cs->len + n > (size_t)d->cfg.max_body) {
			cs->too_large = 1;
			cs->discarded = n;
			free(cs->body);
			cs->body = NULL;
			cs->len = cs->cap = 0;
			return MHD_YES;
		}
		if (cs->len + n > cs->cap) {
			size_t cap = cs->cap ? cs->cap : 4096;
			char *grown;

			while (cap < cs->len + n)
				cap *= 2;
			grown = realloc(cs->body, cap);
			if (!grown)
				return MHD_NO;
			cs->body = grown;
			cs->cap = cap;
		}
		memcpy(cs->body + cs->len, upload_data, n);
		cs->len += n;
		return MHD_YES;
	}
	if (cs->answered)
		return MHD_YES;
	if (cs->too_large) {
		cs->answered = 1;
		return too_large(d, conn);
	}

	/* An absolute-form target (RFC 9112, 3.2.2) names its path after the
	 * authority. */
	if (strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0) {
		const char *path = strchr(url + (url[4] == ':' ? 7 : 8), '/');

		url = path ? path : "/";
	}
	wl_response_init(&resp);
	req = (struct wl_request){
		.method = method,
		.path = url,
		.body = cs->body,
		.body_len = cs->len,
		.header = lookup_header,
		.arg = lookup_arg,
		.ctx = conn,
	};
	d->cfg.handle(d->cfg.ctx, &req, &resp);
	return send_response(d, conn, &resp);
}

static void request_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			      enum MHD_RequestTerminationCode toe)
{
	struct conn_state *cs = *con_cls;

	(void)cls;
	(void)conn;
	(void)toe;
	if (cs) {
		free(cs->body);
		free(cs);
		*con_cls = NULL;
	}
}

/* A connection the gate handed on has closed: the gate counts it out. */
static void connection_notice(void *cls, struct MHD_Connection *conn, void **socket_context,
			      enum MHD_ConnectionNotificationCode toe)
{
	struct wl_daemon *d = cls;
	const union MHD_ConnectionInfo *ci;

	(void)socket_context;
	if (toe != MHD_CONNECTION_NOTIFY_CLOSED)
		return;
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci && ci->client_addr)
		wl_gate_closed(d->gate, ci->client_addr);
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char line[512];

	(void)cls;
	vsnprintf(line, sizeof(line), fmt, ap);
	/* A client that goes away mid-body is how every event stream ends when
	 * its page closes: not worth a warning. */
	if (strstr(line, "no longer available for sending"))
		return;
	wl_log_warn("http: %s", line);
}

/* Split HOST:PORT / [V6]:PORT. */
static int split_listen(const char *listen, char *host, size_t hostlen, char *port, size_t portlen)
{
	const char *colon;

	if (listen[0] == '[') {
		const char *close = strchr(listen, ']');

		if (!close || close[1] != ':')
			return -1;
		snprintf(host, hostlen, "%.*s", (int)(close - listen - 1), listen + 1);
		snprintf(port, portlen, "%s", close + 2);
		return 0;
	}
	colon = strrchr(listen, ':');
	if (!colon || colon == listen)
		return -1;
	snprintf(host, hostlen, "%.*s", (int)(colon - listen), listen);
	snprintf(port, portlen, "%s", colon + 1);
	return 0;
}

static int resolve_listen(const char *listen, struct sockaddr_storage *out, socklen_t *outlen,
			  struct wl_error *err)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	char host[256], port[16];
	int rc;

	if (split_listen(listen, host, sizeof(host), port, sizeof(port)) < 0) {
		wl_error_set(err, WL_ERR_CONFIG, "listen: '%s' is not HOST:PORT", listen);
		return -1;
	}
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc != 0 || !res) {
		wl_error_set(err, WL_ERR_CONFIG, "listen: cannot resolve '%s': %s", listen,
			     gai_strerror(rc));
		return -1;
	}
	memcpy(out, res->ai_addr, res->ai_addrlen);
	*outlen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int wl_listen_is_loopback(const char *listen)
{
	struct sockaddr_storage ss;
	socklen_t len;

	if (resolve_listen(listen, &ss, &len, NULL) < 0)
		return 0;
	if (ss.ss_family == AF_INET)
		return (ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr) >> 24) == 127;
	if (ss.ss_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)&ss)->sin6_addr);
	return 0;
}

/* A socket bound to ss and listening; -1 with err set. */
static int listen_on(const struct sockaddr_storage *ss, socklen_t len, const char *listen_text,
		     struct wl_error *err)
{
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;

	if (fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0 &&
	    bind(fd, (const struct sockaddr *)ss, len) == 0 && listen(fd, 512) == 0)
		return fd;
	wl_error_set(err, WL_ERR_CONFIG, "cannot listen on %s (%s)", listen_text, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

int wl_daemon_start(const struct wl_daemon_config *cfg, struct wl_daemon **out, unsigned *port,
		    struct wl_error *err)
{
	struct sockaddr_storage ss, bound;
	socklen_t sslen, blen = sizeof(bound);
	struct wl_daemon *d;
	struct wl_gate_config gc = { .max_connections = cfg->max_connections,
				     .per_ip_connections = cfg->per_ip_connections,
				     .head_timeout = cfg->connection_timeout };
	/* The gate owns the listening socket and enforces the limits with an
	 * answer; libmicrohttpd's own would reset the connection. */
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME |
			 MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;

	if (resolve_listen(cfg->listen, &ss, &sslen, err) < 0)
		return -1;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	d = calloc(1, sizeof(*d));
	if (!d) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	d->cfg = *cfg;
	d->listen_fd = listen_on(&ss, sslen, cfg->listen, err);
	if (d->listen_fd < 0) {
		free(d);
		return -1;
	}
	d->mhd = MHD_start_daemon(
		flags, 0, NULL, NULL, access_handler, d,
		MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
		MHD_OPTION_NOTIFY_COMPLETED, request_completed, NULL,
		MHD_OPTION_URI_LOG_CALLBACK, uri_seen, NULL,
		MHD_OPTION_NOTIFY_CONNECTION, connection_notice, d,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)4,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)cfg->max_connections + 16,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->connection_timeout,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024),
		MHD_OPTION_END);
	if (!d->mhd) {
		wl_error_set(err, WL_ERR_CONFIG, "cannot start the HTTP server on %s", cfg->listen);
		close(d->listen_fd);
		free(d);
		return -1;
	}
	if (wl_gate_start(d->listen_fd, d->mhd, &gc, &d->gate, err) < 0) {
		MHD_stop_daemon(d->mhd);
		close(d->listen_fd);
		free(d);
		return -1;
	}
	*port = getsockname(d->listen_fd, (struct sockaddr *)&bound, &blen) == 0 ?
		ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port :
						    ((struct sockaddr_in *)&bound)->sin_port) : 0;
	*out = d;
	return 0;
}

void wl_daemon_stop(struct wl_daemon *d)
{
	if (!d)
		return;
	/* Take no new connections, let the event streams end with their last
	 * chunk (a client sees the end of the stream, not a reset), then stop. */
	wl_gate_stop(d->gate);
	close(d->listen_fd);
	if (d->cfg.closing)
		d->cfg.closing(d->cfg.ctx);
	MHD_stop_daemon(d->mhd);
	wl_gate_free(d->gate);	/* after the last close notice */
	free(d);
}
