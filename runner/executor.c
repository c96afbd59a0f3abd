/* The executor: from a claimed run to its results. Points are the outer loop
 * and variants the inner one, so inputs and the CPU reference are prepared once
 * per point and the charts fill in evenly while a run progresses. */
#include "executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_log.h"
#include "cache_probe.h"
#include "checker.h"
#include "experiment.h"
#include "log.h"
#include "nvml.h"
#include "device_fit.h"
#include "points.h"
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
			    double per_variant_s, long long max_s)
{
	double seconds = 60;

	for (size_t k = 0; k < nvariants; k++) {
		double work = wl_variant_cost(exp, variants[k], exp->metric == WL_METRIC_BANDWIDTH ?
								WL_COST_BYTES : WL_COST_OPS, values);
		double host = wl_variant_cost(exp, variants[k], WL_COST_MEMORY, values);

		seconds += 1 + (double)(repeat + warmup) * work / WL_FLOOR_RATE + host / WL_FLOOR_RATE +
			   per_variant_s;
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
	/* A failure may quote a build log: no host path goes into the store. */
	char *shown = msg ? wl_build_log_for_users(msg) : NULL;
	int rc = wl_store_finish_run(ex->store, ex->runner_id, id, status, shown ? shown : msg, err);

	if (rc == 0 && msg)
		wl_log_info("run %lld %s: %s", id, status, msg);
	else if (rc == 0)
		wl_log_info("run %lld %s", id, status);
	free(shown);
	return rc;
}

/* The result row of one measurement at pt; params_text is the point's. */
static void measurement_row(const struct wl_point *pt, const struct run_variant *rv,
			    const char *params_text, const struct wl_measurement *m,
			    struct wl_result_row *row)
{
	const struct wl_variant_def *v = &rv->def;

	*row = (struct wl_result_row){
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
		.ci_low_ms = m->stats.ci_low,
		.ci_high_ms = m->stats.ci_high,
		.spread = wl_stats_rel_spread(&m->stats),
		.stopped = m->reps ? wl_stop_name(m->stop) : NULL,
		.discarded = m->discarded,
		.samples = m->reps ? m->samples : NULL,
	};
	if (pt->exp->metric == WL_METRIC_BANDWIDTH)
		row->bytes = m->bytes > 0 ? m->bytes : wl_variant_cost(pt->exp, v, WL_COST_BYTES, pt->values);
	else
		row->ops = m->ops > 0 ? m->ops : wl_variant_cost(pt->exp, v, WL_COST_OPS, pt->values);
}

/* A custom kernel's measurement ended in an error (it did not build, or its
 * launch failed): that fails its point, not the run. The text of its result,
 * with the whole build log where there is one; NULL when out of memory. */
static char *custom_failure_text(struct wl_executor *ex, const struct wl_point *pt,
				 const struct run_variant *rv, const struct wl_error *why)
{
	char *text = NULL, *shown;

	if (why->kind == WL_ERR_BUILD) {
		if (asprintf(&text, "custom kernel '%s' did not build on %s (options as for '%s'); build log:\n%s",
			     rv->name, pt->dev->id, rv->def.id, wl_program_cache_build_log(ex->programs)) < 0)
			text = NULL;
	} else if (asprintf(&text, "custom kernel '%s' failed: %s", rv->name, why->msg) < 0) {
		text = NULL;
	}
	shown = text ? wl_build_log_for_users(text) : NULL;
	free(text);
	return shown;
}

/* A point's results as they are measured, written a few at a time: a fast
 * sweep commits (and syncs the store) about once per point rather than once
 * per variant, while a slow variant still shows within RECORD_EVERY_MS of
 * being measured. */
#define RECORD_EVERY_MS 250.0

struct point_results {
	struct wl_measurement *ms;	/* one per variant */
	char **failures;		/* a custom kernel's failure text, or NULL */
	size_t recorded;		/* variants [0, recorded) are in the store */
	double last_ms;			/* when they were last written */
};

/* Write variants [pr->recorded, upto) in one transaction; their checks must
 * have ended. */
static int record_results(struct wl_executor *ex, long long run_id, const struct wl_point *pt,
			  const struct run_variant *variants, const char *params_text,
			  struct point_results *pr, size_t upto, struct wl_error *err)
{
	struct wl_result_row *rows;
	double started = wl_now_ms();
	size_t n = upto - pr->recorded;
	int rc;

	if (n == 0)
		return 0;
	rows = calloc(n, sizeof(*rows));
	if (!rows) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = pr->recorded + i;

		if (pr->failures[k])
			rows[i] = (struct wl_result_row){ .variant = variants[k].name,
							  .params_json = params_text,
							  .error = pr->failures[k] };
		else
			measurement_row(pt, &variants[k], params_text, &pr->ms[k], &rows[i]);
	}
	rc = wl_store_add_results(ex->store, ex->runner_id, run_id, rows, n, err);
	free(rows);
	if (rc == 0)
		pr->recorded = upto;
	pr->last_ms = wl_now_ms();
	wl_budget_add(pt->budget, WL_PHASE_STORE, started);
	return rc;
}

