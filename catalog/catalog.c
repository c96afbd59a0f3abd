/* Loading kernels/catalog.json into struct wl_catalog, strictly: unknown keys,
 * wrong types, formulas naming unknown params and invalid defaults are all
 * errors naming the entry, so a typo in the catalog stops both binaries at
 * start instead of surfacing as a strange run. */
#include "catalog.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "json_strict.h"

static const char *const cost_keys[WL_COST_KINDS] = {
	[WL_COST_BYTES] = "bytes",	 [WL_COST_OPS] = "ops",
	[WL_COST_MEMORY] = "memory",	 [WL_COST_BUFFER] = "buffer",
	[WL_COST_LOCAL] = "local",	 [WL_COST_WORK_GROUP] = "work_group",
};

const char *wl_metric_name(enum wl_metric m)
{
	return m == WL_METRIC_THROUGHPUT ? "throughput" : "bandwidth";
}

/* Copy obj[key] (a string) into *out; absent is an error only when required. */
static int get_string(const json_t *obj, const char *key, int required, char **out,
		      const char *where, struct wl_error *err)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v) {
		if (!required)
			return 0;
		wl_error_set(err, WL_ERR_CONFIG, "%s: '%s' is missing", where, key);
		return -1;
	}
	if (!json_is_string(v)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: '%s' must be a string", where, key);
		return -1;
	}
	*out = strdup(json_string_value(v));
	if (!*out) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return 0;
}

static int get_int(const json_t *obj, const char *key, int required, long long *out,
		   const char *where, struct wl_error *err)
{
	json_t *v = json_object_get(obj, key);

	if (!v) {
		if (!required)
			return 0;
		wl_error_set(err, WL_ERR_CONFIG, "%s: '%s' is missing", where, key);
		return -1;
	}
	if (!json_is_integer(v)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: '%s' must be an integer", where, key);
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
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

/* The experiment's param names, in order, as an expression's name table. */
static const char **param_names(const struct wl_experiment *exp)
{
	const char **names = calloc(exp->nparams + 1, sizeof(*names));

	for (size_t i = 0; names && i < exp->nparams; i++)
		names[i] = exp->params[i].name;
	return names;
}

int wl_cost_parse(const struct wl_experiment *exp, const char *text, struct wl_cost *out,
		  struct wl_error *err)
{
	const char **names = param_names(exp);
	int rc;

	if (!names) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	rc = wl_expr_parse(text, names, (int)exp->nparams, WL_EXPR_COST, &out->expr, err);
	free(names);
	return rc;
}

static double cost_eval(const struct wl_cost *c, const long long *values)
{
	return wl_expr_eval_double(&c->expr, values);
}

int wl_variant_has_cost(const struct wl_experiment *exp, const struct wl_variant_def *v,
			enum wl_cost_kind kind)
{
	return v->has_cost[kind] || exp->has_cost[kind];
}

double wl_variant_cost(const struct wl_experiment *exp, const struct wl_variant_def *v,
		       enum wl_cost_kind kind, const long long *values)
{
	if (v->has_cost[kind])
		return cost_eval(&v->cost[kind], values);
	if (exp->has_cost[kind])
		return cost_eval(&exp->cost[kind], values);
	return 0;
}

/* Read a "cost" object ({"bytes": "8*n", ...}) into has/cost arrays. */
static int load_costs(const struct wl_experiment *exp, const json_t *obj, int *has,
		      struct wl_cost *cost, const char *where, struct wl_error *err)
{
	const char *key;
	json_t *value;

	if (!json_is_object(obj)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: 'cost' must be an object", where);
		return -1;
	}
	json_object_foreach((json_t *)obj, key, value) {
		int kind;

		for (kind = 0; kind < WL_COST_KINDS; kind++)
			if (strcmp(cost_keys[kind], key) == 0)
				break;
		if (kind == WL_COST_KINDS) {
			wl_error_set(err, WL_ERR_CONFIG, "%s: unknown cost '%s'", where, key);
			return -1;
		}
		if (!json_is_string(value)) {
			wl_error_set(err, WL_ERR_CONFIG, "%s: cost '%s' must be a formula string",
				     where, key);
			return -1;
		}
		if (wl_cost_parse(exp, json_string_value(value), &cost[kind], err) < 0) {
			char inner[sizeof(err->msg)];

			snprintf(inner, sizeof(inner), "%s", err->msg);
			wl_error_set(err, WL_ERR_CONFIG, "%s: cost '%s': %s", where, key, inner);
			return -1;
		}
		has[kind] = 1;
	}
	return 0;
}

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
	    get_string(obj, "name", 1, &p->name, where, err) < 0 ||
	    get_string(obj, "title", 0, &p->title, where, err) < 0 ||
	    get_int(obj, "min", 1, &p->min, where, err) < 0 ||
	    get_int(obj, "max", 1, &p->max, where, err) < 0)
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
	names = param_names(exp);
	if (!names) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	rc = wl_model_load(obj, &shape, names, (int)exp->nparams, where, out, err);
	free(names);
	return rc;
}

