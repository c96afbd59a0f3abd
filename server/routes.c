/* The route table: each method and path pattern the server answers, its
 * handler (server/api/), whether it writes (then it needs a token where
 * tokens are configured), its name for /metrics, and the Vary it answers
 * with. A path some row matches with no row for the request's method is
 * 405 with Allow. Below /runs/{id}/ a run's views and actions are the same
 * as below /api/runs/{id}/. A path no row matches is a JSON 404 under
 * /api/ (naming the run id where that is what is wrong) and a static file
 * anywhere else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

/* A pattern's segments are literal, or one of:
 *   {id}          a run id (wl_parse_run_id)
 *   {experiment}  1 to 64 of a-z, 0-9 and _
 *   {variant}     1 to 64 of A-Z, a-z, 0-9 and _
 *   {page}        any segment but an empty one (its handler judges it) */
struct route {
	const char *method;	/* "GET" answers HEAD too */
	const char *pattern;
	wl_handler *handler;
	int writes;		/* needs a token (auth.h) */
	const char *name;	/* the route as /metrics counts it */
	const char *vary;	/* the Vary header, or NULL for the handler's own */
};

#define NEGOTIATED "Accept, Accept-Encoding"

static const struct route routes[] = {
	{ "GET", "/runs", wl_page_runs, 0, "/runs", NEGOTIATED },
	{ "POST", "/runs", wl_api_create_run, 1, "/api/runs", NULL },
	{ "GET", "/runs/", wl_page_runs, 0, "/runs", NEGOTIATED },
	{ "POST", "/runs/", wl_api_create_run, 1, "/api/runs", NULL },
	{ "GET", "/runs/{page}", wl_page_run, 0, "/runs/{id}", NEGOTIATED },
	{ "GET", "/api/runs", wl_api_list_runs, 0, "/api/runs", NULL },
	{ "POST", "/api/runs", wl_api_create_run, 1, "/api/runs", NULL },
	{ "POST", "/api/runs/estimate", wl_api_estimate_run, 0, "/api/runs/estimate", NULL },
	{ "GET", "/api/runs/{id}", wl_api_get_run, 0, "/api/runs/{id}", NULL },
	{ "GET", "/api/runs/{id}/results.csv", wl_api_run_csv, 0, "/api/runs/{id}/results.csv", NULL },
	{ "GET", "/api/runs/{id}/space.csv", wl_api_run_space_csv, 0, "/api/runs/{id}/space.csv", NULL },
	{ "GET", "/api/runs/{id}/samples", wl_api_run_samples, 0, "/api/runs/{id}/samples", NULL },
	{ "GET", "/api/runs/{id}/sources", wl_api_run_sources, 0, "/api/runs/{id}/sources", NULL },
	{ "GET", "/api/runs/{id}/compiler", wl_api_run_compiler, 0, "/api/runs/{id}/compiler", NULL },
	{ "GET", "/api/runs/{id}/events", wl_api_run_events, 0, "/api/runs/{id}/events", NULL },
	{ "POST", "/api/runs/{id}/cancel", wl_api_cancel_run, 1, "/api/runs/{id}/cancel", NULL },
	{ "GET", "/api/experiments", wl_api_experiments, 0, "/api/experiments", NULL },
	{ "GET", "/api/experiments/{experiment}/variants/{variant}/source", wl_api_variant_source, 0,
	  "/api/experiments/{id}/variants/{variant}/source", NULL },
	{ "POST", "/api/sources/scan", wl_api_scan_source, 0, "/api/sources/scan", NULL },
	{ "GET", "/api/compare", wl_api_compare, 0, "/api/compare", NULL },
	{ "GET", "/api/events", wl_api_events, 0, "/api/events", NULL },
	{ "GET", "/api/devices", wl_api_devices, 0, "/api/devices", NULL },
	/* It scores unscored runs into the ledger as it reads: derived data,
	 * the same for every client, so no token. */
	{ "GET", "/api/model/accuracy", wl_api_model_accuracy, 0, "/api/model/accuracy", NULL },
	{ "GET", "/api/health", wl_api_health, 0, "/api/health", NULL },
	{ "GET", "/metrics", wl_api_metrics, 0, "/metrics", NULL },
};

#define NROUTES (sizeof(routes) / sizeof(routes[0]))

/* Whether the n bytes at s are 1 to 64 of the characters in set. */
static int is_name(const char *s, size_t n, const char *set)
{
	return n >= 1 && n <= 64 && strspn(s, set) >= n;
}

/* Copy n bytes at s into out (room for 65). */
static void copy_name(char *out, const char *s, size_t n)
{
	memcpy(out, s, n);
	out[n] = '\0';
}

/* Whether the path segment s (n bytes) matches the pattern segment p (m
 * bytes), its placeholder's value into at. */
