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

#include "ceiling_view.h"
#include "custom_kernels.h"
#include "points.h"
#include "prediction_memo.h"
#include "warp_model.h"

/* How long a read waits for predictions the memo has not computed yet. */
#define WAIT_MS 50

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
		json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:f, s:o, s:o, s:o, s:o, s:o}", "array", a->array,
				      "space", global ? "global" : "local", "op", a->store ? "store" : "load",
				      "bytes", a->bytes, "requests", f->requests,
				      "sectors_per_request", real_or_null(global && made, f->sectors_per_request),
				      "lines_per_request", real_or_null(global && made, f->lines_per_request),
				      "bursts_per_request", real_or_null(global && made, f->bursts_per_request),
				      "efficiency", real_or_null(global && made, f->efficiency),
				      "conflict_degree", real_or_null(!global && made, f->conflict_degree));

		if (!o || json_array_append_new(list, o) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* What one work-group of the launch asks of each memory, counted once from
 * the warp model's figures (m's accesses tell local from global and stores
 * from loads; a trace's, m NULL, by its conflict degrees): the counts the
 * ceilings are made of (ceilings.h), and beside them the sectors and the
 * local requests the API shows. */
struct work_count {
	struct wl_launch_work w;
	double sectors, local_requests;
};

/* Whether m stores inside a loop: its loads then cannot run ahead of the
 * stores before them (they may be to the same bytes), and each waits its
 * turn at the pace one warp keeps through such a loop (the device's warp
 * interval, measured on one), whichever level serves it. A trace's (m
 * NULL) is taken to. */
static int stores_in_loops(const struct wl_model *m)
{
	if (!m)
		return 1;
	for (int i = 0; i < m->naccesses; i++)
		if (m->accesses[i].store && m->accesses[i].nloops > 0)
			return 1;
	return 0;
}

static void count_work(const struct wl_model *m, const struct wl_prediction *p, double footprint,
		       struct work_count *out)
{
	memset(out, 0, sizeof(*out));
	out->w = (struct wl_launch_work){ .groups = p->groups, .items = p->items, .moved_bytes = p->moved_bytes,
					  .burst_bytes = p->burst_bytes, .barriers = p->barriers,
					  .footprint_bytes = footprint };
	for (int i = 0; i < p->naccesses; i++) {
		const struct wl_access_figures *f = &p->access[i];
		const struct wl_access *a = m && i < m->naccesses ? &m->accesses[i] : NULL;

		if (a ? a->space == WL_SPACE_LOCAL : f->conflict_degree > 0) {
			out->local_requests += f->requests;
			out->w.local_wavefronts += f->requests * f->conflict_degree;
			continue;
		}
		out->w.global_requests += f->requests;
		out->sectors += f->requests * f->sectors_per_request;
		if (a && a->store) {
			out->w.store_moved_bytes += f->moved_bytes;
			out->w.store_burst_bytes += f->burst_bytes;
			out->w.reach_bytes += f->moved_bytes;
			continue;
		}
		/* A load: the sectors it touched a moment before are the first
		 * level's hits. */
		out->w.reach_bytes += f->distinct_bytes;
		if (!stores_in_loops(m) && f->moved_bytes > 0 && f->distinct_bytes < f->moved_bytes)
			out->w.hit_requests += f->requests * (1 - f->distinct_bytes / f->moved_bytes);
		if (out->w.nloads < WL_LAUNCH_LOADS)
			out->w.loads[out->w.nloads++] = (struct wl_first_level){
				.requests = f->requests, .passes = f->requests * f->bank_degree,
				.lines = f->requests * f->lines_per_request };
	}
}

static json_t *work_json(const struct work_count *c)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "groups", c->w.groups, "items", c->w.items,
			 "global_requests", c->w.global_requests, "sectors", c->sectors, "moved_bytes",
			 c->w.moved_bytes, "burst_bytes", c->w.burst_bytes, "reach_bytes", c->w.reach_bytes,
			 "l1_hit_requests", c->w.hit_requests, "local_requests", c->local_requests,
			 "local_wavefronts", c->w.local_wavefronts);
}

/* The sentence a departure gets: the factor, the direction, and the cause
 * the model sees or the catalog's where the kernel can have it. */
static json_t *departure(const struct wl_model *m, const struct wl_ceilings *c, const struct wl_device_model *d,
			 const struct wl_prediction *p, double ratio)
{
	char text[1024], cause[700];
	const char *named;

	if (ratio <= WL_DEPARTURE_FACTOR && ratio >= 1 / WL_DEPARTURE_FACTOR)
		return json_null();
	named = wl_departure_cause(c, d, p, ratio, !m ? NULL : ratio > 1 ? m->faster : m->slower, cause,
				   sizeof(cause));
	snprintf(text, sizeof(text), "Measured %.1f× %s than predicted; %s%s.",
		 ratio > 1 ? ratio : 1 / ratio, ratio > 1 ? "faster" : "slower",
		 named ? "likely cause: " : "the model names no cause", named ? named : "");
	return json_string(text);
}

/* What a point's prediction is made with beyond the warp model's counts. */
struct point_context {
	const struct wl_experiment *exp;
	double ceiling;			/* the copy ceiling, GB/s */
	const struct wl_device_model *dm;	/* NULL: no measured facts, the copy ceiling alone */
	double footprint;		/* the point's buffers, bytes (0: unknown) */
};

