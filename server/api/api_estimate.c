/* POST /api/runs/estimate: what a run request would cost before it is
 * queued — its points, variants and measurements, checked as POST
 * /api/runs checks them (run_check.h), the time it should take on the
 * device it resolves to at the pace of that device's last runs of the same
 * experiment (where it has none, its kernels' time by the model), whether
 * the device has a copy ceiling yet, and whether the run would wait for
 * want of an online device that runs it. Nothing is
 * queued or written, so it needs no write token. With ?refusal=body a
 * request the server would refuse is answered 200 with the refusal in the
 * body: a form asking as its fields change is told what is wrong without
 * a failed request in the browser's console. */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "request.h"
#include "request_predict.h"
#include "run_check.h"
#include "store.h"

/* The most the model may take to time a request's kernels: the form asks
 * as it changes, on a request thread. */
#define ESTIMATE_MODEL_S 1.5

/* The variants a request runs: its built-ins and its custom kernels. */
static long long variants_of(const json_t *request)
{
	return (long long)(json_array_size(json_object_get(request, "variants")) +
			   json_array_size(json_object_get(request, "kernels")));
}

/* Where no copy run in the request's cache mode has set the device's
 * ceiling yet: what to do first. */
static json_t *ceiling_hint(struct wl_server *srv, struct wl_store *st, const char *device, const json_t *request,
			    struct wl_error *err)
{
	const struct wl_experiment *copy = wl_catalog_find(srv->catalog, "copy");
	const char *experiment = json_string_value(json_object_get(request, "experiment"));
	const char *mode = wl_cache_mode_name(wl_request_cache(request)), *ids[WL_STORE_CEILING_VARIANTS], *from;
	const struct wl_experiment *exp;
	json_t *ceiling = NULL, *hint;
	size_t n = 0;

	for (; copy && n < copy->nvariants && n < WL_STORE_CEILING_VARIANTS; n++)
		ids[n] = copy->variants[n].id;
	exp = wl_catalog_find(srv->catalog, experiment);
	/* The ceiling is a bandwidth's: an experiment of operations a second
	 * (the banks) has no use for it. */
	if (!device || !n || strcmp(experiment, "copy") == 0 || (exp && exp->metric != WL_METRIC_BANDWIDTH))
		return json_null();
	if (wl_store_copy_ceiling(st, device, NULL, 0, mode, ids, n, &ceiling, err) < 0)
		return NULL;
	if (!ceiling)
		return json_sprintf("No copy run has finished on %s yet: run copy first and this run's "
				    "bandwidths are also shown as a share of the device's ceiling.", device);
	/* A bandwidth run whose ceiling stands in from the other cache mode's
	 * copies is told so. */
	from = json_string_value(json_object_get(ceiling, "cache"));
	hint = !from || strcmp(from, mode) == 0 || !exp || exp->metric != WL_METRIC_BANDWIDTH ? json_null() :
		json_sprintf("No %s copy run has finished on %s yet: this run's bandwidths will be shown as a share "
			     "of the %s copies' ceiling; run copy with \"cache\": \"%s\" first for one of its own mode.",
			     mode, device, from, mode);
	json_decref(ceiling);
	return hint;
}

