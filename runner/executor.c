/* The executor: from a claimed run to its results. Points are the outer loop
 * and variants the inner one, so inputs and the CPU reference are prepared once
 * per point and the charts fill in evenly while a run progresses. */
#include "executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "log.h"
#include "request.h"
#include "rng.h"

long long wl_point_deadline(const struct wl_experiment *exp, const struct wl_variant_def *const *variants,
			    size_t nvariants, const long long *values, long long repeat, long long warmup,
			    long long max_s)
{
	double seconds = 60;

	for (size_t k = 0; k < nvariants; k++) {
		double work = wl_variant_cost(exp, variants[k], exp->metric == WL_METRIC_BANDWIDTH ?
								WL_COST_BYTES : WL_COST_OPS, values);
		double host = wl_variant_cost(exp, variants[k], WL_COST_MEMORY, values);

		seconds += 1 + (double)(repeat + warmup) * work / WL_FLOOR_RATE + host / WL_FLOOR_RATE;
	}
	return seconds > (double)max_s ? max_s : (long long)seconds + 1;
}

static struct wl_cl_device *find_device(struct wl_cl_devices *devs, const char *id)
{
	for (size_t i = 0; i < devs->count; i++)
		if (strcmp(devs->list[i].id, id) == 0)
			return &devs->list[i];
	return NULL;
}

static int finish(struct wl_executor *ex, long long id, const char *status, const char *msg,
		  struct wl_error *err)
{
	if (wl_store_finish_run(ex->store, ex->runner_id, id, status, msg, err) < 0)
		return -1;
	if (msg)
		wl_log_info("run %lld %s: %s", id, status, msg);
	else
		wl_log_info("run %lld %s", id, status);
	return 0;
}

