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

/* One variant of a run as the executor measures it. A custom kernel carries a
 * copy of its "like" variant's definition — so the family's host code
 * launches and verifies it exactly as that variant — with the kernel name
 * replaced by its entry point, and its own source. */
struct run_variant {
	const char *name;		/* the result rows' variant */
	struct wl_variant_def def;
	struct wl_source source;	/* custom kernels only */
	int custom;
};

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
		  const struct run_variant *rv, const json_t *params,
		  const struct wl_measurement *m, struct wl_error *err)
{
	const struct wl_variant_def *v = &rv->def;
	char *params_text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	struct wl_result_row row = {
		.variant = rv->name,
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

/* A copy of a build log with the compiler's temporary file names (PoCL writes
 * "/home/.../kcache/tempfile_x.cl:33:18: ...") shown as "<source>:33:18", and
 * clang's " <Spelling=/usr/.../opencl-c-base.h:354:32>" notes dropped, so the
 * log names the user's source, not paths of this host. Caller frees. */
static char *source_named_log(const char *log)
{
	/* A replaced name is at least "/x.cl", 5 bytes for 8: twice the length
	 * always fits. */
	char *out = malloc(2 * strlen(log) + 1), *w = out;

	if (!out)
		return NULL;
	for (const char *r = log; *r;) {
		const char *cl = NULL;

		if (*r == '/' && (r == log || r[-1] == ' ' || r[-1] == '\n' || r[-1] == '\t')) {
			const char *e = r;

			while (*e && *e != ' ' && *e != '\n' && *e != ':')
				e++;
			if (e - r > 3 && strncmp(e - 3, ".cl", 3) == 0 && *e == ':')
				cl = e;
		}
		if (cl) {
			w += sprintf(w, "%s", "<source>");
			r = cl;
		} else if (strncmp(r, " <Spelling=", 11) == 0 && strchr(r, '>')) {
			r = strchr(r, '>') + 1;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return out;
}

/* A custom kernel's measurement ended in an error (it did not build, or its
 * launch failed): that fails its point, not the run. Records the failure with
 * the whole build log where there is one. */
static int record_custom_failure(struct wl_executor *ex, long long run_id,
				 const struct wl_point *pt, const struct run_variant *rv,
				 const json_t *params, const struct wl_error *why,
				 struct wl_error *err)
{
	char *params_text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	char *text = NULL;
	struct wl_result_row row = { .variant = rv->name, .params_json = params_text };
	int rc;

	(void)pt;
	if (why->kind == WL_ERR_BUILD) {
		char *log = source_named_log(wl_program_cache_build_log(ex->programs));

		if (!log || asprintf(&text, "custom kernel '%s' did not build on %s (options as for '%s'); build log:\n%s",
				     rv->name, pt->dev->id, rv->def.id, log) < 0)
			text = NULL;
		free(log);
	} else if (asprintf(&text, "custom kernel '%s' failed: %s", rv->name, why->msg) < 0) {
		text = NULL;
	}
	if (!params_text || !text) {
		free(params_text);
		free(text);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	row.error = text;
	rc = wl_store_add_result(ex->store, ex->runner_id, run_id, &row, err);
	free(params_text);
	free(text);
	return rc;
}

/* After a custom kernel's launch failed the device's context may be unusable
 * (NVIDIA loses it on an illegal address): start afresh and prepare the point
 * again for the variants after it. */
static int reset_point(struct wl_executor *ex, const struct wl_experiment_ops *ops,
		       struct wl_point *pt, void **state, struct wl_error *err)
{
	ops->teardown(*state);
	*state = NULL;
	wl_program_cache_drop_device(ex->programs, pt->dev);
	wl_cl_device_close(pt->dev);
	if (wl_cl_device_open(pt->dev, err) < 0)
		return -1;
	return ops->setup(pt, state, err);
}

/* Measure every variant at one point; -1 with err set stops the run, and
 * *store_failed says whether the store (not the device) was at fault. */
static int run_point(struct wl_executor *ex, long long run_id, const struct wl_experiment_ops *ops,
		     struct wl_point *pt, const struct run_variant *variants, size_t nvariants,
		     const json_t *params, int *store_failed, struct wl_error *err)
{
	void *state = NULL;
	int rc = -1;

	if (ops->setup(pt, &state, err) < 0)
		return -1;
	for (size_t k = 0; k < nvariants; k++) {
		const struct run_variant *rv = &variants[k];
		struct wl_point vpt = *pt;
		struct wl_measurement m;
		struct wl_error why;
		int measured;

		memset(&m, 0, sizeof(m));
		wl_error_clear(&why);
		if (rv->custom) {
			char where[200];

			wl_point_text(pt->exp, pt->values, where, sizeof(where));
			vpt.source = &rv->source;
			vpt.family = pt->source;
			vpt.like_kernel = wl_experiment_variant(pt->exp, rv->def.id, NULL)->kernel;
			if (ex->on_custom)
				ex->on_custom(ex->hook_ctx, rv->name, where);
		}
		measured = ops->measure(&vpt, state, &rv->def, &m, &why);
		if (rv->custom && ex->on_custom)
			ex->on_custom(ex->hook_ctx, NULL, NULL);
		if (measured < 0 && rv->custom) {
			wl_log_info("run %lld: custom kernel %s: %s", run_id, rv->name, why.msg);
			if (record_custom_failure(ex, run_id, pt, rv, params, &why, err) < 0) {
				*store_failed = 1;
				goto out;
			}
			/* Launch and memory errors may have broken the context;
			 * a build or signature problem leaves it as it was. */
			if (why.kind == WL_ERR_INTERNAL && reset_point(ex, ops, pt, &state, err) < 0)
				goto out;
			continue;
		}
		if (measured < 0) {
			wl_error_set(err, why.kind, "%s: %s", rv->name, why.msg);
			goto out;
		}
		/* A prediction belongs to the built-in pattern, not to the code
		 * that stands in for it. */
		if (rv->custom)
			m.extra[0] = '\0';
		if (record(ex, run_id, pt, rv, params, &m, err) < 0) {
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
	struct run_variant *variants;
	const struct wl_variant_def **defs;	/* variants[k].def, for the deadline */
	size_t nvariants;
	struct wl_source source;
	char source_hash[40];		/* the family's, "+" the custom kernels' */
	long long repeat;
	unsigned long long seed;
};

static void plan_free(struct run_plan *p)
{
	for (size_t k = 0; p->variants && k < p->nvariants; k++)
		wl_source_free(&p->variants[k].source);
	json_decref(p->request);
	wl_points_free(&p->pts);
	free(p->variants);
	free(p->defs);
	wl_source_free(&p->source);
}

/* The run's variants: the built-ins it names, then its custom kernels. */
static int plan_variants(struct run_plan *p, struct wl_error *why)
{
	json_t *variants = json_object_get(p->request, "variants");
	json_t *kernels = json_object_get(p->request, "kernels");
	size_t nbuiltin = json_array_size(variants), total = nbuiltin + json_array_size(kernels);

	p->variants = calloc(total + 1, sizeof(*p->variants));
	p->defs = calloc(total + 1, sizeof(*p->defs));
	if (!p->variants || !p->defs) {
		wl_error_set(why, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < total; k++) {
		struct run_variant *rv = &p->variants[k];
		const json_t *custom = k < nbuiltin ? NULL : json_array_get(kernels, k - nbuiltin);
		const char *id = custom ? json_string_value(json_object_get(custom, "like")) :
			json_string_value(json_array_get(variants, k));
		const struct wl_variant_def *def = id ? wl_experiment_variant(p->exp, id, NULL) : NULL;

		if (!def) {
			wl_error_set(why, WL_ERR_CONFIG, "variant '%s' is not in this runner's catalog",
				     id ? id : "?");
			return -1;
		}
		rv->def = *def;
		rv->name = def->id;
		p->nvariants++;
		if (custom) {
			rv->custom = 1;
			rv->name = json_string_value(json_object_get(custom, "name"));
			rv->def.kernel = (char *)json_string_value(json_object_get(custom, "entry"));
			if (!rv->name || !rv->def.kernel ||
			    wl_source_from_text(json_string_value(json_object_get(custom, "source")),
						&rv->source, why) < 0) {
				wl_error_set(why, WL_ERR_CONFIG, "custom kernel %zu of the request is malformed",
					     k - nbuiltin);
				return -1;
			}
		}
		p->defs[k] = &rv->def;
	}
	return 0;
}

/* The run's provenance: the family source's hash, and when the run has custom
 * kernels "+" a hash over their names and sources, so the recorded hash
 * changes whenever any code that ran changes. */
static void plan_source_hash(struct run_plan *p)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int any = 0;

	for (size_t k = 0; k < p->nvariants; k++) {
		const struct run_variant *rv = &p->variants[k];

		if (!rv->custom)
			continue;
		any = 1;
		h ^= wl_fnv1a64(rv->name, strlen(rv->name) + 1);
		h *= 0x100000001b3ULL;
		h ^= wl_fnv1a64(rv->source.text, rv->source.len);
		h *= 0x100000001b3ULL;
	}
	if (any)
		snprintf(p->source_hash, sizeof(p->source_hash), "%s+%016llx", p->source.hash,
			 (unsigned long long)h);
	else
		snprintf(p->source_hash, sizeof(p->source_hash), "%s", p->source.hash);
}

/* Fill plan from the claim; a failure is the run's failure message. */
static int plan_run(struct wl_executor *ex, const struct wl_claim *claim, struct run_plan *p,
		    struct wl_error *why)
{
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
	if (plan_variants(p, why) < 0)
		return -1;
	p->repeat = json_integer_value(json_object_get(p->request, "repeat"));
	p->seed = (unsigned long long)json_integer_value(json_object_get(p->request, "seed"));
	if (p->repeat < 1)
		p->repeat = 1;
	snprintf(path, sizeof(path), "%s/%s", ex->kernels_dir, p->exp->source);
	if (wl_source_load(path, &p->source, why) < 0)
		return -1;
	plan_source_hash(p);
	return 0;
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
	/* The family's source is kept by its hash, so the run's page can show the
	 * built-in kernels as they were when it ran. */
	if (wl_store_put_source(ex->store, plan.source.hash, plan.exp->source, plan.source.text, err) < 0 ||
	    wl_store_set_run_provenance(ex->store, claim->id, plan.source_hash, ex->version, err) < 0)
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
				     wl_point_deadline(plan.exp, plan.defs, plan.nvariants, pt.values,
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
