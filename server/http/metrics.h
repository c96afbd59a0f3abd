/* The requests a server has answered, counted by route and status for
 * /metrics: the daemon counts each response it sends, under the route name
 * the router gave it ("/api/runs/{id}", "static", ...). A fixed table: a
 * route and status past its rows is not counted. Thread-safe. */
#ifndef WL_METRICS_H
#define WL_METRICS_H

#include <pthread.h>
#include <stdio.h>

#define WL_METRIC_ROUTES 24

struct wl_http_counters {
	pthread_mutex_t lock;
	size_t n;
	struct {
		const char *route;	/* a string constant */
		unsigned status;
		unsigned long long count;
	} rows[WL_METRIC_ROUTES * 8];
};

/* Start c empty; wl_http_counters_free releases its lock. */
void wl_http_counters_init(struct wl_http_counters *c);
void wl_http_counters_free(struct wl_http_counters *c);

/* Count one response of route (NULL: "other") with status. */
void wl_http_counters_add(struct wl_http_counters *c, const char *route, unsigned status);

/* Write c as Prometheus text (warplab_http_requests_total, by route and
 * status) to f. */
void wl_http_counters_write(struct wl_http_counters *c, FILE *f);

#endif