static json_t *estimate(struct wl_server *srv, struct wl_store *st, const json_t *request, const json_t *device,
			long long measurements, struct wl_error *err)
{
	const char *experiment = json_string_value(json_object_get(request, "experiment"));
	const char *id = json_string_value(json_object_get(device, "id"));
	long long variants = variants_of(request), done = 0;
	double seconds = 0, least = 0, most = 0;
	json_t *hint, *warning;
	int runs = 0, paced, modelled = 0;

	if (id && wl_store_run_pace(st, experiment, id, &runs, &seconds, &done, err) < 0)
		return NULL;
	paced = runs > 0 && done > 0;
	warning = wl_run_waiting(request, device);
	/* No run to go by: the kernels' time alone, as the model predicts
	 * them from the device's facts; not worth predicting for a run that
	 * would wait. */
	if (id && !paced && !warning &&
	    (modelled = wl_request_kernel_seconds(srv->catalog, request, device, ESTIMATE_MODEL_S, &least, &most)) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		json_decref(warning);
		return NULL;
	}
	if (!(hint = ceiling_hint(srv, st, id, request, err))) {
		json_decref(warning);
		return NULL;
	}
	return json_pack("{s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "experiment", experiment, "points",
			 (json_int_t)(variants > 0 ? measurements / variants : measurements), "variants",
			 (json_int_t)variants, "measurements", (json_int_t)measurements, "device",
			 id ? json_string(id) : json_null(), "estimate_s",
			 paced ? json_real(seconds / (double)done * (double)measurements) : json_null(),
			 "history", paced ? json_pack("{s:i, s:I, s:f}", "runs", runs, "measurements", (json_int_t)done,
						      "seconds", seconds)
					  : json_null(),
			 "kernels_s", modelled ? json_pack("{s:f, s:f}", "least", least, "most", most) : json_null(),
			 "hint", hint, "warning", warning ? warning : json_null());
}

/* Whether req asks for refusals in the body (?refusal=body): 1, 0 when it
 * does not, -1 with resp answered 400 when refusal names anything else. */
static int refusal_in_body(const struct wl_request *req, struct wl_response *resp)
{
	const char *v = req->arg ? req->arg(req->ctx, "refusal") : NULL;

	if (!v)
		return 0;
	if (strcmp(v, "body") == 0)
		return 1;
	wl_response_error(resp, 400, "invalid_field", "refusal",
			  "refusal: \"%.64s\" is not allowed (\"body\": a refused request answered 200 with "
			  "{\"refused\": its error}; or leave it out)", v);
	return -1;
}

/* The error a request refused on its content would get, as 200
 * {"refused": {"status", "code", "message", "field" (where it names one)}};
 * a fault of the server's own (5xx) is answered with its status as ever. */
static void refuse_in_body(struct wl_response *resp, const struct wl_error *err)
{
	unsigned status = wl_error_status(err->kind);
	json_t *e = status >= 500 ? NULL :
		json_pack("{s:i, s:s, s:s}", "status", (int)status, "code", wl_error_code(err->kind), "message", err->msg);

	/* The error's own shape: "field" only where it names one. */
	if (e && err->field[0] && json_object_set_new(e, "field", json_string(err->field)) < 0) {
		json_decref(e);
		e = NULL;
	}
	/* Not made (a message quoting bytes that are not UTF-8, or out of
	 * memory): answered as ever, where the error's own path mends the
	 * message. */
	if (e)
		wl_response_json(resp, 200, json_pack("{s:o}", "refused", e));
	else
		wl_response_from_error(resp, err);
}

void wl_api_estimate_run(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			 struct wl_response *resp)
{
	json_t *body = NULL, *request = NULL, *device = NULL, *out = NULL;
	struct wl_store *st = NULL;
	struct wl_error err;
	long long measurements;
	int inline_refusal = refusal_in_body(req, resp);

	(void)at;
	if (inline_refusal < 0 || !(body = wl_run_body(req, resp)))
		return;
	wl_error_clear(&err);
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 ||
	    wl_run_check(srv, st, body, &request, &measurements, &device, &err) < 0 ||
	    !(out = estimate(srv, st, request, device, measurements, &err))) {
		if (err.kind == WL_ERR_NONE)
			wl_error_set(&err, WL_ERR_INTERNAL, "out of memory");
		if (inline_refusal)
			refuse_in_body(resp, &err);
		else
			wl_response_from_error(resp, &err);
	} else {
		wl_response_json(resp, 200, out);
	}
	if (st)
		wl_store_pool_put(srv->pool, st);
	json_decref(request);
	json_decref(device);
	json_decref(body);
}
