/* The event hub's watcher thread (see events.h). Everything it does happens
 * in one pass under the hub's lock: read the change feed once, replay what a
 * reconnecting status client missed, read each changed run that has followers
 * once, queue the events, send heartbeats. Subscribing only adds a stream to
 * the list and wakes the watcher, so a request thread never reads for it. */
#include "events.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "log.h"
#include "store.h"
#include "wakeup.h"

#define FALLBACK_POLL_MS 250	/* when no wake-up comes (or none can) */
#define FEED_BATCH 500		/* changes read per pass */
#define REPLAY_MAX 1000		/* changes a reconnecting status client may miss */
#define STREAM_MAX_BYTES (16u << 20)

struct sub {
	struct wl_event_stream *s;
	struct sub *next;
};

struct wl_events {
	const struct wl_catalog *cat;
	struct wl_store *st;
	struct wl_wakeup *wake;
	int kick[2];
	pthread_t thread;
	int started;
	long heartbeat_ms;
	pthread_mutex_t lock;
	struct sub *subs;
	size_t nsubs;
	int stopping, ending;
	long long last_change;		/* the newest change delivered */
	long long failed_at_ms;		/* last store failure logged */
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void kick(struct wl_events *ev)
{
	ssize_t n = write(ev->kick[1], "k", 1);

	(void)n;	/* a full pipe already holds a kick */
}

int wl_parse_run_event_id(const char *text, long long *epoch, long long *count)
{
	long long v[2] = { 0, 0 };
	const char *p = text;

	for (int i = 0; i < 2; i++) {
		int digits = 0;

		for (; *p >= '0' && *p <= '9'; p++) {
			if (++digits > 15)
				return -1;
			v[i] = v[i] * 10 + (*p - '0');
		}
		if (!digits || *p != (i == 0 ? '.' : '\0'))
			return -1;
		p++;
	}
	*epoch = v[0];
	*count = v[1];
	return 0;
}

/* Log a store failure at most every ten seconds: the watcher retries every
 * pass, and a broken store must not flood the log. */
static void store_failed(struct wl_events *ev, const struct wl_error *err)
{
	long long t = now_ms();

	if (t - ev->failed_at_ms >= 10000) {
		ev->failed_at_ms = t;
		wl_log_warn("events: %s (retrying)", err->msg);
	}
}

/* Queue "id: <id>\nevent: <name>\ndata: <json>\n\n" (no id line for NULL). */
static void push_event(struct wl_event_stream *s, const char *id, const char *name,
		       const char *data)
{
	size_t n = strlen(data) + (id ? strlen(id) : 0) + strlen(name) + 32;
	char *text = malloc(n);
	int len;

	if (!text)
		return;
	len = snprintf(text, n, "%s%s%sevent: %s\ndata: %s\n\n", id ? "id: " : "", id ? id : "",
		       id ? "\n" : "", name, data);
	if (len > 0 && (size_t)len < n)
		wl_stream_push(s, text, (size_t)len);
	free(text);
}

static void push_json(struct wl_event_stream *s, const char *id, const char *name,
		      const json_t *value)
{
	char *data = json_dumps(value, JSON_COMPACT);

	if (data)
		push_event(s, id, name, data);
	free(data);
}

/* ---- the status stream ---- */

static void push_change(struct wl_event_stream *s, const json_t *row)
{
	struct wl_stream_cursor *c = wl_stream_cursor(s);
	long long change = (long long)json_integer_value(json_object_get(row, "change"));
	char id[24];

	if (change <= c->change)
		return;
	snprintf(id, sizeof(id), "%lld", change);
	push_json(s, id, "run", row);
	c->change = change;
}

/* A status client that is behind what the hub has delivered (it reconnected
 * with an older id): send each run changed since, as it is now, or tell it to
 * reload when it missed too much. Returns -1 on a store failure (retried). */
static int replay(struct wl_events *ev, struct wl_event_stream *s)
{
	struct wl_stream_cursor *c = wl_stream_cursor(s);
	struct wl_error err;
	json_t *rows, *row;
	long long last;
	size_t i;

	if (wl_store_changes(ev->st, c->change, REPLAY_MAX, &rows, &last, &err) < 0) {
		store_failed(ev, &err);
		return -1;
	}
	if (json_array_size(rows) == REPLAY_MAX) {
		char data[64];

		snprintf(data, sizeof(data), "{\"change\":%lld}", last);
		push_event(s, NULL, "resync", data);
		c->change = last;
	} else {
		json_array_foreach(rows, i, row)
			push_change(s, row);
		if (c->change < last && json_array_size(rows) == 0)
			c->change = last;
	}
	json_decref(rows);
	return 0;
}

/* ---- run streams ---- */

/* The run as GET /api/runs/{id} shows it, derived by analysis/ (free it
 * with wl_run_free), and its text without the results. */
static int build_run(struct wl_events *ev, long long id, struct wl_run *run, char **meta)
{
	struct wl_error err;
	json_t *stored = NULL, *results;
	int rc;

	if (wl_store_get_run(ev->st, id, 1, &stored, &err) < 0) {
		store_failed(ev, &err);
		return -1;
	}
	rc = wl_run_read(ev->cat, stored, run, &err);
	json_decref(stored);
	if (rc < 0 || wl_run_derive(run, ev->st, &err) < 0) {
		store_failed(ev, &err);
		wl_run_free(run);
		return -1;
	}
	results = json_incref(json_object_get(run->json, "results"));
	json_object_del(run->json, "results");
	*meta = json_dumps(run->json, JSON_COMPACT);
	json_object_set_new(run->json, "results", results);
	if (!*meta) {
		wl_run_free(run);
		return -1;
	}
	return 0;
}

/* Bring one follower of the run up to date: a reset when the results it has
 * belong to an earlier attempt, the results it lacks, the run, and the end. */
static void push_run(struct wl_event_stream *s, const struct wl_run *run, const char *meta)
{
	struct wl_stream_cursor *c = wl_stream_cursor(s);
	long long epoch = run->requeues;
	long long n = (long long)run->nresults;
	char id[48];

	if (c->fresh)
		wl_stream_push(s, "retry: 1000\n\n", 13);
	if (epoch != c->epoch || c->count > n) {
		if (c->count > 0 || !c->fresh) {
			snprintf(id, sizeof(id), "%lld.0", epoch);
			push_event(s, id, "reset", "{}");
		}
		c->epoch = epoch;
		c->count = 0;
	}
	for (; c->count < n; c->count++) {
		snprintf(id, sizeof(id), "%lld.%lld", epoch, c->count + 1);
		push_json(s, id, "result", run->results[c->count].json);
	}
	push_event(s, NULL, "run", meta);
	if (wl_run_is_settled(run)) {
		push_json(s, NULL, "end", run->json);
		wl_stream_end(s);
	}
	c->fresh = 0;
}

/* Whether the changes include run id. */
static int changed(const json_t *changes, long long id)
{
	size_t i;
	json_t *row;

	json_array_foreach(changes, i, row)
		if (json_integer_value(json_object_get(row, "id")) == id)
			return 1;
	return 0;
}

/* Whether a follower of a run needs it now: just subscribed, or it changed. */
static int needs_run(struct wl_event_stream *s, const json_t *changes)
{
	const struct wl_stream_cursor *c = wl_stream_cursor(s);

	return c->run_id != 0 && (c->fresh || changed(changes, c->run_id));
}

/* Read each run that a follower needs once, however many follow it, and bring
 * all its followers up to date. */
static void deliver_runs(struct wl_events *ev, const json_t *changes)
{
	for (struct sub *a = ev->subs; a; a = a->next) {
		long long id = wl_stream_cursor(a->s)->run_id;
		int earlier = 0;
		struct wl_run run;
		char *meta;

		if (!needs_run(a->s, changes))
			continue;
		for (struct sub *b = ev->subs; b != a && !earlier; b = b->next)
			earlier = wl_stream_cursor(b->s)->run_id == id && needs_run(b->s, changes);
		if (earlier || build_run(ev, id, &run, &meta) < 0)
			continue;	/* served with that one, or retried next pass */
		for (struct sub *b = a; b; b = b->next)
			if (wl_stream_cursor(b->s)->run_id == id && needs_run(b->s, changes))
				push_run(b->s, &run, meta);
		free(meta);
		wl_run_free(&run);
	}
}

/* ---- the pass ---- */

static void drop_closed(struct wl_events *ev)
{
	for (struct sub **p = &ev->subs; *p;) {
		struct sub *a = *p;

		if (wl_stream_closed(a->s)) {
			*p = a->next;
			wl_stream_unref(a->s);
			free(a);
			ev->nsubs--;
		} else {
			p = &a->next;
		}
	}
}

/* A parked connection is not watched by libmicrohttpd, so a client that hangs
 * up would keep its place against the connection limits until the next
 * heartbeat. Look at the sockets (without reading) and end the streams of
 * those that hung up: their connections then close at once. */
static void hangups(struct wl_events *ev)
{
	struct pollfd *p = ev->nsubs ? calloc(ev->nsubs, sizeof(*p)) : NULL;
	struct sub *a;
	size_t n = 0;

	if (!p)
		return;
	for (a = ev->subs; a && n < ev->nsubs; a = a->next, n++) {
		p[n].fd = wl_stream_fd(a->s);
		p[n].events = POLLRDHUP;
	}
	if (poll(p, n, 0) > 0)
		for (a = ev->subs, n = 0; a && n < ev->nsubs; a = a->next, n++)
			if (p[n].fd >= 0 && (p[n].revents & (POLLRDHUP | POLLHUP | POLLERR)))
				wl_stream_end(a->s);
	free(p);
}

static void heartbeats(struct wl_events *ev)
{
	long long t = now_ms();

	for (struct sub *a = ev->subs; a; a = a->next)
		if (t - wl_stream_last_push_ms(a->s) >= ev->heartbeat_ms)
			wl_stream_push(a->s, ": keep-alive\n\n", 14);
}

static void pass(struct wl_events *ev)
{
	json_t *changes = NULL, *row;
	struct wl_error err;
	long long last;
	size_t i;

	pthread_mutex_lock(&ev->lock);
	drop_closed(ev);
	/* Nobody follows anything: only keep up with the counter, so that a
	 * status stream opened next starts from now. */
	if (!ev->subs) {
		if (wl_store_changes(ev->st, LLONG_MAX, 0, &changes, &last, &err) < 0)
			store_failed(ev, &err);
		else
			ev->last_change = last;
		goto out;
	}
	if (wl_store_changes(ev->st, ev->last_change, FEED_BATCH, &changes, &last, &err) < 0) {
		store_failed(ev, &err);
		goto out;
	}
	for (struct sub *a = ev->subs; a; a = a->next) {
		struct wl_stream_cursor *c = wl_stream_cursor(a->s);

		if (c->run_id != 0)
			continue;
		if (c->change < ev->last_change && replay(ev, a->s) < 0)
			continue;
		if (c->fresh) {
			wl_stream_push(a->s, "retry: 1000\n\n", 13);
			c->fresh = 0;
		}
		json_array_foreach(changes, i, row)
			push_change(a->s, row);
	}
	deliver_runs(ev, changes);
	row = json_array_get(changes, json_array_size(changes) - 1);
	if (row)
		ev->last_change = (long long)json_integer_value(json_object_get(row, "change"));
	if (json_array_size(changes) == FEED_BATCH)
		kick(ev);	/* more to read: the next pass at once */
	else if (ev->last_change < last)
		ev->last_change = last;
out:
	hangups(ev);
	heartbeats(ev);
	pthread_mutex_unlock(&ev->lock);
	json_decref(changes);
}

static void *watch(void *arg)
{
	struct wl_events *ev = arg;
	long timeout = ev->heartbeat_ms < FALLBACK_POLL_MS ? ev->heartbeat_ms : FALLBACK_POLL_MS;

	for (;;) {
		struct pollfd p[2] = { { ev->kick[0], POLLIN, 0 },
				       { wl_wakeup_fd(ev->wake), POLLIN, 0 } };
		char buf[64];
		int stop;

		poll(p, ev->wake ? 2 : 1, (int)timeout);
		while (read(ev->kick[0], buf, sizeof(buf)) > 0)
			;
		wl_wakeup_drain(ev->wake);
		pthread_mutex_lock(&ev->lock);
		stop = ev->stopping;
		pthread_mutex_unlock(&ev->lock);
		if (stop)
			break;
		pass(ev);
	}
	return NULL;
}

int wl_events_start(const char *db, const struct wl_catalog *cat, long heartbeat_ms,
		    struct wl_events **out, struct wl_error *err)
{
	struct wl_events *ev = calloc(1, sizeof(*ev));
	json_t *none = NULL;

