/* The run endpoints: POST /api/runs (checked by run_check.h, then queued),
 * GET /api/runs (newest first, keyset paging), GET /api/runs/{id} and its CSV
 * with the figures analysis/ derives, its samples, and cancel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis.h"
#include "api.h"
#include "cacheable.h"
#include "log.h"
#include "request.h"
#include "run_check.h"
#include "store.h"
#include "wakeup.h"

/* Take a store handle or answer 503. */
static struct wl_store *store_or_503(struct wl_server *srv, struct wl_response *resp)
{
	struct wl_store *st = NULL;
	struct wl_error err;

	if (wl_store_pool_get(srv->pool, &st, &err) < 0) {
		wl_response_from_error(resp, &err);
		return NULL;
	}
	return st;
}

/* Validate and queue, *warning (the caller's, NULL where none) saying why
 * it would wait unseen; every refusal leaves the store untouched. */
static int create_run(struct wl_server *srv, struct wl_store *st, const json_t *body,
		      long long *id, json_t **warning, struct wl_error *err)
{
	json_t *normalized = NULL, *device = NULL;
	const char *run_device;
	char *request_text = NULL;
	long long measurements;
	int rc = -1;

	if (wl_run_check(srv, st, body, &normalized, &measurements, &device, err) < 0)
		goto out;
	/* A model-strategy tuning run is ranked on the device it resolves to
	 * before it is queued: the runner measures what the ranking chose. */
	if (wl_tuning_rank(srv->catalog, normalized, device, 0, err) < 0)
		goto out;
	if (json_object_get(json_object_get(normalized, "tune"), "chosen"))
		measurements = (long long)(json_array_size(json_object_get(json_object_get(normalized, "tune"), "chosen")) *
					   json_array_size(json_object_get(normalized, "variants")));
	run_device = json_string_value(json_object_get(normalized, "device"));
	request_text = json_dumps(normalized, JSON_COMPACT);
	if (!request_text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	{
		struct wl_new_run run = {
			.experiment = json_string_value(json_object_get(normalized, "experiment")),
			.label = json_string_value(json_object_get(normalized, "label")),
			.request_json = request_text,
			.device_req = run_device,
			/* Only a run that names its device is pinned to it; "auto",
			 * "gpu" and "cpu" go to whichever matching device is free
			 * first (the device found above only set the limits). */
			.device_id = device && strcmp(run_device, "auto") && strcmp(run_device, "gpu") &&
						     strcmp(run_device, "cpu")
					     ? json_string_value(json_object_get(device, "id"))
					     : NULL,
			.total = measurements,
			.language = json_string_value(json_object_get(normalized, "language")),
			.queue_limit = srv->cfg->queue_limit,
		};

		/* A tuning run's configurations are measured by every idle
		 * device of the model that claims it, unless it names its one
		 * device. */
		run.shared = json_object_get(normalized, "tune") && !run.device_id;
		pthread_mutex_lock(&srv->write_lock);
		rc = wl_store_insert_run(st, &run, id, err);
		pthread_mutex_unlock(&srv->write_lock);
		if (rc == 0)
			*warning = wl_run_waiting(normalized, device);
		/* Committed: an idle runner may start it now rather than at its
		 * next poll. */
		if (rc == 0)
			wl_wakeup_send(srv->cfg->db, WL_WAKE_RUNNERS);
	}
out:
	free(request_text);
	json_decref(device);
	json_decref(normalized);
	return rc;
}

void wl_api_create_run(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		       struct wl_response *resp)
{
	json_t *body, *warning = NULL, *out;
	struct wl_store *st;
	struct wl_error err;
	long long id;

	(void)at;
	if (!(body = wl_run_body(req, resp)))
		return;
	st = store_or_503(srv, resp);
	if (!st) {
		json_decref(body);
		return;
	}
	wl_error_clear(&err);
	if (create_run(srv, st, body, &id, &warning, &err) < 0) {
		wl_response_from_error(resp, &err);
	} else {
		out = json_pack("{s:I, s:s, s:o, s:o}", "id", (json_int_t)id, "status", "queued", "url",
				json_sprintf("/runs/%lld", id), "api", json_sprintf("/api/runs/%lld", id));
		/* Queued all the same: a device may come back. */
		if (out && warning)
			json_object_set(out, "warning", warning);
		wl_response_json(resp, 201, out);
		snprintf(resp->location, sizeof(resp->location), "/api/runs/%lld", id);
	}
	wl_store_pool_put(srv->pool, st);
	json_decref(warning);
	json_decref(body);
}

/* A positive integer query argument within max, or def when absent. */
static int query_int(const struct wl_request *req, const char *name, long long def,
		     long long max, long long *out, struct wl_response *resp)
{
	const char *v = req->arg(req->ctx, name);
	char *end;
	long long n;

	*out = def;
	if (!v)
		return 0;
	n = strtoll(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || n < 1 || n > max) {
		wl_response_error(resp, 400, "invalid_field", name,
				  "%s: '%.32s' is not allowed (an integer from 1 to %lld)", name, v, max);
		return -1;
	}
	*out = n;
	return 0;
}

/* Filter values are ids: keep them only when they could be one, so they can
 * go back into the next-page link unescaped. */
static int is_id_text(const char *s)
{
	return s && *s && strlen(s) <= 128 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789._-") == strlen(s);
}

/* The longest label search: as long as a label may be, in UTF-8 bytes. */
#define WL_LABEL_SEARCH_MAX (4 * WL_LABEL_MAX)

/* Characters of UTF-8 text: the bytes that do not continue one. */
static size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* text percent-encoded for a query string (unreserved characters kept). */
static void url_encode(const char *text, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)text; *p && o + 4 <= len; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~", *p)) {
			out[o++] = (char)*p;
		} else {
			out[o++] = '%';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 15];
		}
	}
	out[o] = '\0';
}

