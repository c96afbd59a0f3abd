/* Predictions for a run's results. Where the runner measured the device's
 * facts, the time a variant should take comes from the model's ceilings
 * (ceilings.h) over what one work-group asks, at the occupancy its build
 * allows; elsewhere it is the bytes its sectors move at the device's copy
 * ceiling (for a bandwidth experiment the catalog's useful bytes over the
 * predicted efficiency, for a throughput one the simulated group's bytes
 * times the launch's groups). An experiment with a baseline (banks) is
 * compared on slowdown instead: the predicted time over the baseline's
 * measured one (without facts, the conflict degree over the baseline's). */
#include "predictions.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "custom_kernels.h"
#include "points.h"
#include "predict.h"
#include "prediction_memo.h"
#include "request.h"
#include "warp_model.h"
#include "work_json.h"

/* How long a read waits for predictions the memo has not computed yet. */
#define WAIT_MS 50

/* What a point's prediction is made with beyond the warp model's counts. */
struct point_context {
	const struct wl_experiment *exp;
	double ceiling;			/* the copy ceiling, GB/s */
	const struct wl_device_model *dm;	/* NULL: no measured facts, the copy ceiling alone */
	double footprint;		/* the point's buffers, bytes (0: unknown) */
	int hot;			/* the run is timed hot */
	const json_t *run;		/* the run, for the catalog causes' conditions */
};

/* A result and its run, for what a catalog cause's conditions ask of the
 * run's other results. */
struct run_result {
	const struct wl_experiment *exp;
	const json_t *run, *r;
};

/* The median of variant at the experiment's baseline point with r's other
 * params, or 0. */
static double median_at_baseline(const struct run_result *x, const char *variant)
{
	const char *param = x->exp->baseline_param >= 0 ? x->exp->params[x->exp->baseline_param].name : NULL;
	const json_t *params = json_object_get(x->r, "params"), *o;
	size_t i;

	json_array_foreach(json_object_get(x->run, "results"), i, o) {
		const json_t *op = json_object_get(o, "params"), *v;
		const char *key;
		int same = param && json_integer_value(json_object_get(op, param)) == x->exp->baseline_value &&
			   json_is_true(json_object_get(o, "verified"));

		if (!same || strcmp(json_string_value(json_object_get(o, "variant")) ?: "", variant) != 0)
			continue;
		json_object_foreach((json_t *)params, key, v)
			same &= strcmp(key, param) == 0 || json_equal(v, json_object_get(op, key));
		if (same)
			return json_number_value(json_object_get(o, "median_ms"));
	}
	return 0;
}

static double baseline_ratio(const void *arg, const char *other)
{
	const struct run_result *x = arg;
	double mine = median_at_baseline(x, json_string_value(json_object_get(x->r, "variant")) ?: "");
	double theirs = median_at_baseline(x, other);

	return mine > 0 && theirs > 0 ? mine / theirs : 0;
}

/* Whether the run's drops (derived.h) include one of r's variant. */
static int has_drops(const json_t *run, const json_t *r)
{
	const json_t *d;
	size_t i;

	json_array_foreach(json_object_get(run, "drops"), i, d)
		if (json_equal(json_object_get(d, "variant"), json_object_get(r, "variant")))
			return 1;
	return 0;
}

/* Ask the model for result r's prediction from counts p (and base's). */
static json_t *ask_model(const struct point_context *pc, const struct wl_model *m, const struct wl_model *causes,
			 const json_t *r, const struct wl_prediction *p, const struct wl_prediction *base)
{
	const struct run_result x = { pc->exp, pc->run, r };
	const struct wl_cause_facts facts = {
		.median_ms = json_number_value(json_object_get(r, "median_ms")), .footprint = pc->footprint,
		.drops = pc->run && has_drops(pc->run, r), .baseline_ratio = pc->run ? baseline_ratio : NULL, .arg = &x,
	};
	const struct wl_point_in in = {
		.exp = pc->exp, .copy_gbps = pc->ceiling, .device = pc->dm, .footprint = pc->footprint, .hot = pc->hot,
		.declared = m, .causes = causes, .p = p, .base = base,
		.work = json_number_value(json_object_get(r, pc->exp->metric == WL_METRIC_BANDWIDTH ? "bytes" : "ops")),
		.median_ms = json_real_value(json_object_get(r, "median_ms")),
		.measured_slowdown = json_real_value(json_object_get(r, "slowdown")),
		.facts = &facts,
	};

	return wl_predict_point(&in);
}

/* A run's custom kernels: name, like variant, declared accesses and their
 * model (parsed here for its descriptions; the memo predicts with its own). */