	if (!ev) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	ev->cat = cat;
	ev->heartbeat_ms = heartbeat_ms;
	ev->kick[0] = ev->kick[1] = -1;
	pthread_mutex_init(&ev->lock, NULL);
	if (pipe2(ev->kick, O_NONBLOCK | O_CLOEXEC) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "events: pipe: %s", strerror(errno));
		goto fail;
	}
	if (wl_store_open(db, &ev->st, err) < 0 ||
	    wl_store_changes(ev->st, LLONG_MAX, 0, &none, &ev->last_change, err) < 0)
		goto fail;
	json_decref(none);
	/* Without wake-ups (a store path too long for a socket) the fallback
	 * poll still delivers everything, only later. */
	if (wl_wakeup_listen(db, WL_WAKE_WATCHERS, &ev->wake, err) < 0)
		wl_log_warn("events: no wake-ups (%s): reading changes every %d ms", err->msg,
			    FALLBACK_POLL_MS);
	if (pthread_create(&ev->thread, NULL, watch, ev) != 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "events: cannot start the watcher thread");
		goto fail;
	}
	ev->started = 1;
	*out = ev;
	return 0;
fail:
	wl_events_stop(ev);
	return -1;
}

void wl_events_end_all(struct wl_events *ev, long wait_ms)
{
	long long until = now_ms() + wait_ms;
	int open;

	if (!ev)
		return;
	pthread_mutex_lock(&ev->lock);
	ev->ending = 1;
	for (struct sub *a = ev->subs; a; a = a->next)
		wl_stream_end(a->s);
	pthread_mutex_unlock(&ev->lock);
	do {
		struct timespec ts = { 0, 10 * 1000000L };

		open = 0;
		pthread_mutex_lock(&ev->lock);
		for (struct sub *a = ev->subs; a; a = a->next)
			open += !wl_stream_closed(a->s);
		pthread_mutex_unlock(&ev->lock);
		if (open)
			nanosleep(&ts, NULL);
	} while (open && now_ms() < until);
}