void wl_api_list_runs(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		      struct wl_response *resp)
{
	static const char *const statuses[] = { "queued", "running", "done", "failed", "cancelled", NULL };
	struct wl_run_filter f = { 0 };
	struct wl_store *st;
	struct wl_error err;
	json_t *runs;
	int more;
	char next[3 * WL_LABEL_SEARCH_MAX + 512], label[3 * WL_LABEL_SEARCH_MAX + 1];

	(void)at;
	if (query_int(req, "limit", 50, 200, &f.limit, resp) < 0 ||
	    query_int(req, "before", 0, (1LL << 62), &f.before, resp) < 0)
		return;
	f.experiment = req->arg(req->ctx, "experiment");
	f.device = req->arg(req->ctx, "device");
	f.status = req->arg(req->ctx, "status");
	for (int i = 0; i < 3; i++) {
		const char *name = i == 0 ? "experiment" : i == 1 ? "device" : "status";
		const char *v = i == 0 ? f.experiment : i == 1 ? f.device : f.status;

		if (v && !is_id_text(v)) {
			wl_response_error(resp, 400, "invalid_field", name,
					  "%s: not a valid %s id", name, name);
			return;
		}
	}
	f.label = req->arg(req->ctx, "label");
	if (f.label && (strlen(f.label) > WL_LABEL_SEARCH_MAX || utf8_chars(f.label) > WL_LABEL_MAX)) {
		wl_response_error(resp, 400, "invalid_field", "label",
				  "label: a search of %zu characters is too long (at most %d)",
				  utf8_chars(f.label), WL_LABEL_MAX);
		return;
	}
	if (f.status) {
		int ok = 0;

		for (const char *const *s = statuses; *s; s++)
			ok |= strcmp(*s, f.status) == 0;
		if (!ok) {
			wl_response_error(resp, 400, "invalid_field", "status",
					  "status: '%s' is not one of queued, running, done, failed, cancelled",
					  f.status);
			return;
		}
	}
	st = store_or_503(srv, resp);
	if (!st)
		return;
	if (wl_store_list_runs(st, &f, &runs, &more, &err) < 0) {
		wl_response_from_error(resp, &err);
	} else {
		json_t *body = json_pack("{s:o}", "runs", runs);
		size_t n = json_array_size(runs);

		if (more && n > 0) {
			long long last = json_integer_value(json_object_get(json_array_get(runs, n - 1), "id"));

			url_encode(f.label ? f.label : "", label, sizeof(label));
			snprintf(next, sizeof(next), "/api/runs?before=%lld&limit=%lld%s%s%s%s%s%s%s%s", last,
				 f.limit, f.experiment ? "&experiment=" : "",
				 f.experiment ? f.experiment : "", f.device ? "&device=" : "",
				 f.device ? f.device : "", f.status ? "&status=" : "",
				 f.status ? f.status : "", label[0] ? "&label=" : "", label);
			json_object_set_new(body, "next", json_string(next));
		} else {
			json_object_set_new(body, "next", json_null());
		}
		wl_response_json(resp, 200, body);
	}
	wl_store_pool_put(srv->pool, st);
}

#define JSON_TYPE "application/json; charset=utf-8"
#define CSV_TYPE "text/csv; charset=utf-8"

