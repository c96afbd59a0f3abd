/* Reading kernels/catalog.json's experiments (see catalog_load.h), strictly:
 * unknown keys, wrong types, formulas naming unknown params and invalid
 * defaults are all errors naming the entry, so a typo in the catalog stops
 * both binaries at start instead of surfacing as a strange run. It calls down
 * into catalog_experiment.c and catalog_cost.c; catalog.c calls it. */
#include "catalog_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_cost.h"
#include "exp_data.h"
#include "json_strict.h"

static int load_param(struct wl_experiment *exp, size_t i, const json_t *obj, const char *where,
		      struct wl_error *err)
{
	static const char *const keys[] = { "name", "title", "type", "min", "max", "default",
					    "multiple_of", "pow2", NULL };
	struct wl_param_def *p = &exp->params[i];
	json_t *mult, *type;

	p->multiple_of_param = -1;
	if (!json_is_object(obj)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: must be an object", where);
		return -1;
	}
	if (wl_json_check_keys(obj, keys, where, NULL, err) < 0 ||
	    wl_json_get_string(obj, "name", 1, &p->name, where, err) < 0 ||
	    wl_json_get_string(obj, "title", 0, &p->title, where, err) < 0 ||
	    wl_json_get_int(obj, "min", 1, &p->min, where, err) < 0 ||
	    wl_json_get_int(obj, "max", 1, &p->max, where, err) < 0)
		return -1;
	type = json_object_get(obj, "type");
	if (type && !(json_is_string(type) && strcmp(json_string_value(type), "int") == 0)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: 'type' must be \"int\"", where);
		return -1;
	}
	if (p->min > p->max || p->min < 0 || p->max > WL_PARAM_VALUE_MAX) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: min/max must satisfy 0 <= min <= max <= %lld",
			     where, (long long)WL_PARAM_VALUE_MAX);
		return -1;
	}
	p->pow2 = json_is_true(json_object_get(obj, "pow2"));
	p->default_spec = json_incref(json_object_get(obj, "default"));
	if (!p->default_spec) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: 'default' is missing", where);
		return -1;
	}
	mult = json_object_get(obj, "multiple_of");
	if (json_is_integer(mult) && json_integer_value(mult) > 0) {
		p->multiple_of = json_integer_value(mult);
	} else if (json_is_string(mult)) {
		/* Resolved by load_experiment once every param is known. */
		p->multiple_of_name = strdup(json_string_value(mult));
		if (!p->multiple_of_name) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
	} else if (mult) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "%s: multiple_of must be a positive integer or a parameter name", where);
		return -1;
	}
	return 0;
}

static int load_variant(const struct wl_experiment *exp, struct wl_variant_def *v,
			const json_t *obj, const char *where, struct wl_error *err)
{
	static const char *const keys[] = { "id", "title", "note", "kernel", "cost", "launch", "host",
					    "model", NULL };
	const char **names;
	json_t *cost, *model;
	char sub[400];
	int rc;

	if (!json_is_object(obj)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: must be an object", where);
		return -1;
	}
	if (wl_json_check_keys(obj, keys, where, NULL, err) < 0 ||
	    wl_json_get_string(obj, "id", 1, &v->id, where, err) < 0 ||
	    wl_json_get_string(obj, "title", 0, &v->title, where, err) < 0 ||
	    wl_json_get_string(obj, "note", 0, &v->note, where, err) < 0 ||
	    wl_json_get_string(obj, "launch", 0, &v->launch, where, err) < 0 ||
	    wl_json_get_string(obj, "kernel", 1, &v->kernel, where, err) < 0)
		return -1;
	cost = json_object_get(obj, "cost");
	if (cost && wl_costs_load(exp, cost, v->has_cost, v->cost, where, err) < 0)
		return -1;
	names = wl_experiment_param_names(exp);
	if (!names) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	snprintf(sub, sizeof(sub), "experiment '%s' variant '%s'", exp->id, v->id);
	rc = wl_launch_decl_load(json_object_get(obj, "host"), exp->host, names, (int)exp->nparams,
				 sub, &v->host, err);
	free(names);
	if (rc < 0)
		return -1;
	model = json_object_get(obj, "model");
	if (model) {
		snprintf(sub, sizeof(sub), "experiment '%s' variant '%s' model", exp->id, v->id);
		if (wl_experiment_model(exp, v, model, sub, &v->model, err) < 0)
			return -1;
	}
	return 0;
}

/* "baseline": {"param": "c", "value": 1}: results are also reported relative to
 * the one with that param at that value (all else equal). */
