/* Predictions for a run's results. The time a variant should take is the bytes
 * its sectors move at the device's copy ceiling: for a bandwidth experiment
 * the catalog's useful bytes over the predicted efficiency, for a throughput
 * one the simulated group's bytes times the launch's groups. An experiment
 * with a baseline (banks) is compared on slowdown instead: the measured
 * slowdown against the predicted conflict degree over the baseline's. */
#include "predictions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "custom_kernels.h"
#include "derived.h"
#include "warp_model.h"

/* Loop steps and warp requests one derivation of a run may simulate in all:
 * about a second of a core at worst. The catalog's runs use far less (a
 * 256-result banks run well under a million); a custom kernel's loops are a
 * client's input and could ask for any amount. */
#define WL_PREDICTION_BUDGET (40LL * 1000 * 1000)

/* The models of a run's custom kernels that declare accesses. */
struct custom_models {
	size_t n;
	const char *name[WL_CUSTOM_MAX];
	const struct wl_variant_def *like[WL_CUSTOM_MAX];
	struct wl_model *model[WL_CUSTOM_MAX];
	char error[WL_CUSTOM_MAX][256];
};

static void customs_load(const struct wl_experiment *exp, const json_t *run, struct custom_models *c)
{
	json_t *k;
	size_t i;

	memset(c, 0, sizeof(*c));
	json_array_foreach(json_object_get(json_object_get(run, "request"), "kernels"), i, k) {
		json_t *accesses = json_object_get(k, "accesses"), *obj;
		struct wl_error err = { 0 };

		if (c->n == WL_CUSTOM_MAX || !json_is_string(json_object_get(k, "name")))
			break;
		c->name[c->n] = json_string_value(json_object_get(k, "name"));
		c->like[c->n] = wl_custom_kernel_like(exp, k);
		if (accesses) {
			obj = json_pack("{s:O}", "accesses", accesses);
			if (!obj || wl_experiment_model(exp, c->like[c->n], obj, "accesses",
							&c->model[c->n], &err) < 0)
				snprintf(c->error[c->n], sizeof(c->error[0]), "%.255s",
					 obj ? err.msg : "out of memory");
			json_decref(obj);
		}
		c->n++;
	}
}

static void customs_free(struct custom_models *c)
{
	for (size_t i = 0; i < c->n; i++)
		wl_model_free(c->model[i]);
}

static json_t *real_or_null(int known, double v)
{
	return known ? json_real(v) : json_null();
}

