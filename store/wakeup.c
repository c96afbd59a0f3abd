/* Wake-ups (see wakeup.h), two ways. On a SQLite store, Unix datagram
 * sockets: socket paths are "<folder of the store>/<channel>/<pid>.sock"; a
 * socket path has room for 108 bytes, so with a store folder longer than 73
 * characters wake-ups are off and listeners poll. On PostgreSQL, a connection
 * of the listener's own that LISTENs on "warplab_<channel>"; the schema's
 * trigger NOTIFYs there when a run changes, so senders have nothing to do. */
#include "wakeup.h"

#include "db_target.h"

#include <libpq-fe.h>

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct wl_wakeup {
	int fd;
	struct sockaddr_un addr;
	/* PostgreSQL: the listening connection, made again after a loss at most
	 * once a second. */
	PGconn *pg;
	char listen_sql[64];
	time_t last_try;
};

/* Send LISTEN on the (connected) listener; 0 when it listens. */
static int pg_send_listen(struct wl_wakeup *w)
{
	PGresult *res = PQexec(w->pg, w->listen_sql);
	int ok = PQresultStatus(res) == PGRES_COMMAND_OK;

	PQclear(res);
	return ok ? 0 : -1;
}

/* Reconnect a PostgreSQL listener that lost its connection; 0 when it listens. */
static int pg_listen(struct wl_wakeup *w)
{
	if (w->pg && PQstatus(w->pg) == CONNECTION_OK)
		return 0;
	if (time(NULL) == w->last_try)
		return -1;
	w->last_try = time(NULL);
	PQreset(w->pg);
	if (PQstatus(w->pg) != CONNECTION_OK)
		return -1;
	return pg_send_listen(w);
}

/* Read what the server sent; 1 when it held a notification. */
static int pg_drain(struct wl_wakeup *w)
{
	PGnotify *n;
	int got = 0;

	if (pg_listen(w) < 0 || !PQconsumeInput(w->pg))
		return 0;
	while ((n = PQnotifies(w->pg))) {
		PQfreemem(n);
		got = 1;
	}
	return got;
}

static int pg_open_listener(const char *target, const char *channel, struct wl_wakeup **out,
			    struct wl_error *err)
{
	struct wl_wakeup *w = calloc(1, sizeof(*w));

	if (!w) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	w->fd = -1;
	snprintf(w->listen_sql, sizeof(w->listen_sql), "LISTEN warplab_%s", channel);
	w->pg = PQconnectdb(target);
	if (!w->pg || PQstatus(w->pg) != CONNECTION_OK || pg_send_listen(w) < 0) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s", w->pg ? PQerrorMessage(w->pg) : "out of memory");
		msg[strcspn(msg, "\n")] = '\0';
		wl_error_set(err, WL_ERR_UNAVAILABLE, "cannot listen for wake-ups on PostgreSQL: %s", msg);
		PQfinish(w->pg);
		free(w);
		return -1;
	}
	*out = w;
	return 0;
}

/* "<folder of db_path>/<channel>" into out; -1 when it does not fit. */
static int wake_dir(const char *db_path, const char *channel, char *out, size_t len)
{
	return wl_store_beside(db_path, channel, out, len);
}

int wl_wakeup_listen(const char *db_path, const char *channel, struct wl_wakeup **out,
		     struct wl_error *err)
{
	struct wl_wakeup *w;
	char dir[81];

	*out = NULL;
	if (wl_db_kind_of(db_path) == WL_DB_POSTGRES)
		return pg_open_listener(db_path, channel, out, err);
	if (wake_dir(db_path, channel, dir, sizeof(dir)) < 0)
		return 0;
	if (mkdir(dir, 0770) < 0 && errno != EEXIST) {
		wl_error_set(err, WL_ERR_CONFIG, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	w->addr.sun_family = AF_UNIX;
	if (snprintf(w->addr.sun_path, sizeof(w->addr.sun_path), "%.80s/%d.sock", dir, (int)getpid()) >=
	    (int)sizeof(w->addr.sun_path)) {
		free(w);
		return 0;
	}
	unlink(w->addr.sun_path);
	w->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (w->fd < 0 || bind(w->fd, (struct sockaddr *)&w->addr, sizeof(w->addr)) < 0) {
		wl_error_set(err, WL_ERR_CONFIG, "cannot listen on %s: %s", w->addr.sun_path, strerror(errno));
		if (w->fd >= 0)
			close(w->fd);
		free(w);
		return -1;
	}
	*out = w;
	return 0;
}

void wl_wakeup_close(struct wl_wakeup *w)
{
	if (!w)
		return;
	if (w->pg) {
		PQfinish(w->pg);
	} else {
		close(w->fd);
		unlink(w->addr.sun_path);
	}
	free(w);
}

int wl_wakeup_wait(struct wl_wakeup *w, long timeout_ms)
{
	struct pollfd p;
	int woken = 0;

	if (!w) {
		struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		return 0;
	}
	if (w->pg && pg_drain(w))
		return 1;
	p.fd = wl_wakeup_fd(w);
	p.events = POLLIN;
	if (p.fd < 0) {
		/* A listener that lost its server sleeps, as with no listener. */
		struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		return 0;
	}
	if (poll(&p, 1, (int)timeout_ms) > 0)
		woken = 1;
	if (w->pg)
		return pg_drain(w);
	wl_wakeup_drain(w);
	return woken;
}

int wl_wakeup_fd(struct wl_wakeup *w)
{
	if (w && w->pg)
		return pg_listen(w) == 0 ? PQsocket(w->pg) : -1;
	return w ? w->fd : -1;
}

void wl_wakeup_drain(struct wl_wakeup *w)
{
	char buf[64];

	if (w && w->pg) {
		pg_drain(w);
		return;
	}
	while (w && recv(w->fd, buf, sizeof(buf), 0) > 0)
		;
}

void wl_wakeup_send(const char *db_path, const char *channel)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char dir[81];
	struct dirent *e;
	DIR *d;
	int fd;

	/* PostgreSQL: the schema's trigger has notified at commit. */
	if (wl_db_kind_of(db_path) == WL_DB_POSTGRES ||
	    wake_dir(db_path, channel, dir, sizeof(dir)) < 0 || !(d = opendir(dir)))
		return;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	while (fd >= 0 && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n < 6 || strcmp(e->d_name + n - 5, ".sock") != 0 ||
		    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%.24s", dir, e->d_name) >=
			    (int)sizeof(addr.sun_path))
			continue;
		if (sendto(fd, "w", 1, MSG_DONTWAIT, (struct sockaddr *)&addr, sizeof(addr)) < 0 &&
		    errno == ECONNREFUSED)
			unlink(addr.sun_path);	/* its runner is gone */
	}
	if (fd >= 0)
		close(fd);
	closedir(d);
}