static int load_baseline(struct wl_experiment *exp, const json_t *obj, const char *where,
			 struct wl_error *err)
{
	static const char *const keys[] = { "param", "value", NULL };
	char *param = NULL;
	int rc = -1;

	exp->baseline_param = -1;
	exp->baseline_value = -1;
	if (!obj)
		return 0;
	if (!json_is_object(obj) || wl_json_check_keys(obj, keys, where, NULL, err) < 0 ||
	    wl_json_get_string(obj, "param", 1, &param, where, err) < 0 ||
	    wl_json_get_int(obj, "value", 1, &exp->baseline_value, where, err) < 0)
		goto out;
	exp->baseline_param = wl_experiment_param(exp, param);
	if (exp->baseline_param < 0) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: baseline names unknown parameter '%s'", where, param);
		goto out;
	}
	rc = 0;
out:
	free(param);
	return rc;
}

/* "drops": {"param": "n", "threshold": 0.15}: sweeps over param are searched for
 * points more than threshold below both neighbours (partition camping). */
static int load_drops(struct wl_experiment *exp, const json_t *obj, const char *where,
		      struct wl_error *err)
{
	static const char *const keys[] = { "param", "threshold", NULL };
	char *param = NULL;
	json_t *t;
	int rc = -1;

	exp->drops_param = -1;
	exp->drops_threshold = -1;
	if (!obj)
		return 0;
	if (!json_is_object(obj) || wl_json_check_keys(obj, keys, where, NULL, err) < 0 ||
	    wl_json_get_string(obj, "param", 1, &param, where, err) < 0)
		goto out;
	t = json_object_get(obj, "threshold");
	if (!json_is_number(t) || json_number_value(t) <= 0 || json_number_value(t) >= 1) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: drops needs a threshold between 0 and 1", where);
		goto out;
	}
	exp->drops_threshold = json_number_value(t);
	exp->drops_param = wl_experiment_param(exp, param);
	if (exp->drops_param < 0) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: drops names unknown parameter '%s'", where, param);
		goto out;
	}
	rc = 0;
out:
	free(param);
	return rc;
}

/* The experiment's strings and metric. */
static int load_header(struct wl_experiment *exp, const json_t *obj, const char *where,
		       struct wl_error *err)
{
	static const char *const keys[] = { "id", "title", "lesson", "summary", "seed", "after", "source", "cuda_source",
					    "metric", "fp64", "params", "variants", "cost", "baseline", "drops",
					    "launch", "host", "model", "reference", "buffers", "scalars", "defines",
					    "check", NULL };
	char *metric_name = NULL;

	if (wl_json_check_keys(obj, keys, where, NULL, err) < 0 ||
	    wl_json_get_string(obj, "title", 1, &exp->title, where, err) < 0 ||
	    wl_json_get_string(obj, "lesson", 1, &exp->lesson, where, err) < 0 ||
	    wl_json_get_string(obj, "summary", 1, &exp->summary, where, err) < 0 ||
	    wl_json_get_string(obj, "seed", 1, &exp->seed, where, err) < 0 ||
	    wl_json_get_string(obj, "after", 0, &exp->after, where, err) < 0 ||
	    wl_json_get_string(obj, "source", 1, &exp->source, where, err) < 0 ||
	    wl_json_get_string(obj, "cuda_source", 0, &exp->cuda_source, where, err) < 0 ||
	    wl_json_get_string(obj, "launch", 0, &exp->launch, where, err) < 0 ||
	    wl_json_get_string(obj, "metric", 1, &metric_name, where, err) < 0)
		return -1;
	if (strcmp(metric_name, "bandwidth") == 0) {
		exp->metric = WL_METRIC_BANDWIDTH;
	} else if (strcmp(metric_name, "throughput") == 0) {
		exp->metric = WL_METRIC_THROUGHPUT;
	} else {
		wl_error_set(err, WL_ERR_CONFIG, "%s: metric must be bandwidth or throughput", where);
		free(metric_name);
		return -1;
	}
	free(metric_name);
	exp->needs_fp64 = json_is_true(json_object_get(obj, "fp64"));
	return 0;
}

/* "params": each read, names unique, multiple_of names resolved. */
static int load_params(struct wl_experiment *exp, const json_t *params, const char *where,
		       struct wl_error *err)
{
	char sub[320];

