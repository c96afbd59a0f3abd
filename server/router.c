/* Routing: the API's paths and methods, then static pages. A known path with
 * the wrong method is 405 with Allow; an unknown /api/ path is a JSON 404; any
 * other path is for the static files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "negotiate.h"
#include "server.h"

/* A run id in a path: 1 to 18 digits, no sign, no leading zero. */
static int parse_id(const char *s, size_t len, long long *id)
{
	long long v = 0;

	if (len == 0 || len > 18 || s[0] == '0')
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*id = v;
	return 0;
}

static int is_read(const char *method)
{
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

static void method_not_allowed(struct wl_response *resp, const char *method, const char *allow)
{
	wl_response_error(resp, 405, "method_not_allowed", NULL,
			  "%.16s is not allowed here (allowed: %s)", method, allow);
	resp->allow = allow;
}

/* The read-only views of one run: the run itself and what hangs below it. */
static const struct {
	const char *suffix, *route;
	void (*handler)(struct wl_server *srv, const struct wl_request *req, long long id,
			struct wl_response *resp);
} run_views[] = {
	{ "", "/api/runs/{id}", wl_api_get_run },
	{ "/results.csv", "/api/runs/{id}/results.csv", wl_api_run_csv },
	{ "/samples", "/api/runs/{id}/samples", wl_api_run_samples },
	{ "/sources", "/api/runs/{id}/sources", wl_api_run_sources },
	{ "/compiler", "/api/runs/{id}/compiler", wl_api_run_compiler },
	{ "/events", "/api/runs/{id}/events", wl_api_run_events },
};

/* /api/runs/{id}[/results.csv|/samples|/sources|/compiler|/cancel] */
static void route_run(struct wl_server *srv, const struct wl_request *req, const char *rest,
		      struct wl_response *resp)
{
	const char *slash = strchr(rest, '/'), *suffix = slash ? slash : "";
	size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
	long long id;

	if (parse_id(rest, idlen, &id) < 0) {
		resp->route = "/api/runs/{id}";
		wl_response_error(resp, 404, "not_found", NULL,
				  "no run '%.40s': run ids are positive integers", rest);
		return;
	}
	for (size_t i = 0; i < sizeof(run_views) / sizeof(run_views[0]); i++) {
		if (strcmp(suffix, run_views[i].suffix) != 0)
			continue;
		resp->route = run_views[i].route;
		if (is_read(req->method))
			run_views[i].handler(srv, req, id, resp);
		else
			method_not_allowed(resp, req->method, "GET, HEAD");
		return;
	}
	if (strcmp(suffix, "/cancel") == 0) {
		resp->route = "/api/runs/{id}/cancel";
		if (strcmp(req->method, "POST") == 0)
			wl_api_cancel_run(srv, req, id, resp);
		else
			method_not_allowed(resp, req->method, "POST");
	} else {
		resp->route = "/api/other";
		wl_response_error(resp, 404, "not_found", NULL, "no such API path");
	}
}

/* /api/experiments/{id}/variants/{variant}/source */
static void route_experiment(struct wl_server *srv, const struct wl_request *req, const char *rest,
			     struct wl_response *resp)
{
	char exp_id[65], variant[65];
	int used = 0;

	resp->route = "/api/experiments/{id}/variants/{variant}/source";
	if (sscanf(rest, "%64[a-z0-9_]/variants/%64[A-Za-z0-9_]/source%n", exp_id, variant, &used) != 2 ||
	    rest[used] != '\0') {
		resp->route = "/api/other";
		wl_response_error(resp, 404, "not_found", NULL, "no such API path");
	} else if (!is_read(req->method)) {
		method_not_allowed(resp, req->method, "GET, HEAD");
	} else {
		wl_api_variant_source(srv, exp_id, variant, resp);
	}
}

/* A read-only API route. */
static int route_read(const struct wl_request *req, struct wl_response *resp, const char *name)
{
	resp->route = name;
	if (is_read(req->method))
		return 1;
	method_not_allowed(resp, req->method, "GET, HEAD");
	return 0;
}

/* Whether the client asked for JSON rather than the page. */
static int wants_json(const struct wl_request *req)
{
	return wl_accepts_json(req->header(req->ctx, "Accept"));
}

/* /runs: the runs as the page or, when asked for, as JSON; POST queues one,
 * exactly as POST /api/runs. */
static void route_runs_page(struct wl_server *srv, const struct wl_request *req,
			    struct wl_response *resp)
{
	if (strcmp(req->method, "POST") == 0) {
		resp->route = "/api/runs";
		wl_api_create_run(srv, req, resp);
		return;
	}
	resp->route = "/runs";
	if (!is_read(req->method))
		method_not_allowed(resp, req->method, "GET, HEAD, POST");
	else if (wants_json(req))
		wl_api_list_runs(srv, req, resp);
	else
		wl_static_serve(srv, "/runs", req, resp);
	resp->vary = "Accept, Accept-Encoding";
}

/* /runs/{id}: the run's page or its JSON; below it, the same views and
 * actions as under /api/runs/{id}. */
static void route_run_page(struct wl_server *srv, const struct wl_request *req, const char *rest,
			   struct wl_response *resp)
{
	if (strchr(rest, '/')) {
		route_run(srv, req, rest, resp);
		return;
	}
	resp->route = "/runs/{id}";
	if (!is_read(req->method))
		method_not_allowed(resp, req->method, "GET, HEAD");
	else if (wants_json(req))
		route_run(srv, req, rest, resp);
	else
		wl_static_serve(srv, req->path, req, resp);
	resp->route = "/runs/{id}";
	resp->vary = "Accept, Accept-Encoding";
}

void wl_server_handle(struct wl_server *srv, const struct wl_request *req,
		      struct wl_response *resp)
{
	const char *path = req->path;

	if (strcmp(path, "/runs") == 0 || strcmp(path, "/runs/") == 0) {
		route_runs_page(srv, req, resp);
	} else if (strncmp(path, "/runs/", 6) == 0) {
		route_run_page(srv, req, path + 6, resp);
	} else if (strcmp(path, "/api/runs") == 0) {
		resp->route = "/api/runs";
		if (strcmp(req->method, "POST") == 0)
			wl_api_create_run(srv, req, resp);
		else if (is_read(req->method))
			wl_api_list_runs(srv, req, resp);
		else
			method_not_allowed(resp, req->method, "GET, HEAD, POST");
	} else if (strcmp(path, "/api/runs/estimate") == 0) {
		resp->route = "/api/runs/estimate";
		if (strcmp(req->method, "POST") == 0)
			wl_api_estimate_run(srv, req, resp);
		else
			method_not_allowed(resp, req->method, "POST");
	} else if (strncmp(path, "/api/runs/", 10) == 0) {
		route_run(srv, req, path + 10, resp);
	} else if (strcmp(path, "/api/experiments") == 0) {
		if (route_read(req, resp, "/api/experiments"))
			wl_api_experiments(srv, resp);
	} else if (strncmp(path, "/api/experiments/", 17) == 0) {
		route_experiment(srv, req, path + 17, resp);
	} else if (strcmp(path, "/api/compare") == 0) {
		if (route_read(req, resp, "/api/compare"))
			wl_api_compare(srv, req, resp);
	} else if (strcmp(path, "/api/events") == 0) {
		if (route_read(req, resp, "/api/events"))
			wl_api_events(srv, req, resp);
	} else if (strcmp(path, "/api/devices") == 0) {
		if (route_read(req, resp, "/api/devices"))
			wl_api_devices(srv, resp);
	} else if (strcmp(path, "/api/health") == 0) {
		if (route_read(req, resp, "/api/health"))
			wl_api_health(srv, resp);
	} else if (strcmp(path, "/metrics") == 0) {
		if (route_read(req, resp, "/metrics"))
			wl_api_metrics(srv, resp);
	} else if (strcmp(path, "/api") == 0 || strncmp(path, "/api/", 5) == 0) {
		resp->route = "/api/other";
		wl_response_error(resp, 404, "not_found", NULL, "no such API path: %.100s", path);
	} else {
		resp->route = "static";
		if (is_read(req->method))
			wl_static_serve(srv, path, req, resp);
		else
			method_not_allowed(resp, req->method, "GET, HEAD");
	}
}

void wl_server_count(struct wl_server *srv, const char *route, unsigned status)
{
	struct wl_http_counters *c = &srv->counters;
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

int wl_server_authorize(struct wl_server *srv, const struct wl_request *req,
			struct wl_response *resp)
{
	if (srv->tokens.count == 0)
		return 1;
	if (wl_tokens_allow(&srv->tokens, req->header(req->ctx, "Authorization")))
		return 1;
	wl_response_error(resp, 401, "unauthorized", NULL,
			  "writes need an 'Authorization: Bearer <token>' header with a valid token");
	return 0;
}
