/* The gate (see gate.h). One thread polls the listening socket and the
 * connections waiting for their heads. A waiting connection's head is read
 * with MSG_PEEK; while it is incomplete, SO_RCVLOWAT asks poll to wake only
 * once more bytes than already seen have come, so a slow sender costs no
 * spinning. A refused connection gets its answer, has its write side shut and
 * what it still sends read and dropped until it closes (or a short time
 * passes), so the answer is not lost to a reset. Addresses are counted from
 * accept to libmicrohttpd's close notice. */
#include "gate.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "http_head.h"
#include "log.h"

/* Refused connections waiting or draining at once; past this a connection
 * over a limit is closed without an answer (someone opens them by the
 * thousand). */
#define REFUSED_MAX 256
/* How long a refused connection is drained before it is closed. */
#define DRAIN_S 2.0

struct address_count {
	unsigned char addr[16];	/* IPv4 in the first 4 bytes, or IPv6 */
	int family;
	long n;
};

struct waiting {
	int fd;
	struct sockaddr_storage addr;
	socklen_t addr_len;
	double deadline;
	size_t seen;		/* bytes of head peeked so far */
	int counted;		/* holds a place in the counts */
	unsigned refuse;	/* the status it gets once its head is in (429, 503), or 0 */
	int draining;		/* answered: reading what is left until it closes */
};

struct wl_gate {
	int listen_fd;
	struct MHD_Daemon *mhd;
	struct wl_gate_config cfg;
	pthread_t thread;
	int stop_pipe[2];
	pthread_mutex_t lock;	/* counts and open */
	struct address_count *counts;
	size_t ncounts;
	long open;		/* connections counted, waiting or handed on */
	struct waiting *w;	/* the gate thread's alone */
	size_t nw;
};

/* ---- counting addresses ---- */

