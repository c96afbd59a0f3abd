/* Predictions for a run's results. Where the runner measured the device's
 * facts, the time a variant should take comes from the model's ceilings
 * (ceilings.h) over what one work-group asks, at the occupancy its build
 * allows; elsewhere it is the bytes its sectors move at the device's copy
 * ceiling (for a bandwidth experiment the catalog's useful bytes over the
 * predicted efficiency, for a throughput one the simulated group's bytes
 * times the launch's groups). An experiment with a baseline (banks) is
 * compared on slowdown instead: the predicted time over the baseline's
 * measured one (without facts, the conflict degree over the baseline's). */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "custom_kernels.h"
#include "predict.h"
#include "prediction_memo.h"
#include "request_own.h"
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
	const struct wl_run *run;	/* the run, for the catalog causes' conditions */
};

/* A figure as a number, 0 where there is none. */
static double zero(double v)
{
	return isnan(v) ? 0 : v;
}

/* A result and its run, for what a catalog cause's conditions ask of the
 * run's other results. */
struct run_result {
	const struct wl_run *run;
	const struct wl_result *r;
};

/* The median of variant at the experiment's baseline point with r's other
 * params, or 0. */
static double median_at_baseline(const struct run_result *x, const char *variant)
{
	const struct wl_experiment *exp = x->run->exp;
	const char *param = exp->baseline_param >= 0 ? exp->params[exp->baseline_param].name : NULL;

	for (size_t i = 0; i < x->run->nresults; i++) {
		const struct wl_result *o = &x->run->results[i];
		const json_t *v;
		const char *key;
		int same = param && wl_result_param(o, param) == exp->baseline_value && o->verified;

		if (!same || strcmp(o->variant ?: "", variant) != 0)
			continue;
		json_object_foreach((json_t *)x->r->params, key, v)
			same &= strcmp(key, param) == 0 || json_equal(v, json_object_get(o->params, key));
		if (same)
			return zero(o->median_ms);
	}
	return 0;
}

static double baseline_ratio(const void *arg, const char *other)
{
	const struct run_result *x = arg;
	double mine = median_at_baseline(x, x->r->variant ?: "");
	double theirs = median_at_baseline(x, other);

	return mine > 0 && theirs > 0 ? mine / theirs : 0;
}