/* The prediction of one result from the model's figures p (and base's, at
 * the baseline point, or NULL). Its work (bytes or operations) is the one the
 * runner counted for it, so a custom kernel's is its like variant's. With
 * the device's facts its time comes from the ceilings and the launch
 * (ceilings.h); without, the bytes its sectors move at the copy ceiling. */
static json_t *predict_result(const struct point_context *pc, const struct wl_model *m,
			      const struct wl_model *causes, const json_t *r,
			      const struct wl_prediction *p, const struct wl_prediction *base)
{
	const struct wl_experiment *exp = pc->exp;
	double median = json_real_value(json_object_get(r, "median_ms"));
	double measured_slowdown = json_real_value(json_object_get(r, "slowdown"));
	double ms = 0, rate = 0, slowdown = 0, ratio = 0, work;
	int bandwidth = exp->metric == WL_METRIC_BANDWIDTH, timed = 0, by_slowdown = 0;
	struct wl_ceilings c;
	struct work_count count;
	int ceiled;
	json_t *o;

	count_work(m, p, pc->footprint, &count);
	ceiled = pc->dm && wl_ceilings_compute(pc->dm, &count.w, &c) == 0;

	work = json_number_value(json_object_get(r, bandwidth ? "bytes" : "ops"));
	if (ceiled) {
		timed = 1;
		ms = c.total_ms;
		rate = work > 0 ? work / (ms * 1e6) : 0;
	} else if (p->has_global && p->efficiency > 0 && pc->ceiling > 0) {
		double moved = bandwidth ? work / p->efficiency : p->groups * p->moved_bytes;

		timed = moved > 0;
		ms = moved / (pc->ceiling * 1e6);
		rate = timed ? work / (ms * 1e6) : 0;
	}
	if (base && p->has_local && base->conflict_degree > 0) {
		by_slowdown = measured_slowdown > 0;
		/* With ceilings: the baseline's own time (the measured one, which
		 * holds what the model does not count) bounds the point's. */
		if (ceiled && by_slowdown && median > 0)
			slowdown = (ms > median / measured_slowdown ? ms : median / measured_slowdown) /
				   (median / measured_slowdown);
		else
			slowdown = p->conflict_degree / base->conflict_degree;
		if (by_slowdown)
			ratio = slowdown / measured_slowdown;
	}
	if (timed && !by_slowdown && median > 0)
		ratio = ms / median;
	o = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "lanes", p->lanes,
		      "efficiency", real_or_null(p->has_global, p->efficiency),
		      "sectors_per_request", real_or_null(p->has_global, p->sectors_per_request),
		      "conflict_degree", real_or_null(p->has_local, p->conflict_degree),
		      "pct", real_or_null(p->has_global && bandwidth, 100 * p->efficiency),
		      "ms", real_or_null(timed, ms),
		      bandwidth ? "gbps" : "gops", real_or_null(timed, rate),
		      "slowdown", real_or_null(slowdown > 0, slowdown),
		      "ratio", real_or_null(ratio > 0, ratio), "sampled", p->sampled,
		      "accesses", m ? accesses_json(m, p) : json_array());
	if (o) {
		json_object_set_new(o, "departure", ratio > 0 ? departure(causes, ceiled ? &c : NULL, pc->dm, p, ratio)
							      : json_null());
		json_object_set_new(o, "work", work_json(&count));
		json_object_set_new(o, "model", json_string(ceiled ? "ceilings" : "copy ceiling"));
		if (ceiled) {
			json_object_update_new(o, wl_ceilings_json(&c, work));
			/* The predicted share of the copy ceiling, as the measured
			 * one is shown. */
			if (bandwidth && pc->ceiling > 0)
				json_object_set_new(o, "ceiling_pct", json_real(100 * rate / pc->ceiling));
		}
	}
	return o;
}

const json_t *wl_run_trace_of(const json_t *run, const json_t *r)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(run, "traces"), i, t)
		if (json_equal(json_object_get(t, "variant"), json_object_get(r, "variant")))
			return t;
	return NULL;
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
	const json_t *found = wl_run_trace_of(run, r), *figures, *traced;
	struct wl_prediction p = { 0 };
	json_t *o, *v;

	if (!found)
		return json_null();
	figures = json_object_get(found, "figures");
	if (json_object_get(figures, "error"))
		return json_pack("{s:s, s:O}", "source", "traced", "error", json_object_get(figures, "error"));
	traced = json_object_get(figures, "traced");
	p.lanes = (int)json_integer_value(json_object_get(figures, "lanes"));
	if ((v = json_object_get(traced, "efficiency")) && json_is_number(v)) {
		p.has_global = 1;
		p.efficiency = json_number_value(v);
		p.sectors_per_request = json_number_value(json_object_get(traced, "sectors_per_request"));
	}
	if ((v = json_object_get(traced, "conflict_degree")) && json_is_number(v)) {
		p.has_local = 1;
		p.conflict_degree = json_number_value(v);
	}
	/* The catalog's causes are its own code's: another kernel's departure is its own. */
	o = predict_result(pc, NULL, NULL, r, &p, NULL);
	if (o) {
		json_object_set_new(o, "source", json_string("traced"));
		json_object_set(o, "traced_at", json_object_get(found, "params"));
		json_object_set(o, "accesses", json_object_get(traced, "sites"));
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
	p = predict_result(pc, rm->m, rm->m, r, &a->p, b && b->state == WL_MEMO_DONE ? &b->p : NULL);
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
	int rc = -1, pending = 0, facts;

	if (!exp)
		return 0;
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
		const struct point_context pc = { exp, ceiling, facts ? &dmr : NULL, rm[i].footprint };
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