struct customs {
	size_t n;
	const char *name[WL_CUSTOM_MAX];
	const struct wl_variant_def *like[WL_CUSTOM_MAX];
	const json_t *accesses[WL_CUSTOM_MAX];
	struct wl_model *model[WL_CUSTOM_MAX];
	char error[WL_CUSTOM_MAX][256];
};

static void customs_load(const struct wl_experiment *exp, const json_t *run, struct customs *c)
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
		c->accesses[c->n] = accesses;
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

static void customs_free(struct customs *c)
{
	for (size_t i = 0; i < c->n; i++)
		wl_model_free(c->model[i]);
}

const json_t *wl_run_trace_of(const json_t *run, const json_t *r)
{
	const json_t *t, *first = NULL;
	size_t i;

	json_array_foreach(json_object_get(run, "traces"), i, t) {
		if (!json_equal(json_object_get(t, "variant"), json_object_get(r, "variant")))
			continue;
		if (json_equal(json_object_get(t, "params"), json_object_get(r, "params")))
			return t;
		if (!first)
			first = t;
	}
	return first;
}

/* Beside a declared prediction o: the trace of the same variant, when the
 * run has one, as {"traced_at", "efficiency", "sectors_per_request",
 * "conflict_degree", "accesses"}, and at the point it was traced, whether
 * the two agree (counts equal, the efficiency within 1%: a declaration may
 * leave out a __constant read or sample its loops); elsewhere trace_agrees
 * is null, the pattern at another point being another question. */
static void attach_trace(json_t *o, const json_t *run, const json_t *r)
{
	const json_t *t = wl_run_trace_of(run, r), *tr = json_object_get(json_object_get(t, "figures"), "traced");
	const char *keys[] = { "sectors_per_request", "conflict_degree", "efficiency" };
	int agree = 1;

	json_object_set_new(o, "source", json_string("declared"));
	if (!tr)
		return;
	json_object_set_new(o, "trace_agrees", json_null());
	for (int k = 0; k < 3; k++) {
		const json_t *a = json_object_get(o, keys[k]), *b = json_object_get(tr, keys[k]);
		double tol = k == 2 ? 0.01 : 1e-6;

		if (json_is_number(a) != json_is_number(b) ||
		    (json_is_number(a) && fabs(json_number_value(a) - json_number_value(b)) > tol))
			agree = 0;
	}
	json_object_set_new(o, "traced", json_pack("{s:O, s:O, s:O, s:O, s:O}", "traced_at",
						   json_object_get(t, "params"), "efficiency",
						   json_object_get(tr, "efficiency"), "sectors_per_request",
						   json_object_get(tr, "sectors_per_request"), "conflict_degree",
						   json_object_get(tr, "conflict_degree"), "accesses",
						   json_object_get(tr, "sites")));
	if (json_equal(json_object_get(t, "params"), json_object_get(r, "params")))
		json_object_set_new(o, "trace_agrees", json_boolean(agree));
}

/* The prediction of result r from the run's trace of its variant, where
 * nothing is declared: the trace's figures (at the point it was traced,
 * "traced_at") and its sites as "accesses". null where the run has no trace
 * of it, {"error": why} where the tracer said why not. */
static json_t *predict_traced(const struct point_context *pc, const json_t *run, const json_t *r)
{
	const json_t *found = wl_run_trace_of(run, r), *figures;
	struct wl_prediction p;
	json_t *o;

	if (!found)
		return json_null();
	figures = json_object_get(found, "figures");
	if (json_object_get(figures, "error"))
		return json_pack("{s:s, s:O}", "source", "traced", "error", json_object_get(figures, "error"));
	wl_traced_prediction(figures, &p);
	/* The catalog's causes are its own code's: another kernel's departure is its own. */
	o = ask_model(pc, NULL, NULL, r, &p, NULL);
	if (o) {
		json_object_set_new(o, "source", json_string("traced"));
		json_object_set(o, "traced_at", json_object_get(found, "params"));
		json_object_set(o, "accesses", json_object_get(json_object_get(figures, "traced"), "sites"));
	}
	return o;
}

/* What one result is predicted from. */
struct result_model {
	const struct wl_model *m;	/* NULL: none declared (then the trace's, if any) */
	const char *error;		/* the declaration cannot be read */
	size_t ask, base;		/* its asks; base is (size_t)-1 without a baseline */
	double footprint;		/* its point's buffers, bytes (0: unknown) */
};

