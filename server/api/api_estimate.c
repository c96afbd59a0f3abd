/* POST /api/runs/estimate: what a run request would cost before it is
 * queued — its points, variants and measurements, checked as POST
 * /api/runs checks them (run_check.h), the time it should take on the
 * device it resolves to at the pace of that device's last runs of the same
 * experiment, whether the device has a copy ceiling yet, and whether the
 * run would wait for want of an online device that runs it. Nothing is
 * queued or written, so it needs no write token. */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "request.h"
#include "run_check.h"
#include "store.h"

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
	double seconds = 0;
	json_t *hint, *warning;
	int runs = 0;

	if (id && wl_store_run_pace(st, experiment, id, &runs, &seconds, &done, err) < 0)
		return NULL;
	if (!(hint = ceiling_hint(srv, st, id, request, err)))
		return NULL;
	warning = wl_run_waiting(request, device);
	return json_pack("{s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o}", "experiment", experiment, "points",
			 (json_int_t)(variants > 0 ? measurements / variants : measurements), "variants",
			 (json_int_t)variants, "measurements", (json_int_t)measurements, "device",
			 id ? json_string(id) : json_null(), "estimate_s",
			 runs > 0 && done > 0 ? json_real(seconds / (double)done * (double)measurements) : json_null(),
			 "history", runs > 0 && done > 0 ? json_pack("{s:i, s:I, s:f}", "runs", runs, "measurements",
								(json_int_t)done, "seconds", seconds)
						       : json_null(),
			 "hint", hint, "warning", warning ? warning : json_null());
}

void wl_api_estimate_run(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			 struct wl_response *resp)
{
	json_t *body = wl_run_body(req, resp), *request = NULL, *device = NULL, *out = NULL;
	struct wl_store *st = NULL;
	struct wl_error err;
	long long measurements;

	(void)at;
	if (!body)
		return;
	wl_error_clear(&err);
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 ||
	    wl_run_check(srv, st, body, &request, &measurements, &device, &err) < 0 ||
	    !(out = estimate(srv, st, request, device, measurements, &err))) {
		if (err.kind == WL_ERR_NONE)
			wl_error_set(&err, WL_ERR_INTERNAL, "out of memory");
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