static int segment_matches(const char *p, size_t m, const char *s, size_t n, struct wl_path_args *at)
{
	if (m == 4 && memcmp(p, "{id}", 4) == 0)
		return wl_parse_run_id(s, n, &at->id) == 0;
	if (m == 12 && memcmp(p, "{experiment}", 12) == 0) {
		if (!is_name(s, n, "abcdefghijklmnopqrstuvwxyz0123456789_"))
			return 0;
		copy_name(at->experiment, s, n);
		return 1;
	}
	if (m == 9 && memcmp(p, "{variant}", 9) == 0) {
		if (!is_name(s, n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"))
			return 0;
		copy_name(at->variant, s, n);
		return 1;
	}
	if (m == 6 && memcmp(p, "{page}", 6) == 0) {
		at->page = s;
		return n > 0 && s[n] == '\0';
	}
	return m == n && memcmp(p, s, n) == 0;
}

/* Whether path matches pattern, segment by segment, the placeholders'
 * values into at. */
static int path_matches(const char *pattern, const char *path, struct wl_path_args *at)
{
	for (;;) {
		size_t m = strcspn(pattern, "/"), n = strcspn(path, "/");

		if (!segment_matches(pattern, m, path, n, at))
			return 0;
		pattern += m;
		path += n;
		if (!*pattern || !*path)
			return !*pattern && !*path;
		pattern++;
		path++;
	}
}

static int is_read(const char *method)
{
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

static int method_matches(const struct route *r, const char *method)
{
	return strcmp(r->method, "GET") == 0 ? is_read(method) : strcmp(r->method, method) == 0;
}

static void method_not_allowed(struct wl_response *resp, const char *method, const char *allow)
{
	wl_response_error(resp, 405, "method_not_allowed", NULL,
			  "%.16s is not allowed here (allowed: %s)", method, allow);
	resp->allow = allow;
}

/* The 405 of a path the rows from first on match, none for its method:
 * named as the first of them, Allow listing theirs. */
static void refuse_method(const char *path, size_t first, const char *method, struct wl_response *resp)
{
	struct wl_path_args at = { 0 };
	int reads = 0, posts = 0;

	for (size_t i = first; i < NROUTES; i++)
		if (path_matches(routes[i].pattern, path, &at)) {
			reads |= strcmp(routes[i].method, "GET") == 0;
			posts |= strcmp(routes[i].method, "POST") == 0;
		}
	resp->route = routes[first].name;
	method_not_allowed(resp, method, reads && posts ? "GET, HEAD, POST" : posts ? "POST" : "GET, HEAD");
	if (routes[first].vary)
		resp->vary = routes[first].vary;
}

/* A path no row matches: a JSON 404 under /api/ (below /api/runs/, naming
 * the run id where it is not one), a static file elsewhere. */
static void unrouted(struct wl_server *srv, const struct wl_request *req, const char *path,
		     struct wl_response *resp)
{
	long long id;

	if (strncmp(path, "/api/runs/", 10) == 0 &&
	    wl_parse_run_id(path + 10, strcspn(path + 10, "/"), &id) < 0) {
		resp->route = "/api/runs/{id}";
		wl_api_no_run(path + 10, resp);
	} else if (strncmp(path, "/api/runs/", 10) == 0 || strncmp(path, "/api/experiments/", 17) == 0) {
		resp->route = "/api/other";
		wl_response_error(resp, 404, "not_found", NULL, "no such API path");
	} else if (strcmp(path, "/api") == 0 || strncmp(path, "/api/", 5) == 0) {
		resp->route = "/api/other";
		wl_response_error(resp, 404, "not_found", NULL, "no such API path: %.100s", path);
	} else {
		resp->route = "static";
		if (is_read(req->method))
			wl_static_serve(&srv->www, path, req, resp);
		else
			method_not_allowed(resp, req->method, "GET, HEAD");
	}
}

void wl_server_handle(struct wl_server *srv, const struct wl_request *req, struct wl_response *resp)
{
	const char *path = req->path;
	char *below_run = NULL;
	size_t first = NROUTES;

	/* /runs/{id}/x is /api/runs/{id}/x. */
	if (strncmp(path, "/runs/", 6) == 0 && strchr(path + 6, '/')) {
		if (asprintf(&below_run, "/api%s", path) < 0) {
			wl_response_error(resp, 500, "internal", NULL, "out of memory");
			return;
		}
		path = below_run;
	}
	for (size_t i = 0; i < NROUTES; i++) {
		struct wl_path_args at = { 0 };

		if (!path_matches(routes[i].pattern, path, &at))
			continue;
		if (first == NROUTES)
			first = i;
		if (!method_matches(&routes[i], req->method))
			continue;
		resp->route = routes[i].name;
		if (!routes[i].writes || wl_authorize(&srv->tokens, req, resp))
			routes[i].handler(srv, req, &at, resp);
		if (routes[i].vary)
			resp->vary = routes[i].vary;
		goto out;
	}
	if (first < NROUTES)
		refuse_method(path, first, req->method, resp);
	else
		unrouted(srv, req, path, resp);
out:
	free(below_run);
}