	if (!json_is_array(params)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: 'params' must be an array", where);
		return -1;
	}
	exp->params = calloc(json_array_size(params) + 1, sizeof(*exp->params));
	if (!exp->params) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < json_array_size(params); i++) {
		snprintf(sub, sizeof(sub), "%s params[%zu]", where, i);
		exp->nparams = i + 1;
		if (load_param(exp, i, json_array_get(params, i), sub, err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(exp->params[j].name, exp->params[i].name) == 0) {
				wl_error_set(err, WL_ERR_CONFIG, "%s: duplicate param '%s'", where,
					     exp->params[i].name);
				return -1;
			}
	}
	for (size_t i = 0; i < exp->nparams; i++) {
		struct wl_param_def *p = &exp->params[i];

		if (!p->multiple_of_name)
			continue;
		p->multiple_of_param = wl_experiment_param(exp, p->multiple_of_name);
		if (p->multiple_of_param < 0 || p->multiple_of_param == (int)i) {
			wl_error_set(err, WL_ERR_CONFIG,
				     "%s param '%s': multiple_of '%s' must name another parameter",
				     where, p->name, p->multiple_of_name);
			return -1;
		}
	}
	return 0;
}

/* "variants": each read, ids unique, each with the costs its metric needs. */
static int load_variants(struct wl_experiment *exp, const json_t *variants, const char *where,
			 struct wl_error *err)
{
	char sub[320];

	if (!json_is_array(variants) || json_array_size(variants) == 0) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: 'variants' must be a non-empty array", where);
		return -1;
	}
	exp->variants = calloc(json_array_size(variants), sizeof(*exp->variants));
	if (!exp->variants) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < json_array_size(variants); i++) {
		const struct wl_variant_def *v = &exp->variants[i];

		snprintf(sub, sizeof(sub), "%s variants[%zu]", where, i);
		exp->nvariants = i + 1;
		if (load_variant(exp, &exp->variants[i], json_array_get(variants, i), sub, err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(exp->variants[j].id, v->id) == 0) {
				wl_error_set(err, WL_ERR_CONFIG, "%s: duplicate variant '%s'", where, v->id);
				return -1;
			}
	}
	return 0;
}

/* Every variant has the costs its metric needs: its own formulas, its
 * experiment's, or what its buffers say (exp_data.h). */
static int check_costs(const struct wl_experiment *exp, const char *where, struct wl_error *err)
{
	enum wl_cost_kind need = exp->metric == WL_METRIC_BANDWIDTH ? WL_COST_BYTES : WL_COST_OPS;

	for (size_t i = 0; i < exp->nvariants; i++) {
		const struct wl_variant_def *v = &exp->variants[i];

		if (!wl_variant_has_cost(exp, v, need) || !wl_variant_has_cost(exp, v, WL_COST_MEMORY)) {
			wl_error_set(err, WL_ERR_CONFIG, "%s variant '%s': needs cost '%s' and 'memory'",
				     where, v->id, wl_cost_name(need));
			return -1;
		}
	}
	return 0;
}

/* The experiment's buffers, scalars, defines and check (exp_data.h), read
 * against its params and variants; every name a variant's arguments give is
 * then one of its buffers or scalars. */
static int load_data(struct wl_experiment *exp, const json_t *obj, const char *where, int fields,
		     struct wl_error *err)
{
	const char **params = wl_experiment_param_names(exp);
	const char **variants = calloc(exp->nvariants + 1, sizeof(*variants));
	int rc = -1;

	if (!params || !variants) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (size_t v = 0; v < exp->nvariants; v++)
		variants[v] = exp->variants[v].id;
	if (wl_exp_data_load(obj, &(struct wl_exp_data_names){ params, (int)exp->nparams, variants, exp->nvariants },
			     where, fields, &exp->data, err) < 0)
		goto out;
	for (size_t v = 0; exp->data && v < exp->nvariants; v++) {
		const struct wl_launch_decl *h = &exp->variants[v].host;

		for (int i = 0; i < h->nargs; i++) {
			const char *name = h->args[i].buffer;
			char field[400];

			if (h->args[i].kind != WL_ARG_BUFFER || wl_exp_data_buffer(exp->data, name) ||
			    wl_exp_data_scalar(exp->data, name))
				continue;
			snprintf(field, sizeof(field), "%s.variants[%zu].host.args[%d]", where, v, i);
			if (fields)
				wl_error_field(err, WL_ERR_INVALID_FIELD, field,
					       "%s: '%s' is no buffer, scalar or expression of the parameters", field, name);
			else
				wl_error_set(err, WL_ERR_CONFIG, "%s: '%s' is no buffer, scalar or expression of the parameters",
					     field, name);
			goto out;
		}
	}
	rc = 0;
out:
	free(params);
	free(variants);
	return rc;
}

