/* What a run request must pass before it is queued (see run_check.h). */
#include "run_check.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "device_fit.h"
#include "json_strict.h"
#include "request.h"
#include "request_own.h"

/* A language as messages write it. */
static const char *language_title(enum wl_language lang)
{
	return lang == WL_LANG_CUDA ? "CUDA" : "OpenCL";
}

/* How much want prefers device d: online devices first (a run for an offline
 * one waits until its runner returns), then for "auto" a GPU over a CPU; 0 when
 * d does not match at all. */
static int device_rank(const json_t *d, const char *want, enum wl_language lang)
{
	const char *id = json_string_value(json_object_get(d, "id"));
	const char *type = json_string_value(json_object_get(d, "type"));
	int online = json_is_true(json_object_get(d, "online"));

	/* A device that does not run the request's language is none of its:
	 * the run waits for one that does (the claim says the same). */
	if (!id || !type || !wl_device_runs(d, lang))
		return 0;
	if (strcmp(want, "auto") == 0)
		return 1 + 2 * online + (strcmp(type, "gpu") == 0);
	if (strcmp(want, "gpu") == 0 || strcmp(want, "cpu") == 0)
		return strcmp(type, want) == 0 ? 1 + online : 0;
	return strcmp(id, want) == 0 ? 1 : 0;
}

/* The device a request names among the registered ones (in the runners'
 * enumeration order, so ties go to the first). *device stays NULL when no
 * device is registered yet: the runner that claims the run resolves it. */
static int resolve_device(const json_t *devices, const char *want, enum wl_language lang, const json_t **device,
			  struct wl_error *err)
{
	int best_rank = 0;
	char known[512] = "";
	size_t i;
	json_t *d;

	*device = NULL;
	if (json_array_size(devices) == 0) {
		if (strcmp(want, "auto") && strcmp(want, "gpu") && strcmp(want, "cpu")) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "device",
				       "device: '%s' is not a registered device (no runner has registered any yet; use \"auto\", \"gpu\" or \"cpu\")",
				       want);
			return -1;
		}
		return 0;
	}
	json_array_foreach(devices, i, d) {
		int rank = device_rank(d, want, lang);
		const char *id = json_string_value(json_object_get(d, "id"));

		if (id)
			wl_list_append(known, sizeof(known), id);
		if (rank > best_rank) {
			best_rank = rank;
			*device = d;
		}
	}
	if (*device)
		return 0;
	json_array_foreach(devices, i, d) {
		const char *reason = wl_device_cuda_reason(d);

		/* The device named is there, but not for this language. */
		if (lang != WL_LANG_OPENCL && device_rank(d, want, WL_LANG_OPENCL) && strcmp(want, "gpu") &&
		    strcmp(want, "cpu") && strcmp(want, "auto")) {
			wl_error_field(err, WL_ERR_DEVICE_LIMIT, "device", "device: '%s' does not run %s (%s)", want,
				       language_title(lang), reason ? reason : "no reason given");
			return -1;
		}
	}
	if (lang != WL_LANG_OPENCL && (strcmp(want, "gpu") == 0 || strcmp(want, "cpu") == 0 ||
				       strcmp(want, "auto") == 0))
		wl_error_field(err, WL_ERR_DEVICE_LIMIT, "device", "device: no %s that runs %s is registered (devices: %s)",
			       strcmp(want, "auto") == 0 ? "device" : want, language_title(lang), known);
	else if (strcmp(want, "gpu") == 0 || strcmp(want, "cpu") == 0)
		wl_error_field(err, WL_ERR_DEVICE_LIMIT, "device",
			       "device: no %s is registered (devices: %s)", want, known);
	else
		wl_error_field(err, WL_ERR_INVALID_FIELD, "device",
			       "device: '%s' is not a registered device (devices: %s, or \"auto\", \"gpu\", \"cpu\")",
			       want, known);
	return -1;
}

static void device_limits(const json_t *d, struct wl_device_limits *out)
{
	out->id = json_string_value(json_object_get(d, "id"));
	out->global_mem = (double)json_integer_value(json_object_get(d, "global_mem_bytes"));
	out->max_alloc = (double)json_integer_value(json_object_get(d, "max_alloc_bytes"));
	out->local_mem = (double)json_integer_value(json_object_get(d, "local_mem_bytes"));
	out->max_work_group = json_integer_value(json_object_get(d, "max_work_group_size"));
}

/* Whether a device of devices runs lang; where none does, err (422 on
 * "language") says why for each, as their runners found it. */
static int language_runs(const json_t *devices, enum wl_language lang, struct wl_error *err)
{
	char why[700] = "";
	size_t i;
	json_t *d;

	json_array_foreach(devices, i, d) {
		const char *reason = wl_device_cuda_reason(d);
		char one[240];

		if (wl_device_runs(d, lang))
			return 0;
		snprintf(one, sizeof(one), "%s: %s", json_string_value(json_object_get(d, "id")),
			 reason ? reason : "OpenCL only (its runner predates CUDA)");
		wl_list_append(why, sizeof(why), one);
	}
	wl_error_field(err, WL_ERR_DEVICE_LIMIT, "language",
		       "language: no registered device runs %s (%s)", language_title(lang),
		       why[0] ? why : "no runner has registered a device yet");
	return -1;
}

