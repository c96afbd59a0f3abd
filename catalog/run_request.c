/* A stored run request typed once (see run_request.h). The field-by-field
 * rules, absent meanings included, are wl_run_settings_read's (request.c);
 * this file adds what needs the catalog: the experiment, the points, the
 * variants. */
#include "run_request.h"

#include <stdlib.h>
#include <string.h>

#include "catalog_load.h"
#include "json_strict.h"
#include "request_own.h"

void wl_run_request_free(struct wl_run_request *rr)
{
	wl_points_free(&rr->pts);
	json_decref(rr->json);
	if (rr->own)
		wl_experiment_clear(rr->own);
	free(rr->own);
	memset(rr, 0, sizeof(*rr));
}

/* A stored list of variants or kernels: an array, or absent where optional. */
static int stored_array(const json_t *stored, const char *field, int required, const json_t **out,
			struct wl_error *err)
{
	const json_t *v = json_object_get(stored, field);

	*out = NULL;
	if (json_is_array(v) || (!v && !required)) {
		*out = v;
		return 0;
	}
	wl_error_field(err, WL_ERR_INVALID_FIELD, field, "the stored request's %s: %s is not allowed (an array)",
		       field, v ? wl_json_type_name(v) : "none");
	return -1;
}

int wl_run_request_parse(const struct wl_catalog *cat, const json_t *stored, struct wl_run_request *out,
			 struct wl_error *err)
{
	const char *id = json_string_value(json_object_get(stored, "experiment"));

	memset(out, 0, sizeof(*out));
	if (!json_is_object(stored)) {
		wl_error_set(err, WL_ERR_INVALID_FIELD, "the stored request is %s, not an object",
			     wl_json_type_name(stored));
		return -1;
	}
	if (wl_request_own_definition(stored)) {
		if (!(out->own = calloc(1, sizeof(*out->own)))) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto fail;
		}
		if (wl_experiment_load_own(wl_request_own_definition(stored), out->own, err) < 0) {
			free(out->own);
			out->own = NULL;
			goto fail;
		}
		out->exp = out->own;
	} else {
		out->exp = id ? wl_catalog_find(cat, id) : NULL;
	}
	if (!out->exp) {
		wl_error_field(err, WL_ERR_UNKNOWN_EXPERIMENT, "experiment",
			       "the stored request's experiment: %s%.64s%s is not in this catalog",
			       id ? "'" : "", id ? id : "none", id ? "'" : "");
		goto fail;
	}
	if (wl_run_settings_read(stored, &out->settings, err) < 0 ||
	    stored_array(stored, "variants", 1, &out->variants, err) < 0 ||
	    stored_array(stored, "kernels", 0, &out->kernels, err) < 0)
		goto fail;
	out->nvariants = json_array_size(out->variants) + json_array_size(out->kernels);
	if (wl_request_points(out->exp, stored, &out->pts, err) < 0)
		goto fail;
	out->json = json_incref((json_t *)stored);
	return 0;
fail:
	wl_run_request_free(out);
	return -1;
}
