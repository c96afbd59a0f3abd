/* One loaded experiment (see catalog_experiment.h): finding its variants and
 * params, reading an access declaration against it, and freeing what it
 * holds. The catalog's loading and its costs stand on this file; it calls
 * neither. */
#include "catalog_experiment.h"

#include <stdlib.h>
#include <string.h>

#include "exp_data.h"
#include "json_strict.h"

const char *wl_metric_name(enum wl_metric m)
{
	return m == WL_METRIC_THROUGHPUT ? "throughput" : "bandwidth";
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

	*out = NULL;
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

void wl_experiment_clear(struct wl_experiment *exp)
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
	wl_exp_data_free(exp->data);
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