/* Defaults must pass the same validation a request does. */
static int check_defaults(const struct wl_experiment *exp, const char *where, struct wl_error *err)
{
	for (size_t i = 0; i < exp->nparams; i++) {
		struct wl_error inner;
		long long count;

		if (wl_param_spec_count(&exp->params[i], exp->params[i].default_spec, 1024, &count,
					&inner) < 0) {
			wl_error_set(err, WL_ERR_CONFIG, "%s: default of '%s': %s", where,
				     exp->params[i].name, inner.msg);
			return -1;
		}
	}
	return 0;
}

/* "reference": the variant the lesson starts from, one of its variants. */
static int load_reference(struct wl_experiment *exp, const json_t *obj, const char *where, struct wl_error *err)
{
	char *id = NULL;
	size_t at = 0;
	int rc = 0;

	exp->reference = -1;
	if (wl_json_get_string(obj, "reference", 0, &id, where, err) < 0)
		return -1;
	if (id && !wl_experiment_variant(exp, id, &at)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: reference '%s' is not one of its variants", where, id);
		rc = -1;
	} else if (id) {
		exp->reference = (int)at;
	}
	free(id);
	return rc;
}

/* A request's own experiment's header: its id and title, its source as
 * text, a metric (bandwidth unless it says), and no lesson, article or seed
 * of the catalog's. */
static int load_own_header(struct wl_experiment *exp, const json_t *obj, const char *where,
			   struct wl_error *err)
{
	static const char *const keys[] = { "id", "title", "summary", "source", "metric", "params", "variants",
					    "cost", "host", "reference", "buffers", "scalars", "defines", "check",
					    NULL };
	const json_t *metric = json_object_get(obj, "metric");

	if (wl_json_check_keys(obj, keys, where, NULL, err) < 0 ||
	    wl_json_get_string(obj, "title", 1, &exp->title, where, err) < 0 ||
	    wl_json_get_string(obj, "summary", 0, &exp->summary, where, err) < 0 ||
	    wl_json_get_string(obj, "source", 1, &exp->source, where, err) < 0)
		return -1;
	if (metric && !(json_is_string(metric) && (strcmp(json_string_value(metric), "bandwidth") == 0 ||
						   strcmp(json_string_value(metric), "throughput") == 0))) {
		wl_error_set(err, WL_ERR_CONFIG, "%s.metric: must be \"bandwidth\" or \"throughput\"", where);
		return -1;
	}
	exp->metric = metric && strcmp(json_string_value(metric), "throughput") == 0 ? WL_METRIC_THROUGHPUT :
		WL_METRIC_BANDWIDTH;
	/* Its kernels are in the request's language, whichever it is. */
	exp->cuda_source = strdup(exp->source);
	exp->lesson = strdup("");
	exp->seed = strdup("own");
	if (!exp->summary)
		exp->summary = strdup(exp->title);
	if (!exp->cuda_source || !exp->lesson || !exp->seed || !exp->summary) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	exp->own = 1;
	return 0;
}

/* The field a message names where it quotes ids: a launch's ("experiment
 * 'saxpy' variant 'vec4' host.global: ..." names
 * experiment.variants[1].host.global) and a cost's ("experiment: cost
 * 'bytes': ..." names experiment.cost.bytes). 0 with field set, or -1. */
static int own_field_quoted(const struct wl_experiment *exp, const char *msg, char *field, size_t size)
{
	static const char lower[] = "abcdefghijklmnopqrstuvwxyz_";
	char prefix[320];
	size_t n;

	if (strncmp(msg, "experiment: cost '", 18) == 0) {
		n = strcspn(msg + 18, "'");
		if (n == 0 || n > 32 || strspn(msg + 18, lower) < n)
			return -1;
		snprintf(field, size, "experiment.cost.%.*s", (int)n, msg + 18);
		return 0;
	}
	for (size_t v = 0; exp->id && v < exp->nvariants; v++) {
		const char *rest;
		int len;

		len = exp->variants[v].id ? snprintf(prefix, sizeof(prefix), "experiment '%s' variant '%s' ", exp->id,
						     exp->variants[v].id)
					  : -1;
		if (len < 0 || (size_t)len >= sizeof(prefix) || strncmp(msg, prefix, (size_t)len) != 0)
			continue;
		rest = msg + len;
		n = strcspn(rest, ":");
		if (!rest[n] || n == 0 || n > 64 || strspn(rest, "abcdefghijklmnopqrstuvwxyz_[]0123456789.") < n)
			return -1;
		snprintf(field, size, "experiment.variants[%zu].%.*s", v, (int)n, rest);
		return 0;
	}
	return -1;
}

/* A failure of an own experiment (exp as far as it was read) as the API
 * says it: an invalid field, naming the key's path where the message
 * begins with one ("experiment params[0]: ..." names experiment.params[0])
 * or quotes one (own_field_quoted). */