static json_t *accesses_json(const struct wl_model *m, const struct wl_prediction *p)
{
	json_t *list = json_array();

	for (int i = 0; list && i < p->naccesses; i++) {
		const struct wl_access *a = &m->accesses[i];
		const struct wl_access_figures *f = &p->access[i];
		int global = a->space == WL_SPACE_GLOBAL, made = f->requests > 0;
		json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:f, s:o, s:o, s:o, s:o}", "array", a->array,
				      "space", global ? "global" : "local", "op", a->store ? "store" : "load",
				      "bytes", a->bytes, "requests", f->requests,
				      "sectors_per_request", real_or_null(global && made, f->sectors_per_request),
				      "lines_per_request", real_or_null(global && made, f->lines_per_request),
				      "efficiency", real_or_null(global && made, f->efficiency),
				      "conflict_degree", real_or_null(!global && made, f->conflict_degree));

		if (!o || json_array_append_new(list, o) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* The sentence a departure gets: the factor, the direction, the catalog's cause. */
static json_t *departure(const struct wl_model *m, double ratio)
{
	const char *cause = ratio > 1 ? m->faster : m->slower;
	char text[768];

	if (ratio <= WL_DEPARTURE_FACTOR && ratio >= 1 / WL_DEPARTURE_FACTOR)
		return json_null();
	snprintf(text, sizeof(text), "Measured %.1f× %s than predicted; %s%s.",
		 ratio > 1 ? ratio : 1 / ratio, ratio > 1 ? "faster" : "slower",
		 cause ? "likely cause: " : "the catalog names no cause",
		 cause ? cause : "");
	return json_string(text);
}

/* The conflict degree at the baseline point for variant name at values (the
 * baseline param already set), from memo or the model; 0 when unknown. The
 * points of a sweep over the baseline param share it, so it is simulated once. */
static double baseline_degree(const struct wl_experiment *exp, const char *name,
			      const struct wl_model *m, const long long *values, int lanes, json_t *memo,
			      long long *budget)
{
	char key[512];
	int used = snprintf(key, sizeof(key), "%s", name);
	struct wl_prediction base;
	struct wl_error err;

	for (size_t i = 0; i < exp->nparams && used > 0 && (size_t)used < sizeof(key); i++)
		used += snprintf(key + used, sizeof(key) - (size_t)used, "|%lld", values[i]);
	if (json_object_get(memo, key))
		return json_real_value(json_object_get(memo, key));
	if (wl_model_predict(m, values, (int)exp->nparams, lanes, budget, &base, &err) < 0)
		base.conflict_degree = 0;
	json_object_set_new(memo, key, json_real(base.conflict_degree));
	return base.conflict_degree;
}

/* The prediction of one result. Its work (bytes or operations) is the one the
 * runner counted for it, so a custom kernel's is its like variant's. */
static json_t *predict_result(const struct wl_experiment *exp, const struct wl_model *m,
			      const json_t *r, int lanes, double ceiling, json_t *memo,
			      long long *budget)
{
	long long *values = calloc(2 * exp->nparams + 1, sizeof(*values));
	double median = json_real_value(json_object_get(r, "median_ms"));
	double ms = 0, rate = 0, slowdown = 0, ratio = 0;
	struct wl_prediction p;
	struct wl_error err = { 0 };
	int bandwidth = exp->metric == WL_METRIC_BANDWIDTH, timed = 0, by_slowdown = 0;
	json_t *o = NULL;

	if (!values)
		return NULL;
	if (wl_result_values(exp, r, values) < 0) {
		o = json_pack("{s:s}", "error", "the result lacks a parameter of its experiment");
		goto out;
	}
	if (wl_model_predict(m, values, (int)exp->nparams, lanes, budget, &p, &err) < 0) {
		o = json_pack("{s:s}", "error", err.msg);
		goto out;
	}
	if (exp->baseline_param >= 0 && p.has_local) {
		long long *at_base = values + exp->nparams;
		double base;

		memcpy(at_base, values, exp->nparams * sizeof(*values));
		at_base[exp->baseline_param] = exp->baseline_value;
		base = baseline_degree(exp, json_string_value(json_object_get(r, "variant")), m, at_base,
				       lanes, memo, budget);
		if (base > 0) {
			slowdown = p.conflict_degree / base;
			by_slowdown = json_real_value(json_object_get(r, "slowdown")) > 0;
			if (by_slowdown)
				ratio = slowdown / json_real_value(json_object_get(r, "slowdown"));
		}
	}
	if (p.has_global && p.efficiency > 0 && ceiling > 0) {
		double work = json_number_value(json_object_get(r, bandwidth ? "bytes" : "ops"));
		double moved = bandwidth ? work / p.efficiency : p.groups * p.moved_bytes;

		timed = moved > 0;
		ms = moved / (ceiling * 1e6);
		rate = timed ? work / (ms * 1e6) : 0;
		if (timed && !by_slowdown && median > 0)
			ratio = ms / median;
	}
	o = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "lanes", p.lanes,
		      "efficiency", real_or_null(p.has_global, p.efficiency),
		      "sectors_per_request", real_or_null(p.has_global, p.sectors_per_request),
		      "conflict_degree", real_or_null(p.has_local, p.conflict_degree),
		      "pct", real_or_null(p.has_global && bandwidth, 100 * p.efficiency),
		      "ms", real_or_null(timed, ms),
		      bandwidth ? "gbps" : "gops", real_or_null(timed, rate),
		      "slowdown", real_or_null(slowdown > 0, slowdown),
		      "ratio", real_or_null(ratio > 0, ratio), "sampled", p.sampled,
		      "accesses", accesses_json(m, &p));
	if (o)
		json_object_set_new(o, "departure", ratio > 0 ? departure(m, ratio) : json_null());
out:
	free(values);
	return o;
}

int wl_run_add_predictions(const struct wl_experiment *exp, json_t *run)
{
	json_t *warp = json_object_get(json_object_get(run, "device"), "warp_width"), *r;
	double ceiling = json_real_value(json_object_get(json_object_get(run, "ceiling"), "gbps"));
	int lanes = json_is_integer(warp) && json_integer_value(warp) > 0 ?
		(int)json_integer_value(warp) : 32;
	struct custom_models customs;
	long long budget = WL_PREDICTION_BUDGET;
	json_t *memo;
	size_t i;
	int rc = 0;

	if (!exp)
		return 0;
	memo = json_object();
	if (!memo)
		return -1;
	customs_load(exp, run, &customs);
	json_array_foreach(json_object_get(run, "results"), i, r) {
		const char *name = json_string_value(json_object_get(r, "variant"));
		const struct wl_variant_def *def = name ? wl_experiment_variant(exp, name, NULL) : NULL;
		const struct wl_model *m = def ? def->model : NULL;
		const char *error = NULL;
		json_t *p;

		for (size_t c = 0; !def && name && c < customs.n; c++)
			if (strcmp(customs.name[c], name) == 0) {
				def = customs.like[c];
				m = customs.model[c];
				error = customs.error[c][0] ? customs.error[c] : NULL;
			}
		if (error)
			p = json_pack("{s:s}", "error", error);
		else if (!m || !def)
			p = json_null();
		else
			p = predict_result(exp, m, r, lanes, ceiling, memo, &budget);
		if (!p || json_object_set_new(r, "prediction", p) < 0) {
			rc = -1;
			break;
		}
	}
	customs_free(&customs);
	json_decref(memo);
	return rc;
}
