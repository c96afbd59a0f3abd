/* Requests answered, by route and status (see metrics.h). */
#include "metrics.h"

#include <string.h>

void wl_http_counters_init(struct wl_http_counters *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
}

void wl_http_counters_free(struct wl_http_counters *c)
{
	pthread_mutex_destroy(&c->lock);
}

void wl_http_counters_add(struct wl_http_counters *c, const char *route, unsigned status)
{
	size_t i;

	if (!route)
		route = "other";
	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->n; i++)
		if (c->rows[i].status == status && strcmp(c->rows[i].route, route) == 0)
			break;
	if (i == c->n && c->n < sizeof(c->rows) / sizeof(c->rows[0])) {
		c->rows[i].route = route;
		c->rows[i].status = status;
		c->n++;
	}
	if (i < c->n)
		c->rows[i].count++;
	pthread_mutex_unlock(&c->lock);
}

void wl_http_counters_write(struct wl_http_counters *c, FILE *f)
{
	fputs("# HELP warplab_http_requests_total HTTP requests served, by route and status.\n"
	      "# TYPE warplab_http_requests_total counter\n", f);
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "warplab_http_requests_total{route=\"%s\",status=\"%u\"} %llu\n", c->rows[i].route,
			c->rows[i].status, c->rows[i].count);
	pthread_mutex_unlock(&c->lock);
}