static int load_variant(const struct wl_experiment *exp, struct wl_variant_def *v,
			const json_t *obj, const char *where, struct wl_error *err)
{
	static const char *const keys[] = { "id", "title", "note", "kernel", "cost", "launch", "model",
					    NULL };
	json_t *cost, *model;

	if (!json_is_object(obj)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: must be an object", where);
		return -1;
	}
	if (wl_json_check_keys(obj, keys, where, NULL, err) < 0 ||
	    get_string(obj, "id", 1, &v->id, where, err) < 0 ||
	    get_string(obj, "title", 0, &v->title, where, err) < 0 ||
	    get_string(obj, "note", 0, &v->note, where, err) < 0 ||
	    get_string(obj, "launch", 0, &v->launch, where, err) < 0 ||
	    get_string(obj, "kernel", 1, &v->kernel, where, err) < 0)
		return -1;
	cost = json_object_get(obj, "cost");
	if (cost && load_costs(exp, cost, v->has_cost, v->cost, where, err) < 0)
		return -1;
	model = json_object_get(obj, "model");
	if (model) {
		char sub[400];

		snprintf(sub, sizeof(sub), "experiment '%s' variant '%s' model", exp->id, v->id);
		if (wl_experiment_model(exp, NULL, model, sub, &v->model, err) < 0)
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
	    get_string(obj, "param", 1, &param, where, err) < 0 ||
	    get_int(obj, "value", 1, &exp->baseline_value, where, err) < 0)
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
	    get_string(obj, "param", 1, &param, where, err) < 0)
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

static int load_experiment(struct wl_experiment *exp, const json_t *obj, size_t index,
			   struct wl_error *err)
{
	static const char *const keys[] = { "id", "title", "lesson", "summary", "seed", "source", "metric",
					    "fp64", "params", "variants", "cost", "baseline", "drops",
					    "launch", "model", NULL };
	char where[256], sub[320];
	json_t *params, *variants;
	char *metric_name = NULL;

	snprintf(where, sizeof(where), "experiments[%zu]", index);
	if (!json_is_object(obj)) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: must be an object", where);
		return -1;
	}
	if (get_string(obj, "id", 1, &exp->id, where, err) < 0)
		return -1;
	snprintf(where, sizeof(where), "experiment '%s'", exp->id);
	if (wl_json_check_keys(obj, keys, where, NULL, err) < 0 ||
	    get_string(obj, "title", 1, &exp->title, where, err) < 0 ||
	    get_string(obj, "lesson", 1, &exp->lesson, where, err) < 0 ||
	    get_string(obj, "summary", 1, &exp->summary, where, err) < 0 ||
	    get_string(obj, "seed", 1, &exp->seed, where, err) < 0 ||
	    get_string(obj, "source", 1, &exp->source, where, err) < 0 ||
	    get_string(obj, "launch", 0, &exp->launch, where, err) < 0 ||
	    get_string(obj, "metric", 1, &metric_name, where, err) < 0)
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

	params = json_object_get(obj, "params");
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

	if (json_object_get(obj, "cost") &&
	    load_costs(exp, json_object_get(obj, "cost"), exp->has_cost, exp->cost, where, err) < 0)
		return -1;
	exp->model = json_incref(json_object_get(obj, "model"));
	{
		struct wl_model_shape shape;

		if (wl_model_shape_load(exp->model, &shape, where, err) < 0)
			return -1;
	}
	if (load_baseline(exp, json_object_get(obj, "baseline"), where, err) < 0 ||
	    load_drops(exp, json_object_get(obj, "drops"), where, err) < 0)
		return -1;

	variants = json_object_get(obj, "variants");
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
		snprintf(sub, sizeof(sub), "%s variants[%zu]", where, i);
		exp->nvariants = i + 1;
		if (load_variant(exp, &exp->variants[i], json_array_get(variants, i), sub, err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(exp->variants[j].id, exp->variants[i].id) == 0) {
				wl_error_set(err, WL_ERR_CONFIG, "%s: duplicate variant '%s'", where,
					     exp->variants[i].id);
				return -1;
			}
	}
	for (size_t i = 0; i < exp->nvariants; i++) {
		const struct wl_variant_def *v = &exp->variants[i];
		enum wl_cost_kind need = exp->metric == WL_METRIC_BANDWIDTH ? WL_COST_BYTES : WL_COST_OPS;

		if (!wl_variant_has_cost(exp, v, need) || !wl_variant_has_cost(exp, v, WL_COST_MEMORY)) {
			wl_error_set(err, WL_ERR_CONFIG, "%s variant '%s': needs cost '%s' and 'memory'",
				     where, v->id, cost_keys[need]);
			return -1;
		}
	}

	/* Defaults must pass the same validation a request does. */
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
	}
	json_decref(exp->model);
	free(exp->params);
	free(exp->variants);
	free(exp->id);
	free(exp->title);
	free(exp->lesson);
	free(exp->summary);
	free(exp->seed);
	free(exp->source);
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
	free(cat);
}