/* Until the background check in progress has ended (only if it is m's, when m
 * is not NULL); the wait counts as verification. */
static void wait_checks(const struct wl_point *pt, const struct wl_measurement *m)
{
	double started = wl_now_ms();

	if (!pt->checker)
		return;
	if (m)
		wl_checker_wait_for(pt->checker, m);
	else
		wl_checker_wait(pt->checker);
	wl_budget_add(pt->budget, WL_PHASE_VERIFY, started);
}

/* The buffer a cold point writes before each launch, sized from the device's
 * measured cache; flush->buf stays NULL for a hot run. */
static int flush_alloc(const struct wl_point *pt, int cold, size_t max, struct wl_flush *flush,
		       struct wl_error *err)
{
	json_t *cache = json_object_get(pt->dev->info, "cache");

	memset(flush, 0, sizeof(*flush));
	if (!cold)
		return 0;
	flush->bytes = wl_cache_flush_bytes(pt->dev, json_integer_value(json_object_get(cache, "bytes")), max);
	return wl_point_buffer(pt, CL_MEM_READ_WRITE, flush->bytes, NULL, &flush->buf, err);
}

/* After a custom kernel's launch failed the device's context may be unusable
 * (NVIDIA loses it on an illegal address): start afresh and prepare the point
 * again for the variants after it. */
static int reset_point(struct wl_executor *ex, const struct wl_experiment_ops *ops,
		       struct wl_point *pt, void **state, int cold, struct wl_flush *flush,
		       struct wl_error *err)
{
	ops->teardown(*state);
	*state = NULL;
	wl_mem_release(&flush->buf);
	wl_program_cache_drop_device(ex->programs, pt->dev);
	wl_cl_device_close(pt->dev);
	if (wl_cl_device_open(pt->dev, err) < 0 || flush_alloc(pt, cold, ex->flush_max, flush, err) < 0)
		return -1;
	return ops->setup(pt, state, err);
}

/* Measure every variant at one point; -1 with err set stops the run, and
 * *store_failed says whether the store (not the device) was at fault. */