static int is_json_type(const char *type)
{
	size_t n = strlen("application/json");

	if (!type || strncasecmp(type, "application/json", n) != 0)
		return 0;
	return type[n] == '\0' || type[n] == ';' || type[n] == ' ';
}

json_t *wl_run_body(const struct wl_request *req, struct wl_response *resp)
{
	json_error_t jerr;
	json_t *body;

	if (!is_json_type(req->header(req->ctx, "Content-Type"))) {
		wl_response_error(resp, 415, "unsupported_media_type", NULL,
				  "the body must be JSON, sent with 'Content-Type: application/json'");
		return NULL;
	}
	body = json_loadb(req->body ? req->body : "", req->body_len, JSON_REJECT_DUPLICATES, &jerr);
	if (!body)
		wl_response_error(resp, 400, "bad_json", NULL, "the body is not valid JSON: %s (line %d, column %d)",
				  jerr.text, jerr.line, jerr.column);
	return body;
}

int wl_run_check(struct wl_server *srv, struct wl_store *st, const json_t *body, json_t **normalized,
		 long long *measurements, json_t **device, struct wl_error *err)
{
	json_t *devices = NULL;
	const json_t *found = NULL;
	enum wl_language language;
	int rc = -1;

	*normalized = NULL;
	*device = NULL;
	if (srv->cfg->no_custom_kernels && json_object_get(body, "kernels")) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "kernels",
			       "kernels: this server does not run custom kernels (it was started with --no-custom-kernels); use the built-in variants");
		goto out;
	}
	/* An experiment of one's own is one's own code as much as a kernel is. */
	if (srv->cfg->no_custom_kernels && wl_request_own_definition(body)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment",
			       "experiment: this server does not run experiments of your own (it was started with --no-custom-kernels); use a catalog experiment");
		goto out;
	}
	/* The language is decided once, here, and a language no device runs is
	 * said first: its kernels are not the OpenCL the checks below read. */
	if (wl_request_language(body, &language, err) < 0)
		goto out;
	if (wl_store_list_devices(st, srv->cfg->heartbeat, &devices, err) < 0)
		goto out;
	if (language != WL_LANG_OPENCL && language_runs(devices, language, err) < 0)
		goto out;
	if (wl_request_validate_in(srv->catalog, body, language, normalized, measurements, err) < 0)
		goto out;
	if (resolve_device(devices, json_string_value(json_object_get(*normalized, "device")), language, &found,
			   err) < 0)
		goto out;
	if (found) {
		struct wl_experiment own = { 0 };
		const struct wl_experiment *exp;
		struct wl_device_limits limits;
		int fits;

		/* The request's own experiment, or the catalog's it names. */
		if (wl_request_experiment(srv->catalog, *normalized, &own, &exp, err) < 0)
			goto out;
		device_limits(found, &limits);
		fits = wl_request_check_device(exp, *normalized, &limits, err);
		wl_experiment_clear(&own);
		if (fits < 0)
			goto out;
		*device = json_deep_copy(found);
		if (!*device) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	if (rc < 0) {
		json_decref(*normalized);
		*normalized = NULL;
	}
	json_decref(devices);
	return rc;
}

json_t *wl_run_waiting(const json_t *request, const json_t *device)
{
	const char *want = json_string_value(json_object_get(request, "device"));
	const char *id = json_string_value(json_object_get(device, "id"));
	const char *seen = json_string_value(json_object_get(device, "last_seen"));
	int named = want && strcmp(want, "auto") && strcmp(want, "gpu") && strcmp(want, "cpu");
	enum wl_language lang;
	struct wl_error err;

	if (!device)
		return json_string("no runner has registered a device yet: the run waits in the queue until one starts "
				   "(make run, or warplab-runner)");
	if (json_is_true(json_object_get(device, "online")))
		return NULL;
	/* Online devices rank first: the best being offline, all are. */
	if (named)
		return json_sprintf("device %s is offline (its runner last checked in at %s): the run waits in the queue "
				    "until it returns", id ? id : "?", seen ? seen : "an unknown time");
	if (wl_request_language(request, &lang, &err) < 0)
		lang = WL_LANG_OPENCL;
	return json_sprintf("no online device can run it: no registered %s that runs %s is online (%s's runner last "
			    "checked in at %s); the run waits in the queue until one returns",
			    !want || strcmp(want, "auto") == 0 ? "device" : strcmp(want, "gpu") == 0 ? "GPU" : "CPU",
			    language_title(lang), id ? id : "?", seen ? seen : "an unknown time");
}

json_t *wl_run_waiting_now(struct wl_server *srv, struct wl_store *st, const json_t *request)
{
	const char *want = json_string_value(json_object_get(request, "device"));
	json_t *devices = NULL, *out = NULL;
	const json_t *found = NULL;
	enum wl_language language;
	struct wl_error err;

	wl_error_clear(&err);
	if (!want || wl_request_language(request, &language, &err) < 0 ||
	    wl_store_list_devices(st, srv->cfg->heartbeat, &devices, &err) < 0)
		return NULL;
	/* The device it named gone, or no device left that runs its
	 * language: the same words as a new request would get. */
	if ((language != WL_LANG_OPENCL && language_runs(devices, language, &err) < 0) ||
	    resolve_device(devices, want, language, &found, &err) < 0)
		out = json_sprintf("%s: the run waits in the queue until one that can run it registers", err.msg);
	else
		out = wl_run_waiting(request, found);
	json_decref(devices);
	return out;
}