static int catalog_from_json(const json_t *root, struct wl_catalog *cat, struct wl_error *err)
{
	static const char *const keys[] = { "limits", "experiments", NULL };
	static const char *const limit_keys[] = { "max_measurements", "max_list", NULL };
	json_t *exps, *limits;

	if (!json_is_object(root)) {
		wl_error_set(err, WL_ERR_CONFIG, "top level must be an object");
		return -1;
	}
	if (wl_json_check_keys(root, keys, "top level", NULL, err) < 0)
		return -1;
	cat->max_measurements = 1024;
	cat->max_list = 1024;
	limits = json_object_get(root, "limits");
	if (limits) {
		if (!json_is_object(limits) || wl_json_check_keys(limits, limit_keys, "limits", NULL, err) < 0 ||
		    get_int(limits, "max_measurements", 0, &cat->max_measurements, "limits", err) < 0 ||
		    get_int(limits, "max_list", 0, &cat->max_list, "limits", err) < 0) {
			if (err && err->kind == WL_ERR_NONE)
				wl_error_set(err, WL_ERR_CONFIG, "limits: must be an object");
			return -1;
		}
	}
	exps = json_object_get(root, "experiments");
	if (!json_is_array(exps) || json_array_size(exps) == 0) {
		wl_error_set(err, WL_ERR_CONFIG, "'experiments' must be a non-empty array");
		return -1;
	}
	cat->experiments = calloc(json_array_size(exps), sizeof(*cat->experiments));
	if (!cat->experiments) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < json_array_size(exps); i++) {
		cat->nexperiments = i + 1;
		if (load_experiment(&cat->experiments[i], json_array_get(exps, i), i, err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(cat->experiments[j].id, cat->experiments[i].id) == 0) {
				wl_error_set(err, WL_ERR_CONFIG, "duplicate experiment '%s'",
					     cat->experiments[i].id);
				return -1;
			}
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
	if (catalog_from_json(root, cat, err) < 0) {
		char inner[sizeof(err->msg)];

		snprintf(inner, sizeof(inner), "%s", err->msg);
		wl_error_set(err, WL_ERR_CONFIG, "%s: %s", path, inner);
		goto out;
	}
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

static json_t *param_to_json(const struct wl_experiment *exp, const struct wl_param_def *p)
{
	json_t *o = json_pack("{s:s, s:I, s:I, s:O}", "type", "int", "min", (json_int_t)p->min,
			      "max", (json_int_t)p->max, "default", p->default_spec);

	if (!o)
		return NULL;
	if (p->title)
		json_object_set_new(o, "title", json_string(p->title));
	if (p->pow2)
		json_object_set_new(o, "pow2", json_true());
	if (p->multiple_of)
		json_object_set_new(o, "multiple_of", json_integer(p->multiple_of));
	else if (p->multiple_of_param >= 0)
		json_object_set_new(o, "multiple_of",
				    json_string(exp->params[p->multiple_of_param].name));
	return o;
}

json_t *wl_catalog_to_json(const struct wl_catalog *cat)
{
	json_t *list = json_array();

	if (!list)
		return NULL;
	for (size_t i = 0; i < cat->nexperiments; i++) {
		const struct wl_experiment *e = &cat->experiments[i];
		json_t *variants = json_array(), *params = json_object(), *o;

		for (size_t v = 0; v < e->nvariants; v++) {
			const struct wl_variant_def *d = &e->variants[v];
			const char *launch = d->launch ? d->launch : e->launch;

			json_array_append_new(
				variants, json_pack("{s:s, s:s, s:s, s:s, s:s, s:O?}", "id", d->id, "title",
						    d->title ? d->title : d->id, "note",
						    d->note ? d->note : "", "kernel", d->kernel,
						    "launch", launch ? launch : "", "model",
						    d->model ? d->model->shown : NULL));
		}
		for (size_t p = 0; p < e->nparams; p++)
			json_object_set_new(params, e->params[p].name, param_to_json(e, &e->params[p]));
		o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s, s:b}", "id", e->id, "title",
			      e->title, "lesson", e->lesson, "summary", e->summary, "seed", e->seed,
			      "variants", variants,
			      "params", params, "metric", wl_metric_name(e->metric), "fp64",
			      e->needs_fp64);
		if (o && e->drops_param >= 0)
			json_object_set_new(o, "drops",
					    json_pack("{s:s, s:f}", "param",
						      e->params[e->drops_param].name, "threshold",
						      e->drops_threshold));
		if (o && e->baseline_param >= 0)
			json_object_set_new(o, "baseline",
					    json_pack("{s:s, s:I}", "param",
						      e->params[e->baseline_param].name, "value",
						      (json_int_t)e->baseline_value));
		if (!o || json_array_append_new(list, o) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return json_pack("{s:o, s:{s:I}}", "experiments", list, "limits", "max_measurements",
			 (json_int_t)cat->max_measurements);
}