static void address_key(const struct sockaddr *sa, unsigned char key[16], int *family)
{
	memset(key, 0, 16);
	*family = sa->sa_family;
	if (sa->sa_family == AF_INET)
		memcpy(key, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	else if (sa->sa_family == AF_INET6)
		memcpy(key, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
}

/* The count of sa's address, made when missing; NULL when out of memory.
 * Called with the lock held. */
static struct address_count *count_of(struct wl_gate *g, const struct sockaddr *sa, int make)
{
	unsigned char key[16];
	int family;
	struct address_count *grown;

	address_key(sa, key, &family);
	for (size_t i = 0; i < g->ncounts; i++)
		if (g->counts[i].family == family && memcmp(g->counts[i].addr, key, 16) == 0)
			return &g->counts[i];
	if (!make)
		return NULL;
	grown = realloc(g->counts, (g->ncounts + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	g->counts = grown;
	grown = &g->counts[g->ncounts++];
	memcpy(grown->addr, key, 16);
	grown->family = family;
	grown->n = 0;
	return grown;
}

/* Take a place for sa: 0, or the status that refuses it (503: the server is
 * full, 429: the address holds its share). */
static unsigned take_place(struct wl_gate *g, const struct sockaddr *sa)
{
	struct address_count *c;
	unsigned status = 0;

	pthread_mutex_lock(&g->lock);
	c = count_of(g, sa, 1);
	if (g->open >= g->cfg.max_connections || !c)
		status = 503;
	else if (c->n >= g->cfg.per_ip_connections)
		status = 429;
	else {
		c->n++;
		g->open++;
	}
	pthread_mutex_unlock(&g->lock);
	return status;
}

void wl_gate_closed(struct wl_gate *g, const struct sockaddr *addr)
{
	struct address_count *c;

	if (!g || !addr)
		return;
	pthread_mutex_lock(&g->lock);
	c = count_of(g, addr, 0);
	if (c && c->n > 0) {
		c->n--;
		g->open--;
		if (c->n == 0)
			*c = g->counts[--g->ncounts];	/* keep the table to live addresses */
	}
	pthread_mutex_unlock(&g->lock);
}

/* ---- answering ---- */

static const char *status_text(unsigned status)
{
	switch (status) {
	case 400: return "Bad Request";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	default: return "Service Unavailable";
	}
}

static const char *status_code(unsigned status)
{
	switch (status) {
	case 400: return "bad_request";
	case 429: return "too_many_connections";
	case 431: return "head_too_large";
	default: return "unavailable";
	}
}

/* Write the JSON error and shut the write side; the connection then drains. */
static void answer(struct waiting *w, unsigned status, const char *message)
{
	json_t *o = json_pack("{s:{s:s, s:s}}", "error", "code", status_code(status), "message", message);
	char *body = o ? json_dumps(o, JSON_COMPACT) : NULL;
	char buf[1024];
	int n;

	json_decref(o);
	n = snprintf(buf, sizeof(buf),
		     "HTTP/1.1 %u %s\r\nContent-Type: application/json; charset=utf-8\r\n"
		     "Content-Length: %zu\r\nConnection: close\r\nCache-Control: no-store\r\n"
		     "X-Content-Type-Options: nosniff\r\n%s\r\n%s\n",
		     status, status_text(status), body ? strlen(body) + 1 : 1,
		     status == 503 || status == 429 ? "Retry-After: 1\r\n" : "", body ? body : "");
	free(body);
	if (n > 0 && send(w->fd, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1, MSG_NOSIGNAL) < 0) {
		/* The client is gone; closing is all that is left. */
	}
	shutdown(w->fd, SHUT_WR);
	w->draining = 1;
	w->deadline = wl_monotonic_s() + DRAIN_S;
}

/* ---- the waiting list ---- */

static void drop(struct wl_gate *g, size_t i, int close_fd)
{
	struct waiting *w = &g->w[i];

	if (close_fd)
		close(w->fd);
	if (w->counted)
		wl_gate_closed(g, (struct sockaddr *)&w->addr);
	g->w[i] = g->w[--g->nw];
}

static size_t refused_now(const struct wl_gate *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nw; i++)
		n += g->w[i].refuse || g->w[i].draining;
	return n;
}

static void accept_all(struct wl_gate *g)
{
	for (;;) {
		struct waiting w = { .addr_len = sizeof(w.addr) };
		struct waiting *grown;
		int fd = accept4(g->listen_fd, (struct sockaddr *)&w.addr, &w.addr_len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)
			return;
		w.fd = fd;
		w.deadline = wl_monotonic_s() + (double)g->cfg.head_timeout;
		w.refuse = take_place(g, (struct sockaddr *)&w.addr);
		w.counted = w.refuse == 0;
		grown = (w.refuse && refused_now(g) >= REFUSED_MAX) ? NULL :
			realloc(g->w, (g->nw + 1) * sizeof(*grown));
		if (!grown) {
			close(fd);
			if (w.counted)
				wl_gate_closed(g, (struct sockaddr *)&w.addr);
			continue;
		}
		g->w = grown;
		g->w[g->nw++] = w;
	}
}

/* Hand w on to libmicrohttpd, which owns its socket from then on (and closes
 * it when it cannot take it). Returns 0 when it took it. */
static int hand_on(struct wl_gate *g, struct waiting *w)
{
	int one = 1;

	setsockopt(w->fd, SOL_SOCKET, SO_RCVLOWAT, &one, sizeof(one));
	return MHD_add_connection(g->mhd, w->fd, (struct sockaddr *)&w->addr, w->addr_len) == MHD_YES ? 0 : -1;
}

/* w is readable: peek at its head, then answer, hand on or wait for more.
 * Returns 1 when w leaves the list (i is then reused), 0 when it stays. */
static int read_head(struct wl_gate *g, size_t i)
{
	struct waiting *w = &g->w[i];
	char buf[WL_GATE_HEAD_MAX + 1], msg[256];
	ssize_t n;
	const char *end;
	unsigned status;

	if (w->draining) {
		n = recv(w->fd, buf, sizeof(buf), 0);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			drop(g, i, 1);
			return 1;
		}
		return 0;
	}
	n = recv(w->fd, buf, sizeof(buf) - 1, MSG_PEEK);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		drop(g, i, 1);
		return 1;
	}
	if (n < 0)
		return 0;
	buf[n] = '\0';
	end = strstr(buf, "\r\n\r\n");
	if (!end)
		end = strstr(buf, "\n\n");
	if (!end && (size_t)n >= WL_GATE_HEAD_MAX) {
		snprintf(msg, sizeof(msg), "the request head is over %d bytes", WL_GATE_HEAD_MAX);
		answer(w, 431, msg);
		return 0;
	}
	if (!end) {
		int more = (int)n + 1;

		w->seen = (size_t)n;
		setsockopt(w->fd, SOL_SOCKET, SO_RCVLOWAT, &more, sizeof(more));
		return 0;
	}
	status = wl_http_head_check(buf, (size_t)(end - buf) + 2, msg, sizeof(msg));
	if (!status && w->refuse) {
		status = w->refuse;
		snprintf(msg, sizeof(msg), status == 429 ?
			 "this address holds %ld connections already, the most one address may; close one and try again" :
			 "the server holds its most connections (%ld); try again shortly",
			 status == 429 ? g->cfg.per_ip_connections : g->cfg.max_connections);
	}
	if (status) {
		int one = 1;

		setsockopt(w->fd, SOL_SOCKET, SO_RCVLOWAT, &one, sizeof(one));
		answer(w, status, msg);
		return 0;
	}
	if (hand_on(g, w) < 0) {
		wl_log_warn("http: a connection could not be handed to the server");
		drop(g, i, 0);
		return 1;
	}
	/* Counted until libmicrohttpd says it closed. */
	g->w[i] = g->w[--g->nw];
	return 1;
}

static void *gate_main(void *arg)
{
	struct wl_gate *g = arg;
	struct pollfd *fds = NULL;

	for (;;) {
		size_t nfds = g->nw + 2;
		struct pollfd *grown = realloc(fds, nfds * sizeof(*fds));
		double now = wl_monotonic_s(), next = now + 1.0;
		int timeout;

		if (!grown) {
			usleep(10000);
			continue;
		}
		fds = grown;
		fds[0] = (struct pollfd){ .fd = g->stop_pipe[0], .events = POLLIN };
		fds[1] = (struct pollfd){ .fd = g->listen_fd, .events = POLLIN };
		for (size_t i = 0; i < g->nw; i++) {
			fds[i + 2] = (struct pollfd){ .fd = g->w[i].fd, .events = POLLIN };
			if (g->w[i].deadline < next)
				next = g->w[i].deadline;
		}
		timeout = next > now ? (int)((next - now) * 1000) + 1 : 0;
		if (poll(fds, nfds, timeout) < 0 && errno != EINTR)
			break;
		if (fds[0].revents)
			break;
		/* Walk from the end: read_head may move the last entry into i. */
		for (size_t k = nfds; k > 2; k--) {
			size_t i = k - 3;

			if (i >= g->nw || fds[k - 1].fd != g->w[i].fd)
				continue;
			if (fds[k - 1].revents && read_head(g, i))
				continue;
			if (wl_monotonic_s() > g->w[i].deadline)
				drop(g, i, 1);	/* silent too long, or drained enough */
		}
		if (fds[1].revents)
			accept_all(g);
	}
	free(fds);
	while (g->nw)
		drop(g, g->nw - 1, 1);
	return NULL;
}

int wl_gate_start(int listen_fd, struct MHD_Daemon *mhd, const struct wl_gate_config *cfg,
		  struct wl_gate **out, struct wl_error *err)
{
	struct wl_gate *g = calloc(1, sizeof(*g));

	if (!g) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	g->listen_fd = listen_fd;
	g->mhd = mhd;
	g->cfg = *cfg;
	if (pipe2(g->stop_pipe, O_CLOEXEC) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "pipe: %s", strerror(errno));
		free(g);
		return -1;
	}
	pthread_mutex_init(&g->lock, NULL);
	if (pthread_create(&g->thread, NULL, gate_main, g) != 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot start the connection gate's thread");
		close(g->stop_pipe[0]);
		close(g->stop_pipe[1]);
		pthread_mutex_destroy(&g->lock);
		free(g);
		return -1;
	}
	*out = g;
	return 0;
}

void wl_gate_stop(struct wl_gate *g)
{
	if (!g || g->stop_pipe[0] < 0)
		return;
	if (write(g->stop_pipe[1], "x", 1) < 0) {
		/* The thread polls this pipe; a failed write leaves nothing better. */
	}
	pthread_join(g->thread, NULL);
	close(g->stop_pipe[0]);
	close(g->stop_pipe[1]);
	g->stop_pipe[0] = g->stop_pipe[1] = -1;
}

void wl_gate_free(struct wl_gate *g)
{
	if (!g)
		return;
	pthread_mutex_destroy(&g->lock);
	free(g->counts);
	free(g->w);
	free(g);
}