void wl_events_stop(struct wl_events *ev)
{
	if (!ev)
		return;
	if (ev->started) {
		pthread_mutex_lock(&ev->lock);
		ev->stopping = 1;
		pthread_mutex_unlock(&ev->lock);
		kick(ev);
		pthread_join(ev->thread, NULL);
	}
	while (ev->subs) {
		struct sub *a = ev->subs;

		ev->subs = a->next;
		wl_stream_end(a->s);
		wl_stream_unref(a->s);
		free(a);
	}
	wl_wakeup_close(ev->wake);
	wl_store_close(ev->st);
	if (ev->kick[0] >= 0)
		close(ev->kick[0]);
	if (ev->kick[1] >= 0)
		close(ev->kick[1]);
	pthread_mutex_destroy(&ev->lock);
	free(ev);
}

int wl_events_subscribe(struct wl_events *ev, const struct wl_stream_cursor *cursor,
			struct wl_event_stream **out, struct wl_error *err)
{
	struct wl_stream_cursor c = *cursor;
	struct sub *a = calloc(1, sizeof(*a));

	if (!a) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	pthread_mutex_lock(&ev->lock);
	if (ev->ending || ev->stopping) {
		pthread_mutex_unlock(&ev->lock);
		free(a);
		wl_error_set(err, WL_ERR_UNAVAILABLE, "the server is stopping");
		return -1;
	}
	/* From now on; and an id from the future (a store replaced since)
	 * would skip changes. */
	if (c.run_id == 0 && (c.change < 0 || c.change > ev->last_change))
		c.change = ev->last_change;
	c.fresh = 1;
	a->s = wl_stream_new(&c, STREAM_MAX_BYTES);
	if (!a->s) {
		pthread_mutex_unlock(&ev->lock);
		free(a);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	a->next = ev->subs;
	ev->subs = a;
	ev->nsubs++;
	pthread_mutex_unlock(&ev->lock);
	kick(ev);
	*out = a->s;
	return 0;
}

size_t wl_events_open_streams(struct wl_events *ev)
{
	size_t n;

	if (!ev)
		return 0;
	pthread_mutex_lock(&ev->lock);
	n = ev->nsubs;
	pthread_mutex_unlock(&ev->lock);
	return n;
}