static int run_point(struct wl_executor *ex, long long run_id, const struct wl_experiment_ops *ops,
		     struct wl_point *pt, const struct run_variant *variants, size_t nvariants,
		     int cold, const json_t *params, int *store_failed, struct wl_error *err)
{
	struct point_results pr = { .last_ms = wl_now_ms() };
	char *params_text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	struct wl_time_budget *b = pt->budget;
	struct wl_flush flush;
	void *state = NULL;
	double t0, counted;
	size_t k;
	int rc = -1;

	memset(&flush, 0, sizeof(flush));
	pr.ms = calloc(nvariants, sizeof(*pr.ms));
	pr.failures = calloc(nvariants, sizeof(*pr.failures));
	if (!params_text || !pr.ms || !pr.failures) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	if (flush_alloc(pt, cold, ex->flush_max, &flush, err) < 0)
		goto out;
	pt->flush = flush.buf ? &flush : NULL;
	/* Setup's own time, less the builds and transfers counted inside it, is
	 * the inputs and the CPU reference. */
	t0 = wl_now_ms();
	counted = b->ms[WL_PHASE_BUILD] + b->ms[WL_PHASE_TRANSFER];
	if (ops->setup(pt, &state, err) < 0)
		goto out;
	b->ms[WL_PHASE_INPUTS] += wl_now_ms() - t0 - (b->ms[WL_PHASE_BUILD] + b->ms[WL_PHASE_TRANSFER] - counted);
	for (k = 0; k < nvariants; k++) {
		const struct run_variant *rv = &variants[k];
		struct wl_measurement *m = &pr.ms[k];
		struct wl_point vpt = *pt;
		struct wl_error why;
		int measured;

		wl_error_clear(&why);
		if (rv->custom) {
			char where[200];

			/* Someone else's code may kill the process: what was
			 * measured before it is written first. */
			wait_checks(pt, NULL);
			if (record_results(ex, run_id, pt, variants, params_text, &pr, k, err) < 0) {
				*store_failed = 1;
				goto out;
			}

			wl_point_text(pt->exp, pt->values, where, sizeof(where));
			vpt.source = &rv->source;
			vpt.family = pt->source;
			vpt.like_kernel = wl_experiment_variant(pt->exp, rv->def.id, NULL)->kernel;
			if (ex->on_custom)
				ex->on_custom(ex->hook_ctx, rv->name, where);
		}
		/* Likewise measure's time less builds, transfers and launches is
		 * the verification (a check left running in the background is
		 * counted where it is waited for). */
		t0 = wl_now_ms();
		counted = b->ms[WL_PHASE_BUILD] + b->ms[WL_PHASE_TRANSFER] + b->ms[WL_PHASE_LAUNCH];
		measured = ops->measure(&vpt, state, &rv->def, m, &why);
		b->ms[WL_PHASE_VERIFY] += wl_now_ms() - t0 -
			(b->ms[WL_PHASE_BUILD] + b->ms[WL_PHASE_TRANSFER] + b->ms[WL_PHASE_LAUNCH] - counted);
		if (rv->custom && ex->on_custom)
			ex->on_custom(ex->hook_ctx, NULL, NULL);
		if (measured < 0 && rv->custom) {
			wl_log_info("run %lld: custom kernel %s: %s", run_id, rv->name, why.msg);
			pr.failures[k] = custom_failure_text(ex, pt, rv, &why);
			if (!pr.failures[k]) {
				wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
				goto out;
			}
			/* Launch and memory errors may have broken the context;
			 * a build or signature problem leaves it as it was. The
			 * results so far are written first: they need the
			 * point's memory, which a reset frees. */
			if (why.kind == WL_ERR_INTERNAL) {
				wait_checks(pt, NULL);
				if (record_results(ex, run_id, pt, variants, params_text, &pr, k + 1, err) < 0) {
					*store_failed = 1;
					goto out;
				}
				if (reset_point(ex, ops, pt, &state, cold, &flush, err) < 0)
					goto out;
			}
			continue;
		}
		if (measured < 0) {
			wl_error_set(err, why.kind, "%s: %s", rv->name, why.msg);
			break;
		}
		/* A prediction belongs to the built-in pattern, not to the code
		 * that stands in for it. */
		if (rv->custom)
			m->extra[0] = '\0';
		/* Variants before this one have been checked once this one's
		 * check has started (or ran); write them now and then. */
		if (k > 0 && wl_now_ms() - pr.last_ms >= RECORD_EVERY_MS) {
			wait_checks(pt, &pr.ms[k - 1]);
			if (record_results(ex, run_id, pt, variants, params_text, &pr, k, err) < 0) {
				*store_failed = 1;
				goto out;
			}
		}
	}
	wait_checks(pt, NULL);
	if (k < nvariants) {
		struct wl_error ignored;

		/* A variant stopped the run (err says why); what was measured
		 * before it stands, as far as it can be written. */
		record_results(ex, run_id, pt, variants, params_text, &pr, k, &ignored);
		goto out;
	}
	if (record_results(ex, run_id, pt, variants, params_text, &pr, k, err) < 0) {
		*store_failed = 1;
		goto out;
	}
	rc = 0;
out:
	wait_checks(pt, NULL);
	ops->teardown(state);
	wl_mem_release(&flush.buf);
	for (size_t i = 0; pr.failures && i < nvariants; i++)
		free(pr.failures[i]);
	free(pr.failures);
	free(pr.ms);
	free(params_text);
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
	int cold;			/* flush the cache before each timed launch */
	int noise_driven;		/* else exactly repeat launches (older requests) */
	struct wl_sampling sampling;
	struct wl_time_budget budget;
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
	for (size_t k = 0; ex->unconfined && k < p->nvariants; k++)
		if (p->variants[k].custom) {
			wl_error_set(why, WL_ERR_CONFIG,
				     "custom kernel '%s' not run: this runner cannot confine the kernels it builds (%s), so it runs none but the catalog's; docs/operations.md, \"Other people's kernels\", says what to do",
				     p->variants[k].name, ex->unconfined);
			return -1;
		}
	p->repeat = json_integer_value(json_object_get(p->request, "repeat"));
	p->seed = (unsigned long long)json_integer_value(json_object_get(p->request, "seed"));
	if (p->repeat < 1)
		p->repeat = 1;
	if (p->repeat > WL_REPEAT_MAX)
		p->repeat = WL_REPEAT_MAX;
	/* Requests queued before sampling was driven by noise have neither field:
	 * they ran hot, exactly repeat times. */
	p->cold = json_is_string(json_object_get(p->request, "cache")) &&
		  strcmp(json_string_value(json_object_get(p->request, "cache")), "cold") == 0;
	p->noise_driven = json_object_get(p->request, "noise") != NULL;
	p->sampling.max_samples = (size_t)p->repeat;
	p->sampling.min_samples = WL_MIN_SAMPLES < p->repeat ? WL_MIN_SAMPLES : (size_t)p->repeat;
	p->sampling.target = json_number_value(json_object_get(p->request, "noise"));
	p->sampling.budget_ms = (double)json_integer_value(json_object_get(p->request, "budget_ms"));
	snprintf(path, sizeof(path), "%s/%s", ex->kernels_dir, p->exp->source);
	if (wl_source_load(path, &p->source, why) < 0)
		return -1;
	plan_source_hash(p);
	return 0;
}