/* Ask the model for result r's prediction from counts p (and base's). */
static json_t *ask_model(const struct point_context *pc, const struct wl_model *m, const struct wl_model *causes,
			 const struct wl_result *r, const struct wl_prediction *p, const struct wl_prediction *base)
{
	const struct run_result x = { pc->run, r };
	/* A custom kernel runs with its like variant's launch. */
	const struct wl_variant_def *def =
		wl_experiment_variant(pc->exp, r->like ? r->like : r->variant ? r->variant : "", NULL);
	const struct wl_cause_facts facts = {
		.median_ms = zero(r->median_ms), .footprint = pc->footprint,
		.drops = r->in_drop, .baseline_ratio = baseline_ratio, .arg = &x,
	};
	const struct wl_point_in in = {
		.exp = pc->exp, .copy_gbps = pc->ceiling, .device = pc->dm, .footprint = pc->footprint, .hot = pc->hot,
		.groups_chosen = def && wl_launch_decl_driver_chooses(&def->host),
		.declared = m, .causes = causes, .p = p, .base = base,
		.work = zero(pc->exp->metric == WL_METRIC_BANDWIDTH ? r->bytes : r->ops),
		.median_ms = zero(r->median_ms),
		.measured_slowdown = zero(r->slowdown),
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

static void customs_load(const struct wl_run *run, struct customs *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < run->nkernels; i++) {
		const struct wl_run_kernel *k = &run->kernels[i];
		const json_t *accesses = k->accesses;
		json_t *obj;
		struct wl_error err = { 0 };

		if (c->n == WL_CUSTOM_MAX || !k->name)
			break;
		c->name[c->n] = k->name;
		c->like[c->n] = k->like ? wl_experiment_variant(run->exp, k->like, NULL) : NULL;
		c->accesses[c->n] = accesses;
		if (accesses) {
			obj = json_pack("{s:O}", "accesses", accesses);
			if (!obj || wl_experiment_model(run->exp, c->like[c->n], obj, "accesses",
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

const struct wl_run_trace *wl_run_trace_of(const struct wl_run *run, const struct wl_result *r)
{
	const struct wl_run_trace *first = NULL;

	for (size_t i = 0; i < run->ntraces; i++) {
		const struct wl_run_trace *t = &run->traces[i];

		if (!t->variant || !r->variant || strcmp(t->variant, r->variant) != 0)
			continue;
		if (json_equal(t->params, r->params))
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
 * is null, the pattern at another point being another question. Where the
 * tracer said why it took none (the simulator cannot run the kernel), that
 * is "trace_error": the declaration stands unchecked. */
static void attach_trace(json_t *o, const struct wl_run *run, const struct wl_result *r)
{
	const struct wl_run_trace *t = wl_run_trace_of(run, r);
	const json_t *tr = t ? json_object_get(t->figures, "traced") : NULL;
	const json_t *why = t ? json_object_get(t->figures, "error") : NULL;
	const char *keys[] = { "sectors_per_request", "conflict_degree", "efficiency" };
	int agree = 1;

	json_object_set_new(o, "source", json_string("declared"));
	if (json_is_string(why))
		json_object_set(o, "trace_error", (json_t *)why);
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
						   t->params, "efficiency",
						   json_object_get(tr, "efficiency"), "sectors_per_request",
						   json_object_get(tr, "sectors_per_request"), "conflict_degree",
						   json_object_get(tr, "conflict_degree"), "accesses",
						   json_object_get(tr, "sites")));
	if (json_equal(t->params, r->params))
		json_object_set_new(o, "trace_agrees", json_boolean(agree));
}

/* The prediction of result r from the run's trace of its variant, where
 * nothing is declared: the trace's figures (at the point it was traced,
 * "traced_at") and its sites as "accesses". null where the run has no trace
 * of it, {"error": why} where the tracer said why not. */
static json_t *predict_traced(const struct point_context *pc, const struct wl_result *r)
{
	const struct wl_run_trace *found = wl_run_trace_of(pc->run, r);
	const json_t *figures;
	struct wl_prediction p;
	json_t *o;

	if (!found)
		return json_null();
	figures = found->figures;
	if (json_object_get(figures, "error"))
		return json_pack("{s:s, s:O}", "source", "traced", "error", json_object_get(figures, "error"));
	wl_traced_prediction(figures, &p);
	/* The catalog's causes are its own code's: another kernel's departure is its own. */
	o = ask_model(pc, NULL, NULL, r, &p, NULL);
	if (o) {
		json_object_set_new(o, "source", json_string("traced"));
		json_object_set(o, "traced_at", (json_t *)found->params);
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
static json_t *predict_one(const struct point_context *pc, const struct wl_result *r, const struct result_model *rm,
			   const struct wl_memo_ask *asks)
{
	const struct wl_memo_ask *a = &asks[rm->ask], *b = rm->base == (size_t)-1 ? NULL : &asks[rm->base];
	json_t *p;

	if (rm->error)
		return json_pack("{s:s}", "error", rm->error);
	if (!rm->m)
		return predict_traced(pc, r);
	if (a->state == WL_MEMO_FAILED)
		return json_pack("{s:s}", "error", a->error);
	if (a->state == WL_MEMO_PENDING || (b && b->state == WL_MEMO_PENDING))
		return json_pack("{s:b}", "pending", 1);
	p = ask_model(pc, rm->m, rm->m, r, &a->p, b && b->state == WL_MEMO_DONE ? &b->p : NULL);
	if (p)
		attach_trace(p, pc->run, r);
	return p;
}

/* What result r needs from the memo into *rm and asks (from asks[*nasks]
 * on): its point, and for an experiment with a baseline (banks) the
 * baseline point too; base has room for the baseline's values. */
static void result_asks(const struct wl_run *run, const struct customs *customs, const struct wl_result *r,
			long long *base, struct result_model *rm, struct wl_memo_ask *asks, size_t *nasks)
{
	const struct wl_experiment *exp = run->exp;
	const struct wl_variant_def *def = r->variant ? wl_experiment_variant(exp, r->variant, NULL) : NULL;
	struct wl_memo_ask proto = { .exp = exp, .lanes = run->lanes };

	/* The run's own experiment ends with this request; the memo's job
	 * reads its definition again. */
	if (run->own)
		proto.definition = wl_request_own_definition(json_object_get(run->json, "request"));
	rm->base = (size_t)-1;
	if (def) {
		rm->m = def->model;
		proto.model = def->model;
		proto.variant = def->id;
	}
	for (size_t c = 0; !def && r->variant && c < customs->n; c++)
		if (strcmp(customs->name[c], r->variant) == 0) {
			def = customs->like[c];
			rm->m = customs->model[c];
			rm->error = customs->error[c][0] ? customs->error[c] : NULL;
			proto.like = def;
			proto.accesses = customs->accesses[c];
		}
	if (!rm->m || !def)
		return;
	if (!r->values) {
		rm->error = "the result lacks a parameter of its experiment";
		return;
	}
	proto.values = r->values;
	rm->footprint = wl_variant_cost(exp, def, WL_COST_MEMORY, r->values);
	asks[*nasks] = proto;
	wl_memo_ask_set(&asks[*nasks]);
	rm->ask = (*nasks)++;
	if (exp->baseline_param >= 0) {
		memcpy(base, r->values, exp->nparams * sizeof(*base));
		base[exp->baseline_param] = exp->baseline_value;
		proto.values = base;
		asks[*nasks] = proto;
		wl_memo_ask_set(&asks[*nasks]);
		rm->base = (*nasks)++;
	}
}

/* r's prediction p into its JSON and its findings; -1 when out of memory. */
static int set_prediction(struct wl_result *r, json_t *p)
{
	const json_t *traffic = json_object_get(p, "traffic");
	const json_t *read = json_object_get(traffic, "dram_read_bytes");
	const json_t *write = json_object_get(traffic, "dram_write_bytes");

	if (!p || json_object_set_new(r->json, "prediction", p) < 0)
		return -1;
	r->prediction = p;
	r->binding = json_string_value(json_object_get(p, "binding"));
	r->sectors_per_request = json_number_value(json_object_get(p, "sectors_per_request"));
	r->conflict_degree = json_number_value(json_object_get(p, "conflict_degree"));
	r->dram_read_bytes = json_is_number(read) ? json_number_value(read) : NAN;
	r->dram_write_bytes = json_is_number(write) ? json_number_value(write) : NAN;
	return 0;
}

int wl_run_add_predictions(struct wl_run *run)
{
	const struct wl_experiment *exp = run->exp;
	size_t n = run->nresults, nasks = 0, i;
	struct result_model *rm = NULL;
	struct wl_memo_ask *asks = NULL;
	long long *values = NULL;
	struct customs customs;
	struct wl_device_model dm;
	int rc = -1, pending = 0, facts, hot;

	if (!exp)
		return 0;
	hot = run->settings.cache == WL_CACHE_HOT;
	facts = wl_device_model_from_json(run->device, run->ceiling_gbps, 0, &dm);
	customs_load(run, &customs);
	rm = calloc(n + 1, sizeof(*rm));
	asks = calloc(2 * n + 1, sizeof(*asks));
	values = calloc((n + 1) * (exp->nparams + 1), sizeof(*values));
	if (!rm || !asks || !values)
		goto out;
	for (i = 0; i < n; i++)
		result_asks(run, &customs, &run->results[i], values + i * (exp->nparams + 1), &rm[i], asks, &nasks);
	wl_memo_lookup(asks, nasks, WAIT_MS);
	for (i = 0; i < n; i++) {
		/* Little's law at the occupancy the compiler's account allows
		 * this variant (wl_run_add_occupancy), else the architecture's
		 * most. */
		struct wl_device_model dmr = dm;
		struct wl_result *r = &run->results[i];
		const struct point_context pc = { exp, run->ceiling_gbps, facts ? &dmr : NULL, rm[i].footprint, hot, run };
		json_t *p;

		if (r->resident_warps > 0)
			dmr.resident_warps = (double)r->resident_warps;
		p = predict_one(&pc, r, &rm[i], asks);
		pending |= p && json_object_get(p, "pending") != NULL;
		if (set_prediction(r, p) < 0)
			goto out;
	}
	run->predictions_pending = pending;
	if (pending && json_object_set_new(run->json, "predictions_pending", json_true()) < 0)
		goto out;
	rc = 0;
out:
	customs_free(&customs);
	free(rm);
	free(asks);
	free(values);
	return rc;
}

void wl_predictions_stop(void)
{
	wl_memo_stop();
}
