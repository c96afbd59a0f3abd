/* The catalog's life and lookups (see catalog.h): loading the file (its
 * reading is catalog_load.c's), finding experiments, variants and params,
 * and freeing it all. */
#include "catalog.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog_parts.h"
#include "json_strict.h"
#include "gpu_limits.h"

const char *wl_metric_name(enum wl_metric m)
{
	return m == WL_METRIC_THROUGHPUT ? "throughput" : "bandwidth";
}

void wl_experiment_variant_list(const struct wl_experiment *exp, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	for (size_t k = 0; k < exp->nvariants; k++)
		wl_list_append(buf, len, exp->variants[k].id);
}

int wl_experiment_param(const struct wl_experiment *exp, const char *name)
{
	for (size_t i = 0; i < exp->nparams; i++)
		if (strcmp(exp->params[i].name, name) == 0)
			return (int)i;
	return -1;
}

const char **wl_experiment_param_names(const struct wl_experiment *exp)
{
	const char **names = calloc(exp->nparams + 1, sizeof(*names));

	for (size_t i = 0; names && i < exp->nparams; i++)
		names[i] = exp->params[i].name;
	return names;
}

int wl_experiment_model(const struct wl_experiment *exp, const struct wl_variant_def *like,
			const json_t *obj, const char *where, struct wl_model **out,
			struct wl_error *err)
{
	struct wl_model_shape shape;
	const char **names;
	int rc;

	if (wl_model_shape_load(exp->model, &shape, where, err) < 0)
		return -1;
	if (like && like->model) {
		shape.local = json_object_get(like->model->shown, "local");
		shape.grid = json_object_get(like->model->shown, "grid");
		shape.faster = like->model->faster;
		shape.slower = like->model->slower;
	}
	/* Where the model states no assumption of its own, it simulates the
	 * launch the host makes (a persistent grid has no size to give it). */
	if (like && !shape.local)
		shape.local = json_object_get(like->host.shown, "local");
	if (like && !shape.grid && !like->host.has_fill)
		shape.grid = json_object_get(like->host.shown, "global");
	names = wl_experiment_param_names(exp);
	if (!names) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	rc = wl_model_load(obj, &shape, names, (int)exp->nparams, where, out, err);
	free(names);
	return rc;
}

static void experiment_free(struct wl_experiment *exp)
{
	for (size_t i = 0; i < exp->nparams; i++) {
		free(exp->params[i].name);
		free(exp->params[i].title);
		free(exp->params[i].multiple_of_name);
		json_decref(exp->params[i].default_spec);
	}
	for (size_t i = 0; i < exp->nvariants; i++) {
		free(exp->variants[i].id);
		free(exp->variants[i].title);
		free(exp->variants[i].note);
		free(exp->variants[i].kernel);
		free(exp->variants[i].launch);
		wl_model_free(exp->variants[i].model);
		wl_launch_decl_clear(&exp->variants[i].host);
	}
	json_decref(exp->model);
	json_decref(exp->host);
	free(exp->params);
	free(exp->variants);
	free(exp->id);
	free(exp->title);
	free(exp->lesson);
	free(exp->summary);
	free(exp->after);
	free(exp->seed);
	free(exp->source);
	free(exp->cuda_source);
	free(exp->launch);
}

void wl_catalog_free(struct wl_catalog *cat)
{
	if (!cat)
		return;
	for (size_t i = 0; i < cat->nexperiments; i++)
		experiment_free(&cat->experiments[i]);
	free(cat->experiments);
	free(cat->dir);
	json_decref(cat->gpu_limits);
	free(cat);
}

/* The architecture limits beside the catalog: none is no error (occupancy
 * then reads as unknown), a file that is not valid is. */
static int gpu_limits_load(struct wl_catalog *cat, struct wl_error *err)
{
	char path[4096];
	json_error_t jerr;

	snprintf(path, sizeof(path), "%s/gpu_limits.json", cat->dir);
	if (access(path, F_OK) != 0)
		return 0;
	cat->gpu_limits = json_load_file(path, 0, &jerr);
	if (!cat->gpu_limits) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: line %d: %s", path, jerr.line, jerr.text);
		return -1;
	}
	if (wl_gpu_limits_check(cat->gpu_limits, err) < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		wl_error_set(err, WL_ERR_CONFIG, "%s: %s", path, msg);
		return -1;
	}
	return 0;
}

int wl_catalog_load(const char *path, struct wl_catalog **out, struct wl_error *err)
{
	json_error_t jerr;
	json_t *root = NULL;
	struct wl_catalog *cat = NULL;
	char *pathcopy = NULL;
	int rc = -1;

	wl_error_clear(err);
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		wl_error_set(err, WL_ERR_CONFIG, "%s:%d: %s", path, jerr.line, jerr.text);
		goto out;
	}
	cat = calloc(1, sizeof(*cat));
	pathcopy = strdup(path);
	if (!cat || !pathcopy) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	cat->dir = strdup(dirname(pathcopy));
	if (!cat->dir) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	if (wl_catalog_from_json(root, cat, err) < 0) {
		char inner[sizeof(err->msg)];

		snprintf(inner, sizeof(inner), "%s", err->msg);
		wl_error_set(err, WL_ERR_CONFIG, "%s: %s", path, inner);
		goto out;
	}
	if (gpu_limits_load(cat, err) < 0)
		goto out;
	*out = cat;
	cat = NULL;
	rc = 0;
out:
	wl_catalog_free(cat);
	free(pathcopy);
	json_decref(root);
	return rc;
}

const struct wl_experiment *wl_catalog_find(const struct wl_catalog *cat, const char *id)
{
	for (size_t i = 0; i < cat->nexperiments; i++)
		if (strcmp(cat->experiments[i].id, id) == 0)
			return &cat->experiments[i];
	return NULL;
}

const struct wl_variant_def *wl_experiment_variant(const struct wl_experiment *exp,
						   const char *id, size_t *index)
{
	for (size_t i = 0; i < exp->nvariants; i++)
		if (strcmp(exp->variants[i].id, id) == 0) {
			if (index)
				*index = i;
			return &exp->variants[i];
		}
	return NULL;
}

