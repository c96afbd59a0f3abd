/* A request's own experiment read before it is queued (see request_own.h). */
#include "request_own.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_load.h"
#include "directive_check.h"
#include "exp_data.h"
#include "json_strict.h"
#include "kernel_scan.h"

const json_t *wl_request_own_definition(const json_t *body)
{
	const json_t *v = json_object_get(body, "experiment");

	return json_is_object(v) ? v : json_is_object(json_object_get(body, "definition")) ?
		json_object_get(body, "definition") : NULL;
}

/* An id of [a-z0-9_], at most 64 bytes, that no catalog experiment has. */
static int check_id(const struct wl_catalog *cat, const json_t *def, struct wl_error *err)
{
	const char *id = json_string_value(json_object_get(def, "id"));
	size_t n = id ? strlen(id) : 0;

	if (!id || n == 0 || n > 64 || strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789_") != n) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment.id",
			       "experiment.id: expected 1 to 64 of a-z, 0-9 and '_', got %s%.64s%s",
			       id ? "'" : "", id ? id : wl_json_type_name(json_object_get(def, "id")), id ? "'" : "");
		return -1;
	}
	if (wl_catalog_find(cat, id)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment.id",
			       "experiment.id: '%s' is a catalog experiment's; give yours another", id);
		return -1;
	}
	return 0;
}

/* The source: at most WL_OWN_SOURCE_MAX bytes, no directive that opens a
 * file, and every variant's kernel defined in it. */
static int check_source(const struct wl_experiment *own, struct wl_error *err)
{
	struct wl_kernel_list *list;
	char what[64], names[512] = "";
	size_t len = strlen(own->source);
	int line = 0, rc = -1;

	if (len > WL_OWN_SOURCE_MAX) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment.source",
			       "experiment.source: %zu bytes; at most %d are allowed", len, WL_OWN_SOURCE_MAX);
		return -1;
	}
	if (wl_source_check_directives(own->source, len, what, sizeof(what), &line) < 0) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment.source",
			       "experiment.source: line %d: %s is not allowed (a kernel may not ask for a file of the host)",
			       line, what);
		return -1;
	}
	if (!(list = malloc(sizeof(*list)))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_kernels_scan(own->source, len, list, err) < 0) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment.source", "experiment.source: %s", err->msg);
		goto out;
	}
	for (size_t k = 0; k < list->count; k++)
		wl_list_append(names, sizeof(names), list->items[k].name);
	for (size_t v = 0; v < own->nvariants; v++) {
		char field[64];

		if (wl_kernels_find(list, own->variants[v].kernel))
			continue;
		snprintf(field, sizeof(field), "experiment.variants[%zu].kernel", v);
		wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: '%s' is not defined in the source (it defines: %s)",
			       field, own->variants[v].kernel, names[0] ? names : "no kernel");
		goto out;
	}
	rc = 0;
out:
	free(list);
	return rc;
}

int wl_request_own_read(const struct wl_catalog *cat, const json_t *def, struct wl_experiment *out,
			struct wl_error *err)
{
	const json_t *variants = json_object_get(def, "variants");

	memset(out, 0, sizeof(*out));
	wl_error_clear(err);
	if (!json_is_object(def)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment",
			       "experiment: expected a catalog experiment's id or an experiment of your own (an object), got %s",
			       wl_json_type_name(def));
		return -1;
	}
	if (check_id(cat, def, err) < 0)
		return -1;
	if (json_is_array(variants) && json_array_size(variants) > WL_OWN_VARIANTS_MAX) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment.variants",
			       "experiment.variants: %zu variants; at most %d are allowed", json_array_size(variants),
			       WL_OWN_VARIANTS_MAX);
		return -1;
	}
	if (wl_experiment_load_own(def, out, err) < 0)
		return -1;
	if (check_source(out, err) < 0) {
		wl_experiment_clear(out);
		memset(out, 0, sizeof(*out));
		return -1;
	}
	return 0;
}

int wl_request_own_sizes(const struct wl_experiment *own, const struct wl_points *pts, struct wl_error *err)
{
	for (size_t i = 0; i < pts->count; i++) {
		const long long *values = pts->values + i * pts->nparams;

		if (wl_exp_data_check_point(own->data, values, 1, err) < 0) {
			char at[120], msg[sizeof(err->msg)];

			wl_point_text(own, values, at, sizeof(at));
			snprintf(msg, sizeof(msg), "%.890s at %s", err->msg, at);
			snprintf(err->msg, sizeof(err->msg), "%s", msg);
			return -1;
		}
	}
	return 0;
}

int wl_request_experiment(const struct wl_catalog *cat, const json_t *body, struct wl_experiment *own,
			      const struct wl_experiment **exp, struct wl_error *err)
{
	const json_t *v = json_object_get(body, "experiment"), *def = wl_request_own_definition(body);
	const char *id = json_string_value(v);

	if (!v) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment", "experiment: is required");
		return -1;
	}
	if (!json_is_string(v) && !json_is_object(v)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment",
			       "experiment: expected a catalog experiment's id or an experiment of your own (an object), got %s",
			       wl_json_type_name(v));
		return -1;
	}
	if (json_object_get(body, "definition") && (!json_is_string(v) || !json_is_object(def) ||
						    !json_equal(v, json_object_get(def, "id")))) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "definition",
			       "definition: goes with \"experiment\" naming its id (a stored request's form); give the experiment as an object instead");
		return -1;
	}
	if (def) {
		if (wl_request_own_read(cat, def, own, err) < 0)
			return -1;
		*exp = own;
		return 0;
	}
	*exp = wl_catalog_find(cat, id);
	if (!*exp) {
		char known[1024] = "";

		for (size_t k = 0; k < cat->nexperiments; k++)
			wl_list_append(known, sizeof(known), cat->experiments[k].id);
		wl_error_field(err, WL_ERR_UNKNOWN_EXPERIMENT, "experiment",
			       "experiment: '%.64s' is not in the catalog (allowed: %s; or give an experiment of your own as an object)",
			       id, known);
		return -1;
	}
	return 0;
}