/* Write one measurement as a result row. */
static int record(struct wl_executor *ex, long long run_id, const struct wl_point *pt,
		  const struct wl_variant_def *v, const json_t *params,
		  const struct wl_measurement *m, struct wl_error *err)
{
	char *params_text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	struct wl_result_row row = {
		.variant = v->id,
		.params_json = params_text,
		.median_ms = m->stats.median,
		.min_ms = m->stats.min,
		.max_ms = m->stats.max,
		.reps = m->reps,
		.verified = m->verified && !m->error[0],
		.error = m->error[0] ? m->error : NULL,
		.note = m->note[0] ? m->note : NULL,
		.extra_json = m->extra[0] ? m->extra : NULL,
	};
	int rc;

	if (!params_text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (pt->exp->metric == WL_METRIC_BANDWIDTH)
		row.bytes = m->bytes > 0 ? m->bytes : wl_variant_cost(pt->exp, v, WL_COST_BYTES, pt->values);
	else
		row.ops = m->ops > 0 ? m->ops : wl_variant_cost(pt->exp, v, WL_COST_OPS, pt->values);
	rc = wl_store_add_result(ex->store, ex->runner_id, run_id, &row, err);
	free(params_text);
	return rc;
}

/* Measure every variant at one point; -1 with err set stops the run, and
 * *store_failed says whether the store (not the device) was at fault. */
static int run_point(struct wl_executor *ex, long long run_id, const struct wl_experiment_ops *ops,
		     struct wl_point *pt, const struct wl_variant_def *const *variants,
		     size_t nvariants, const json_t *params, int *store_failed,
		     struct wl_error *err)
{
	void *state = NULL;
	int rc = -1;

	if (ops->setup(pt, &state, err) < 0)
		return -1;
	for (size_t k = 0; k < nvariants; k++) {
		struct wl_measurement m;

		memset(&m, 0, sizeof(m));
		if (ops->measure(pt, state, variants[k], &m, err) < 0) {
			char inner[sizeof(err->msg)];

			snprintf(inner, sizeof(inner), "%s", err->msg);
			wl_error_set(err, err->kind, "%s: %s", variants[k]->id, inner);
			goto out;
		}
		if (record(ex, run_id, pt, variants[k], params, &m, err) < 0) {
			*store_failed = 1;
			goto out;
		}
	}
	rc = 0;
out:
	ops->teardown(state);
	return rc;
}

/* Everything a run needs, gathered before the first point. */
struct run_plan {
	const struct wl_experiment *exp;
	const struct wl_experiment_ops *ops;
	struct wl_cl_device *dev;
	json_t *request;
	struct wl_points pts;
	const struct wl_variant_def **variants;
	size_t nvariants;
	struct wl_source source;
	long long repeat;
	unsigned long long seed;
};

static void plan_free(struct run_plan *p)
{
	json_decref(p->request);
	wl_points_free(&p->pts);
	free(p->variants);
	wl_source_free(&p->source);
}

/* Fill plan from the claim; a failure is the run's failure message. */
static int plan_run(struct wl_executor *ex, const struct wl_claim *claim, struct run_plan *p,
		    struct wl_error *why)
{
	json_t *variants;
	struct wl_device_limits limits;
	char path[4096];

	memset(p, 0, sizeof(*p));
	p->exp = wl_catalog_find(ex->cat, claim->experiment);
	p->ops = p->exp ? wl_experiment_ops_find(p->exp->id) : NULL;
	if (!p->exp || !p->ops) {
		wl_error_set(why, WL_ERR_CONFIG, "experiment '%s' is not in this runner's catalog",
			     claim->experiment);
		return -1;
	}
	p->dev = find_device(ex->devs, claim->device_id);
	if (!p->dev) {
		wl_error_set(why, WL_ERR_CONFIG, "device '%s' is not available on this runner",
			     claim->device_id);
		return -1;
	}
	p->request = json_loads(claim->request_json, 0, NULL);
	if (!p->request) {
		wl_error_set(why, WL_ERR_INTERNAL, "the stored request is not valid JSON");
		return -1;
	}
	if (wl_request_points(p->exp, p->request, &p->pts, why) < 0)
		return -1;
	wl_cl_device_limits(p->dev, &limits);
	if (wl_request_check_device(p->exp, p->request, &limits, why) < 0)
		return -1;
	variants = json_object_get(p->request, "variants");
	p->variants = calloc(json_array_size(variants) + 1, sizeof(*p->variants));
	if (!p->variants) {
		wl_error_set(why, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < json_array_size(variants); k++) {
		const char *id = json_string_value(json_array_get(variants, k));

		p->variants[k] = id ? wl_experiment_variant(p->exp, id, NULL) : NULL;
		if (!p->variants[k]) {
			wl_error_set(why, WL_ERR_CONFIG, "variant '%s' is not in this runner's catalog",
				     id ? id : "?");
			return -1;
		}
		p->nvariants++;
	}
	p->repeat = json_integer_value(json_object_get(p->request, "repeat"));
	p->seed = (unsigned long long)json_integer_value(json_object_get(p->request, "seed"));
	if (p->repeat < 1)
		p->repeat = 1;
	snprintf(path, sizeof(path), "%s/%s", ex->kernels_dir, p->exp->source);
	return wl_source_load(path, &p->source, why);
}

int wl_executor_run(struct wl_executor *ex, const struct wl_claim *claim, struct wl_error *err)
{
	struct run_plan plan;
	struct wl_error why;
	int rc = -1;

	wl_log_info("run %lld (%s) started on %s, attempt %lld", claim->id, claim->experiment,
		    claim->device_id, claim->attempt);
	wl_error_clear(&why);
	if (plan_run(ex, claim, &plan, &why) < 0) {
		rc = finish(ex, claim->id, "failed", why.msg, err);
		goto out;
	}
	if (wl_store_set_run_provenance(ex->store, claim->id, plan.source.hash, ex->version, err) < 0)
		goto out;

	for (size_t i = 0; i < plan.pts.count; i++) {
		struct wl_point pt = {
			.dev = plan.dev,
			.exp = plan.exp,
			.values = plan.pts.values + i * plan.pts.nparams,
			.seed = wl_rng_derive(plan.seed, i),
			.warmup = ex->warmup,
			.repeat = plan.repeat,
			.programs = ex->programs,
			.source = &plan.source,
		};
		json_t *params;
		int cancel = 0, store_failed = 0;

		if (*ex->stop) {
			rc = wl_store_requeue_run(ex->store, ex->runner_id, claim->id, err);
			if (rc == 0)
				wl_log_info("run %lld requeued: the runner is stopping", claim->id);
			goto out;
		}
		if (wl_store_cancel_requested(ex->store, claim->id, &cancel, err) < 0)
			goto out;
		if (cancel) {
			rc = finish(ex, claim->id, "cancelled", "cancelled while running", err);
			goto out;
		}
		if (wl_cl_device_open(plan.dev, &why) < 0) {
			rc = finish(ex, claim->id, "failed", why.msg, err);
			goto out;
		}
		params = wl_point_to_json(plan.exp, &plan.pts, i);
		if (!params) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
		if (ex->on_point)
			ex->on_point(ex->hook_ctx, claim->id,
				     wl_point_deadline(plan.exp, plan.variants, plan.nvariants, pt.values,
						       plan.repeat, ex->warmup, ex->point_timeout_max));
		if (run_point(ex, claim->id, plan.ops, &pt, plan.variants, plan.nvariants, params,
			      &store_failed, &why) < 0) {
			char msg[sizeof(why.msg) + 256], where[200];

			json_decref(params);
			if (store_failed) {
				/* Nothing more can be recorded; recovery will see to the run. */
				*err = why;
				goto out;
			}
			wl_point_text(plan.exp, pt.values, where, sizeof(where));
			snprintf(msg, sizeof(msg), "at %s, %s", where, why.msg);
			/* An OpenCL error may leave the context unusable: start afresh. */
			wl_program_cache_drop_device(ex->programs, plan.dev);
			wl_cl_device_close(plan.dev);
			rc = finish(ex, claim->id, "failed", msg, err);
			goto out;
		}
		json_decref(params);
	}
	rc = finish(ex, claim->id, "done", NULL, err);
out:
	plan_free(&plan);
	return rc;
}
