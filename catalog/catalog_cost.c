/* What a variant costs (see catalog_cost.h): the catalog's "cost" formulas,
 * parsed over the experiment's params and evaluated at a point, a variant's
 * own formula before its experiment's. Of the catalog's own files it calls
 * catalog_experiment.c alone, so the catalog's loading can call it without
 * being called back. */
#include "catalog_cost.h"

#include "exp_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wl_cost_keys[WL_COST_KINDS] = {
	[WL_COST_BYTES] = "bytes",	 [WL_COST_OPS] = "ops",
	[WL_COST_MEMORY] = "memory",	 [WL_COST_BUFFER] = "buffer",
	[WL_COST_LOCAL] = "local",	 [WL_COST_WORK_GROUP] = "work_group",
};

const char *wl_cost_name(enum wl_cost_kind kind)
{
	return wl_cost_keys[kind];
}

int wl_cost_parse(const struct wl_experiment *exp, const char *text, struct wl_cost *out,
		  struct wl_error *err)
{
	const char **names = wl_experiment_param_names(exp);
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

/* What an experiment's buffers say of a cost kind (exp_data.h), or -1 where
 * they say nothing of it. Only a request's own experiment is costed by its
 * buffers: the catalog states every cost it means (a min-plus product's
 * rate is in operations, and its buffers must not give it one in bytes). */
static int data_kind(enum wl_cost_kind kind)
{
	return kind == WL_COST_BYTES ? WL_DATA_BYTES : kind == WL_COST_MEMORY ? WL_DATA_MEMORY :
	       kind == WL_COST_BUFFER ? WL_DATA_LARGEST : -1;
}

int wl_variant_has_cost(const struct wl_experiment *exp, const struct wl_variant_def *v,
			enum wl_cost_kind kind)
{
	return v->has_cost[kind] || exp->has_cost[kind] || (exp->own && exp->data && data_kind(kind) >= 0);
}

double wl_variant_cost(const struct wl_experiment *exp, const struct wl_variant_def *v,
		       enum wl_cost_kind kind, const long long *values)
{
	if (v->has_cost[kind])
		return cost_eval(&v->cost[kind], values);
	if (exp->has_cost[kind])
		return cost_eval(&exp->cost[kind], values);
	if (exp->own && exp->data && data_kind(kind) >= 0)
		return wl_exp_data_cost(exp->data, (enum wl_data_cost)data_kind(kind), values);
	return 0;
}

int wl_costs_load(const struct wl_experiment *exp, const json_t *obj, int *has,
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
			if (strcmp(wl_cost_keys[kind], key) == 0)
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