static void own_field(const struct wl_experiment *exp, struct wl_error *err)
{
	char field[sizeof(err->field)];
	size_t n = strcspn(err->msg, ":");

	if (err->kind == WL_ERR_INVALID_FIELD || err->kind == WL_ERR_INTERNAL)
		return;
	snprintf(field, sizeof(field), "experiment");
	if (own_field_quoted(exp, err->msg, field, sizeof(field)) < 0 && n < sizeof(field) &&
	    strncmp(err->msg, "experiment", 10) == 0 &&
	    strspn(err->msg, "abcdefghijklmnopqrstuvwxyz_[]0123456789. ") >= n) {
		memcpy(field, err->msg, n);
		field[n] = '\0';
		for (char *c = field; *c; c++)
			if (*c == ' ')
				*c = '.';
	}
	err->kind = WL_ERR_INVALID_FIELD;
	snprintf(err->field, sizeof(err->field), "%s", field);
}

static int load_experiment(struct wl_experiment *exp, const json_t *obj, size_t index, int own,
			   struct wl_error *err)
{
	struct wl_model_shape shape;
	char where[256];

	snprintf(where, sizeof(where), own ? "experiment" : "experiments[%zu]", index);
	if (!json_is_object(obj)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: must be an object", where);
		return -1;
	}
	if (wl_json_get_string(obj, "id", 1, &exp->id, where, err) < 0)
		return -1;
	if (!own)
		snprintf(where, sizeof(where), "experiment '%s'", exp->id);
	if ((own ? load_own_header(exp, obj, where, err) : load_header(exp, obj, where, err)) < 0 ||
	    load_params(exp, json_object_get(obj, "params"), where, err) < 0)
		return -1;
	if (json_object_get(obj, "cost") &&
	    wl_costs_load(exp, json_object_get(obj, "cost"), exp->has_cost, exp->cost, where, err) < 0)
		return -1;
	exp->model = json_incref(json_object_get(obj, "model"));
	exp->host = json_incref(json_object_get(obj, "host"));
	if (wl_model_shape_load(exp->model, &shape, where, err) < 0 ||
	    load_baseline(exp, json_object_get(obj, "baseline"), where, err) < 0 ||
	    load_drops(exp, json_object_get(obj, "drops"), where, err) < 0 ||
	    load_variants(exp, json_object_get(obj, "variants"), where, err) < 0 ||
	    load_reference(exp, obj, where, err) < 0 || load_data(exp, obj, where, own, err) < 0 ||
	    check_costs(exp, where, err) < 0)
		return -1;
	/* An own experiment is measured against the variant it is checked
	 * against, unless it names another. */
	if (own && exp->reference < 0 && exp->data && exp->data->check.kind == WL_CHECK_AGAINST)
		exp->reference = exp->data->check.against;
	return check_defaults(exp, where, err);
}

int wl_experiment_load_own(const json_t *obj, struct wl_experiment *out, struct wl_error *err)
{
	memset(out, 0, sizeof(*out));
	if (load_experiment(out, obj, 0, 1, err) == 0 && out->data)
		return 0;
	if (!out->data && err->kind == WL_ERR_NONE)
		wl_error_field(err, WL_ERR_INVALID_FIELD, "experiment.buffers",
			       "experiment.buffers: is required: the buffers its kernels take");
	own_field(out, err);
	wl_experiment_clear(out);
	memset(out, 0, sizeof(*out));
	return -1;
}

int wl_catalog_experiments_load(const json_t *list, struct wl_experiment **out, size_t *count,
				struct wl_error *err)
{
	struct wl_experiment *exps = NULL;
	size_t n = 0;
	int rc = -1;

	if (!json_is_array(list) || json_array_size(list) == 0) {
		wl_error_set(err, WL_ERR_CONFIG, "'experiments' must be a non-empty array");
		return -1;
	}
	exps = calloc(json_array_size(list), sizeof(*exps));
	if (!exps) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < json_array_size(list); i++) {
		/* Counted before it is read, so that what it holds is freed. */
		n = i + 1;
		if (load_experiment(&exps[i], json_array_get(list, i), i, 0, err) < 0)
			goto out;
		for (size_t j = 0; j < i; j++)
			if (strcmp(exps[j].id, exps[i].id) == 0) {
				wl_error_set(err, WL_ERR_CONFIG, "duplicate experiment '%s'", exps[i].id);
				goto out;
			}
	}
	*out = exps;
	*count = n;
	exps = NULL;
	rc = 0;
out:
	for (size_t i = 0; exps && i < n; i++)
		wl_experiment_clear(&exps[i]);
	free(exps);
	return rc;
}
