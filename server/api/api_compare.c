/* GET /api/compare?runs=1,2,3: the compare page's table judged by the
 * server (analysis.h, wl_compare), so that the page, a script and the tests
 * read one verdict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "api.h"
#include "store.h"

#define COMPARE_RUNS_MAX 12

/* The ids in text ("1,2,3"), unique, in order; -1 with the message for a
 * token that is no run id or for too many. */
static int parse_ids(const char *text, long long *ids, size_t *n, char *msg, size_t len)
{
	const char *p = text;

	*n = 0;
	while (*p) {
		size_t tok = strcspn(p, ",");
		char *end;
		long long id = strtoll(p, &end, 10);
		int seen = 0;

		if (tok == 0 || tok > 18 || *p < '1' || *p > '9' || end != p + tok) {
			snprintf(msg, len, "runs: '%.*s' is not allowed (run ids, positive integers, separated by commas)",
				 (int)(tok > 32 ? 32 : tok), p);
			return -1;
		}
		for (size_t i = 0; i < *n; i++)
			seen |= ids[i] == id;
		if (!seen) {
			if (*n == COMPARE_RUNS_MAX) {
				snprintf(msg, len, "runs: more than %d runs; at most %d are compared at once",
					 COMPARE_RUNS_MAX, COMPARE_RUNS_MAX);
				return -1;
			}
			ids[(*n)++] = id;
		}
		p += tok;
		if (*p == ',')
			p++;
	}
	if (*n == 0) {
		snprintf(msg, len, "runs: name the runs to compare, as runs=1,2");
		return -1;
	}
	return 0;
}

void wl_api_compare(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		    struct wl_response *resp)
{
	const char *text = req->arg(req->ctx, "runs");
	json_t *found = json_array(), *missing = json_array(), *body = NULL;
	long long ids[COMPARE_RUNS_MAX];
	struct wl_run runs[COMPARE_RUNS_MAX];
	struct wl_store *st = NULL;
	struct wl_error err;
	char msg[160];
	size_t n, nruns = 0;

	(void)at;
	if (!found || !missing) {
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
		goto out;
	}
	if (parse_ids(text ? text : "", ids, &n, msg, sizeof(msg)) < 0) {
		wl_response_error(resp, 400, "invalid_field", "runs", "%s", msg);
		goto out;
	}
	if (wl_store_pool_get(srv->pool, &st, &err) < 0) {
		wl_response_from_error(resp, &err);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *run = NULL;
		int rc;

		if (wl_store_get_run(st, ids[i], 1, &run, &err) < 0) {
			if (err.kind != WL_ERR_NOT_FOUND) {
				wl_response_from_error(resp, &err);
				goto out;
			}
			json_array_append_new(missing, json_integer(ids[i]));
			continue;
		}
		rc = wl_run_read(srv->catalog, run, &runs[nruns], &err);
		json_decref(run);
		if (rc < 0) {
			wl_response_from_error(resp, &err);
			goto out;
		}
		nruns++;
		json_array_append_new(found, json_integer(ids[i]));
	}
	body = nruns ? wl_compare(runs, nruns) : json_pack("{s:n, s:n, s:[]}", "noise", "min_change_pct", "rows");
	if (!body) {
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
		goto out;
	}
	/* The page opens with what each run changes against the first. */
	if (json_object_set_new(body, "pairs", wl_compare_pairs(runs, nruns, json_object_get(body, "rows"))) < 0) {
		json_decref(body);
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
		goto out;
	}
	json_object_set(body, "runs", found);
	json_object_set(body, "missing", missing);
	wl_response_json(resp, 200, body);
out:
	if (st)
		wl_store_pool_put(srv->pool, st);
	for (size_t i = 0; i < nruns; i++)
		wl_run_free(&runs[i]);
	json_decref(found);
	json_decref(missing);
}