/* The bytes each cold launch of the run writes first, 0 for a hot run. */
static size_t plan_flush_bytes(const struct run_plan *p, const struct wl_cl_device *dev, size_t flush_max)
{
	return p->cold ? wl_cache_flush_bytes(dev, json_integer_value(json_object_get(
					      json_object_get(dev->info, "cache"), "bytes")), flush_max) : 0;
}

/* Each variant's sampling budget, and its cache flushes at the floor rate. */
static double plan_extra_seconds(const struct run_plan *p, const struct wl_cl_device *dev,
				 long long warmup, size_t flush_max)
{
	double flush = (double)plan_flush_bytes(p, dev, flush_max);
	double budget = p->noise_driven ? p->sampling.budget_ms / 1000 : 0;

	return budget + (double)(p->repeat + warmup) * flush / WL_FLOOR_RATE;
}

/* Record where the run's time went, from its start to now. */
static int record_budget(struct wl_executor *ex, long long run_id, struct wl_time_budget *b,
			 double started, struct wl_error *err)
{
	json_t *o;
	char *text;
	int rc;

	b->total_ms = wl_now_ms() - started;
	o = wl_budget_json(b);
	text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
	json_decref(o);
	if (!text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	rc = wl_store_set_run_budget(ex->store, run_id, text, err);
	free(text);
	if (rc == 0)
		wl_log_info("run %lld: %.0f ms, of which kernels %.1f ms", run_id, b->total_ms, b->kernel_ms);
	return rc;
}

/* Record the GPU's state (NVML) at the run's start (end NULL) or end. */
static int record_clocks(struct wl_executor *ex, long long run_id, const struct wl_cl_device *dev,
			 size_t flush_bytes, json_t **start, struct wl_error *err)
{
	json_t *clocks;
	char *text;
	int rc;

	if (!dev->nvml) {
		clocks = json_pack("{s:b, s:O}", "available", 0, "why", json_object_get(dev->info, "clocks"));
	} else if (!*start) {
		*start = wl_nvml_state(dev->nvml);
		clocks = json_pack("{s:b, s:f, s:O}", "available", 1, "peak_gbps", wl_nvml_peak_gbps(dev->nvml),
				   "start", *start);
	} else {
		clocks = json_pack("{s:b, s:f, s:O, s:o}", "available", 1, "peak_gbps",
				   wl_nvml_peak_gbps(dev->nvml), "start", *start, "end", wl_nvml_state(dev->nvml));
	}
	text = clocks ? json_dumps(clocks, JSON_COMPACT) : NULL;
	json_decref(clocks);
	if (!text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	rc = wl_store_set_run_clocks(ex->store, run_id, text, (long long)flush_bytes, err);
	free(text);
	return rc;
}

int wl_executor_run(struct wl_executor *ex, const struct wl_claim *claim, struct wl_error *err)
{
	struct run_plan plan;
	struct wl_error why;
	json_t *clocks_start = NULL;
	double started = wl_now_ms();
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
	    wl_store_set_run_provenance(ex->store, claim->id, plan.source_hash, ex->version, err) < 0 ||
	    record_clocks(ex, claim->id, plan.dev, plan_flush_bytes(&plan, plan.dev, ex->flush_max),
			  &clocks_start, err) < 0)
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
			.sampling = plan.noise_driven ? &plan.sampling : NULL,
			.budget = &plan.budget,
			.checker = ex->checker,
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
						       plan.repeat, ex->warmup, plan_extra_seconds(&plan, plan.dev, ex->warmup, ex->flush_max),
						       ex->point_timeout_max));
		if (run_point(ex, claim->id, plan.ops, &pt, plan.variants, plan.nvariants, plan.cold,
			      params, &store_failed, &why) < 0) {
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
	if (record_clocks(ex, claim->id, plan.dev, plan_flush_bytes(&plan, plan.dev, ex->flush_max),
			  &clocks_start, err) < 0 || record_budget(ex, claim->id, &plan.budget, started, err) < 0)
		goto out;
	rc = finish(ex, claim->id, "done", NULL, err);
out:
	json_decref(clocks_start);
	plan_free(&plan);
	return rc;
}