/* How a derived run goes into a body. */
struct rendering {
	const char *key;	/* the body cache's name for it, before the run's id */
	const char *type;
	int (*render)(const struct wl_run *run, char **out, size_t *len);
	const char *fails;	/* the 500's message */
};

static int render_json(const struct wl_run *run, char **out, size_t *len)
{
	*out = json_dumps(run->json, JSON_COMPACT);
	*len = *out ? strlen(*out) : 0;
	return *out ? 0 : -1;
}

static const struct rendering as_json = { "run", JSON_TYPE, render_json, "out of memory" };
/* The CSV carries the figures the page shows beside each time. */
static const struct rendering as_csv = { "csv", CSV_TYPE, wl_results_csv, "cannot build the CSV" };

/* A run read final goes into the model's ledger (analysis.h) at once, so
 * that the model's record and GET /api/model/accuracy have it without
 * deriving it again: the first such read writes it; later ones find it
 * scored (one key read) or its body kept. A failure is the ledger's, not
 * the reader's: logged, and left for a later read to score. */
static void score(struct wl_server *srv, struct wl_store *st, const struct wl_run *run)
{
	struct wl_error err;
	int scored;

	wl_error_clear(&err);
	if (wl_ledger_score(run, st, &srv->write_lock, &scored, &err) < 0)
		wl_log_warn("run %lld: not scored into the model's ledger: %s", run->id, err.msg);
}

/* Answer with run id derived and rendered as r says: from the body cache
 * where it is kept, else from the store, kept once it reads the same from
 * now on (wl_run_is_final). */
static void derived_body(struct wl_server *srv, const struct wl_request *req, long long id,
			 const struct rendering *r, struct wl_response *resp)
{
	struct wl_store *st;
	struct wl_error err;
	struct wl_run run;
	char key[48], *body = NULL;
	size_t len = 0;

	snprintf(key, sizeof(key), "%s:%lld", r->key, id);
	if (wl_respond_from_cache(srv->bodies, req, key, r->type, resp))
		return;
	st = store_or_503(srv, resp);
	if (!st)
		return;
	if (wl_run_load(srv->catalog, st, id, &run, &err) < 0) {
		wl_response_from_error(resp, &err);
	} else {
		/* A run waiting says when no online device can run it, as the
		 * devices are now; such a body is never kept (not final). */
		if (run.status == WL_RUN_QUEUED && r == &as_json) {
			json_t *warning = wl_run_waiting_now(srv, st, json_object_get(run.json, "request"));

			json_object_set_new(run.json, "warning", warning ? warning : json_null());
		}
		if (r->render(&run, &body, &len) < 0)
			wl_response_error(resp, 500, "internal", NULL, "%s", r->fails);
		else
			wl_respond_cacheable(srv->bodies, req, wl_run_is_final(&run) ? key : NULL, body, len, r->type,
					     resp);
		score(srv, st, &run);
		free(body);
		wl_run_free(&run);
	}
	wl_store_pool_put(srv->pool, st);
}

void wl_api_get_run(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		    struct wl_response *resp)
{
	derived_body(srv, req, at->id, &as_json, resp);
}

void wl_api_run_samples(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			struct wl_response *resp)
{
	struct wl_store *st = store_or_503(srv, resp);
	struct wl_error err;
	json_t *samples;

	(void)req;
	if (!st)
		return;
	if (wl_store_get_samples(st, at->id, &samples, &err) < 0) {
		wl_response_from_error(resp, &err);
	} else {
		wl_response_json(resp, 200, samples);
		snprintf(resp->disposition, sizeof(resp->disposition),
			 "attachment; filename=\"warplab-run-%lld-samples.json\"", at->id);
	}
	wl_store_pool_put(srv->pool, st);
}

void wl_api_run_csv(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		    struct wl_response *resp)
{
	derived_body(srv, req, at->id, &as_csv, resp);
	if (resp->status == 200 || resp->status == 304)
		snprintf(resp->disposition, sizeof(resp->disposition),
			 "attachment; filename=\"warplab-run-%lld.csv\"", at->id);
}

void wl_api_cancel_run(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		       struct wl_response *resp)
{
	struct wl_store *st;
	struct wl_error err;
	json_t *run;
	int rc;

	(void)req;
	st = store_or_503(srv, resp);
	if (!st)
		return;
	pthread_mutex_lock(&srv->write_lock);
	rc = wl_store_cancel_run(st, at->id, &err);
	pthread_mutex_unlock(&srv->write_lock);
	if (rc < 0 || wl_store_get_run(st, at->id, 0, &run, &err) < 0)
		wl_response_from_error(resp, &err);
	else
		wl_response_json(resp, 200, run);
	wl_store_pool_put(srv->pool, st);
}