/* Result r's prediction from what the memo answered for its asks. */
static json_t *predict_one(const struct point_context *pc, const json_t *run, const json_t *r,
			   const struct result_model *rm, const struct wl_memo_ask *asks)
{
	const struct wl_memo_ask *a = &asks[rm->ask], *b = rm->base == (size_t)-1 ? NULL : &asks[rm->base];
	json_t *p;

	if (rm->error)
		return json_pack("{s:s}", "error", rm->error);
	if (!rm->m)
		return predict_traced(pc, run, r);
	if (a->state == WL_MEMO_FAILED)
		return json_pack("{s:s}", "error", a->error);
	if (a->state == WL_MEMO_PENDING || (b && b->state == WL_MEMO_PENDING))
		return json_pack("{s:b}", "pending", 1);
	p = ask_model(pc, rm->m, rm->m, r, &a->p, b && b->state == WL_MEMO_DONE ? &b->p : NULL);
	if (p)
		attach_trace(p, run, r);
	return p;
}

int wl_run_add_predictions(const struct wl_experiment *exp, json_t *run)
{
	json_t *warp = json_object_get(json_object_get(run, "device"), "warp_width"), *r;
	json_t *results = json_object_get(run, "results");
	double ceiling = json_real_value(json_object_get(json_object_get(run, "ceiling"), "gbps"));
	int lanes = json_is_integer(warp) && json_integer_value(warp) > 0 ?
		(int)json_integer_value(warp) : 32;
	size_t n = json_array_size(results), nasks = 0, i;
	struct result_model *rm = NULL;
	struct wl_memo_ask *asks = NULL;
	long long *values = NULL;
	struct customs customs;
	struct wl_device_model dm;
	int rc = -1, pending = 0, facts, hot;

	if (!exp)
		return 0;
	hot = wl_request_cache(json_object_get(run, "request")) == WL_CACHE_HOT;
	facts = wl_device_model_from_json(json_object_get(run, "device"), ceiling, 0, &dm);
	customs_load(exp, run, &customs);
	rm = calloc(n + 1, sizeof(*rm));
	asks = calloc(2 * n + 1, sizeof(*asks));
	values = calloc((2 * n + 1) * (exp->nparams + 1), sizeof(*values));
	if (!rm || !asks || !values)
		goto out;
	/* What each result needs from the memo: its point, and for an
	 * experiment with a baseline (banks) the baseline point too. */
	json_array_foreach(results, i, r) {
		const char *name = json_string_value(json_object_get(r, "variant"));
		const struct wl_variant_def *def = name ? wl_experiment_variant(exp, name, NULL) : NULL;
		struct wl_memo_ask proto = { .exp = exp, .lanes = lanes };
		long long *v = values + nasks * (exp->nparams + 1);

		rm[i].base = (size_t)-1;
		if (def) {
			rm[i].m = def->model;
			proto.model = def->model;
			proto.variant = def->id;
		}
		for (size_t c = 0; !def && name && c < customs.n; c++)
			if (strcmp(customs.name[c], name) == 0) {
				def = customs.like[c];
				rm[i].m = customs.model[c];
				rm[i].error = customs.error[c][0] ? customs.error[c] : NULL;
				proto.like = def;
				proto.accesses = customs.accesses[c];
			}
		if (!rm[i].m || !def)
			continue;
		if (wl_point_from_json(exp, json_object_get(r, "params"), v) < 0) {
			rm[i].error = "the result lacks a parameter of its experiment";
			continue;
		}
		proto.values = v;
		rm[i].footprint = wl_variant_cost(exp, def, WL_COST_MEMORY, v);
		asks[nasks] = proto;
		wl_memo_ask_set(&asks[nasks]);
		rm[i].ask = nasks++;
		if (exp->baseline_param >= 0) {
			long long *b = values + nasks * (exp->nparams + 1);

			memcpy(b, v, exp->nparams * sizeof(*b));
			b[exp->baseline_param] = exp->baseline_value;
			proto.values = b;
			asks[nasks] = proto;
			wl_memo_ask_set(&asks[nasks]);
			rm[i].base = nasks++;
		}
	}
	wl_memo_lookup(asks, nasks, WAIT_MS);
	json_array_foreach(results, i, r) {
		/* Little's law at the occupancy the compiler's account allows
		 * this variant (build_view.h), else the architecture's most. */
		struct wl_device_model dmr = dm;
		json_t *occ = json_object_get(json_object_get(run, "occupancy"),
					      json_string_value(json_object_get(r, "variant")));
		const struct point_context pc = { exp, ceiling, facts ? &dmr : NULL, rm[i].footprint, hot, run };
		json_t *p;

		if (json_integer_value(json_object_get(occ, "warps")) > 0)
			dmr.resident_warps = (double)json_integer_value(json_object_get(occ, "warps"));
		p = predict_one(&pc, run, r, &rm[i], asks);

		pending |= p && json_object_get(p, "pending") != NULL;
		if (!p || json_object_set_new(r, "prediction", p) < 0)
			goto out;
	}
	if (pending && json_object_set_new(run, "predictions_pending", json_true()) < 0)
		goto out;
	rc = 0;
out:
	customs_free(&customs);
	free(rm);
	free(asks);
	free(values);
	return rc;
}
