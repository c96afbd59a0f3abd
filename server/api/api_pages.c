/* The pages that negotiate: /runs and /runs/{id} answer a browser's page and
 * a script's JSON from one address, by the Accept header (negotiate.h).
 * A run's page is served only for a run the store has; a store that cannot
 * answer counts as having it, so the page loads and explains the failure
 * itself. */
#include <string.h>

#include "api.h"
#include "negotiate.h"
#include "store.h"

int wl_parse_run_id(const char *s, size_t len, long long *id)
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

void wl_api_no_run(const char *text, struct wl_response *resp)
{
	wl_response_error(resp, 404, "not_found", NULL, "no run '%.40s': run ids are positive integers", text);
}

/* Whether the client asked for JSON rather than the page. */
static int wants_json(const struct wl_request *req)
{
	return wl_accepts_json(req->header(req->ctx, "Accept"));
}

/* Whether run id is in the store (or the store cannot say). */
static int run_exists(struct wl_server *srv, long long id)
{
	struct wl_store *st = NULL;
	struct wl_error err;
	json_t *run = NULL;
	int exists = 1;

	if (wl_store_pool_get(srv->pool, &st, &err) < 0)
		return 1;
	if (wl_store_get_run(st, id, 0, &run, &err) < 0 && err.kind == WL_ERR_NOT_FOUND)
		exists = 0;
	json_decref(run);
	wl_store_pool_put(srv->pool, st);
	return exists;
}

void wl_page_runs(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		  struct wl_response *resp)
{
	if (wants_json(req))
		wl_api_list_runs(srv, req, at, resp);
	else
		wl_static_serve(&srv->www, "/runs", req, resp);
}

void wl_page_run(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		 struct wl_response *resp)
{
	struct wl_path_args run = { 0 };
	int named = wl_parse_run_id(at->page, strlen(at->page), &run.id) == 0;

	if (wants_json(req)) {
		if (named)
			wl_api_get_run(srv, req, &run, resp);
		else
			wl_api_no_run(at->page, resp);
	} else if (named && !run_exists(srv, run.id)) {
		wl_static_not_found(&srv->www, resp);
	} else {
		wl_static_serve(&srv->www, req->path, req, resp);
	}
}
