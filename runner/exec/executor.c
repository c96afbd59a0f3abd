/* The executor: from a claimed run to its results. Points are the outer loop
 * and variants the inner one, so inputs and the CPU reference are prepared once
 * per point and the charts fill in evenly while a run progresses. */
#include "executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_log.h"
#include "cancel_watch.h"
#include "checker.h"
#include "backend.h"
#include "device.h"
#include "experiment.h"
#include "log.h"
#include "points.h"
#include "point_setup.h"
#include "result_rows.h"
#include "rng.h"
#include "run_counts.h"

/* How often a shared run's own device looks at the points others measure. */
#define SHARED_WAIT_MS 50

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

/* The buffer a cold point writes before each launch, of bytes (the run
 * plan's wl_run_plan_flush_bytes); flush->buf stays NULL for a hot run (0). */
static int flush_alloc(const struct wl_point *pt, size_t bytes, struct wl_flush *flush, struct wl_error *err)
{
	memset(flush, 0, sizeof(*flush));
	if (!bytes)
		return 0;
	flush->bytes = bytes;
	return wl_point_buffer(pt, WL_BUF_SCRATCH, flush->bytes, NULL, &flush->buf, err);
}

/* The one policy for a lost context, whatever the backend: the backend
 * resets the device (nothing of before kept); where it cannot in this
 * process (CUDA keeps some errors for the life of the process), the worker
 * says why and exits with WL_EXIT_DEVICE_LOST, and its supervisor fails the
 * run and starts a fresh worker. Returns only when the device is usable. */
static void device_reset(struct wl_executor *ex, const struct wl_backend *be, struct wl_device *dev)
{
	struct wl_error err;

	wl_error_clear(&err);
	if (be->reset(dev, ex->programs, &err) == 0)
		return;
	wl_log_error("%s: the device cannot be used again in this process: %s; the device process restarts",
		     dev->id, err.msg);
	_exit(WL_EXIT_DEVICE_LOST);
}

/* Whether a failure with why may have lost be's context. */
static int may_be_lost(const struct wl_backend *be, const struct wl_error *why)
{
	return why->kind == WL_ERR_DEVICE_LOST || (!be->names_loss && why->kind == WL_ERR_INTERNAL);
}

/* After a custom kernel's launch failed the device's context may be unusable
 * (NVIDIA loses it on an illegal address): start afresh and prepare the point
 * again for the variants after it. */
static int reset_point(struct wl_executor *ex, const struct wl_experiment_ops *ops,
		       struct wl_point *pt, void **state, size_t flush_bytes, struct wl_flush *flush,
		       struct wl_error *err)
{
	ops->teardown(*state);
	*state = NULL;
	wl_buf_release(&flush->buf);
	device_reset(ex, pt->backend, pt->dev);
	if (flush_alloc(pt, flush_bytes, flush, err) < 0)
		return -1;
	return ops->setup(pt, state, err);
}

/* One point of a run while its variants are measured. */
struct point_run {
	struct wl_executor *ex;
	long long run_id;
	const struct wl_experiment_ops *ops;
	struct wl_point *pt;
	const struct wl_run_variant *variants;
	size_t nvariants;
	size_t flush_bytes;		/* before each timed launch; 0: hot */
	char *params_text;
	struct wl_point_results pr;
	struct wl_flush flush;
	void *state;
	int store_failed;		/* the store, not the device, stopped the point */
	long long seq_base;		/* the run's results before this point's */
};

/* Write the variants before upto; a failure is the store's. */
static int record_upto(struct point_run *r, size_t upto, struct wl_error *err)
{
	if (wl_point_results_record(r->ex->store, r->ex->runner_id, r->run_id, r->pt, r->variants,
				    r->params_text, &r->pr, upto, err) < 0) {
		r->store_failed = 1;
		return -1;
	}
	return 0;
}

/* Someone else's kernel's first launch (probe) and the point after it:
 * the deadline each has, said to whoever watches. */
static void arm(void *ctx, int probe, long long seconds)
{
	const struct point_run *r = ctx;

	if (probe && r->ex->on_probe)
		r->ex->on_probe(r->ex->hook_ctx, r->run_id, seconds);
	else if (!probe && r->ex->on_point)
		r->ex->on_point(r->ex->hook_ctx, r->run_id, seconds);
}

/* Measure variant k into r->pr.ms[k]; what measure returns, with why. A
 * custom kernel runs in the place of its like variant, after what was
 * measured before it is written: someone else's code may kill the process. */
static int measure_variant(struct point_run *r, size_t k, struct wl_error *why,
			   struct wl_error *err)
{
	const struct wl_run_variant *rv = &r->variants[k];
	struct wl_executor *ex = r->ex;
	struct wl_point vpt = *r->pt;
	struct wl_budget_span span;
	int measured;

	vpt.variant = rv->name;
	vpt.result_seq = r->seq_base + (long long)k + 1;
	if (rv->custom) {
		char where[200];

		wait_checks(r->pt, NULL);
		if (record_upto(r, k, err) < 0)
			return -2;
		wl_point_text(r->pt->exp, r->pt->values, where, sizeof(where));
		vpt.source = &rv->source;
		vpt.family = r->pt->source;
		/* An own experiment's variant stands in for nothing. */
		vpt.like_kernel = rv->own ? NULL : wl_experiment_variant(r->pt->exp, rv->def.id, NULL)->kernel;
		vpt.arm = arm;
		vpt.arm_ctx = r;
		vpt.probe_s = wl_probe_deadline(r->pt->exp, &rv->def, r->pt->values, ex->point_timeout_max);
		if (ex->on_custom)
			ex->on_custom(ex->hook_ctx, rv->name, where);
	}
	/* Measure's time less builds, transfers and launches is the
	 * verification (a check left running in the background is counted
	 * where it is waited for). */
	wl_budget_span_start(r->pt->budget, &span);
	measured = r->ops->measure(&vpt, r->state, &rv->def, &r->pr.ms[k], why);
	wl_budget_span_end(r->pt->budget, WL_PHASE_VERIFY, &span);
	if (rv->custom && ex->on_custom)
		ex->on_custom(ex->hook_ctx, NULL, NULL);
	/* Its extras are the hardware's counts of its own launch (the
	 * prediction beside them is the server's, from its trace). */
	return measured;
}

/* Custom kernel k failed (why): that fails its result, not the run. Launch
 * and memory errors may have broken the context; a build or signature
 * problem leaves it as it was. The results so far are written first: they
 * need the point's memory, which a reset frees. */
static int custom_failed(struct point_run *r, size_t k, const struct wl_error *why,
			 struct wl_error *err)
{
	const struct wl_run_variant *rv = &r->variants[k];

	wl_log_info("run %lld: custom kernel %s: %s", r->run_id, rv->name, why->msg);
	r->pr.failures[k] = wl_custom_failure_text(r->ex->programs, r->pt, rv, why);
	if (!r->pr.failures[k]) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	/* A build or signature problem leaves the context as it was. */
	if (!may_be_lost(r->pt->backend, why))
		return 0;
	wait_checks(r->pt, NULL);
	if (record_upto(r, k + 1, err) < 0)
		return -1;
	return reset_point(r->ex, r->ops, r->pt, &r->state, r->flush_bytes, &r->flush, err);
}

/* Every variant in turn; returns how many were measured before one stopped
 * the run (err says why; -1 when the store or a reset failed). */
static long measure_variants(struct point_run *r, struct wl_error *err)
{
	size_t k;

	for (k = 0; k < r->nvariants; k++) {
		struct wl_error why;
		int measured;

		wl_error_clear(&why);
		/* A cancel stops the point between variants, and a variant cut
		 * short by one is no custom kernel's failure. */
		if (r->pt->cancelled && k > 0 && r->pt->cancelled(r->pt->cancel_ctx)) {
			wl_error_set(err, WL_ERR_CONFLICT, "the run was cancelled");
			break;
		}
		measured = measure_variant(r, k, &why, err);
		if (measured == -2)
			return -1;
		if (measured < 0 && r->pt->cancelled && r->pt->cancelled(r->pt->cancel_ctx)) {
			wl_error_set(err, WL_ERR_CONFLICT, "the run was cancelled");
			break;
		}
		if (measured < 0 && r->variants[k].custom) {
			if (custom_failed(r, k, &why, err) < 0)
				return -1;
			continue;
		}
		if (measured < 0) {
			wl_error_set(err, why.kind, "%s: %s", r->variants[k].name, why.msg);
			break;
		}
		/* Variants before this one have been checked once this one's
		 * check has started (or ran); write them now and then. */
		if (k > 0 && wl_point_results_due(&r->pr)) {
			wait_checks(r->pt, &r->pr.ms[k - 1]);
			if (record_upto(r, k, err) < 0)
				return -1;
		}
	}
	return (long)k;
}

/* Write what the point's variants were built as; a store that refuses it
 * costs the run its compiler's account, not its measurements. */
static void note_builds(struct wl_executor *ex, long long run_id, const struct wl_point *pt)
{
	struct wl_error err;

	if (pt->builds && wl_build_records_flush(pt->builds, ex->store, run_id, &err) < 0)
		wl_log_warn("run %lld: builds not recorded: %s", run_id, err.msg);
}

/* Measure every variant at one point, its results after the run's *rows
 * (placed: at exactly that place, as a shared run's points land in any
 * order); -1 with err set stops the run, and *store_failed says whether the
 * store (not the device) was at fault. */
static int run_point(struct wl_executor *ex, long long run_id, const struct wl_experiment_ops *ops,
		     struct wl_kept_setup *keep, struct wl_point *pt, const struct wl_run_variant *variants,
		     size_t nvariants, size_t flush_bytes, const json_t *params, long long *rows, int placed,
		     int *store_failed, struct wl_error *err)
{
	struct point_run r = { .ex = ex, .run_id = run_id, .ops = ops, .pt = pt,
			       .variants = variants, .nvariants = nvariants, .flush_bytes = flush_bytes,
			       .pr = { .last_ms = wl_now_ms(), .first_seq = placed ? *rows + 1 : 0 },
			       .seq_base = *rows };
	long measured;
	int rc = -1;

	r.params_text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	r.pr.ms = calloc(nvariants, sizeof(*r.pr.ms));
	r.pr.failures = calloc(nvariants, sizeof(*r.pr.failures));
	if (!r.params_text || !r.pr.ms || !r.pr.failures) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	if (flush_alloc(pt, flush_bytes, &r.flush, err) < 0)
		goto out;
	pt->flush = wl_buf_made(&r.flush.buf) ? &r.flush : NULL;
	if (wl_point_setup(ops, keep, pt, &r.state, err) < 0)
		goto out;
	measured = measure_variants(&r, err);
	wait_checks(pt, NULL);
	if (measured >= 0 && (size_t)measured < nvariants) {
		struct wl_error ignored;

		/* A variant stopped the run (err says why); what was measured
		 * before it stands, as far as it can be written. */
		record_upto(&r, (size_t)measured, &ignored);
		goto out;
	}
	if (measured < 0 || record_upto(&r, nvariants, err) < 0)
		goto out;
	rc = 0;
out:
	*store_failed = r.store_failed;
	*rows += (long long)r.pr.recorded;
	wait_checks(pt, NULL);
	note_builds(ex, run_id, pt);
	wl_point_setup_done(ops, keep, pt, r.state, rc == 0);
	wl_buf_release(&r.flush.buf);
	for (size_t i = 0; r.pr.failures && i < nvariants; i++)
		free(r.pr.failures[i]);
	free(r.pr.failures);
	free(r.pr.ms);
	free(r.params_text);
	return rc;
}

/* The run is done; its traces and counters follow (explain.h), and it says
 * they are coming. A runner that cannot trace said so once at start and
 * promises no traces; a CUDA run's launches may leave counters waiting
 * too. */
static int finish_done(struct wl_executor *ex, long long run_id, const struct wl_run_plan *plan,
		       struct wl_error *err)
{
	const struct wl_backend *be = wl_device_deferring(plan->dev);
	int coming = (plan->backend->traced && !ex->trace_off) ||
		     (be && be->deferred->waiting(plan->dev, run_id) > 0);

	if (coming && wl_store_set_explain(ex->store, run_id, "pending", 0, err) < 0)
		return -1;
	return finish(ex, run_id, "done", NULL, err);
}

/* After a run that measured energy: the device's energy facts (energy.h,
 * measured by its first such run) go with its description, for
 * GET /api/devices; a store that refuses costs the page a fact, not the run. */
static void note_energy_facts(struct wl_executor *ex, const struct wl_run_plan *plan)
{
	struct wl_error err;

	if (plan->energy && json_object_get(plan->dev->info, "energy") &&
	    wl_store_upsert_device(ex->store, ex->runner_id, ex->device_slot, plan->dev->info, &err) < 0)
		wl_log_warn("device %s: energy facts not recorded: %s", plan->dev->id, err.msg);
}

/* Before a point: a runner that is stopping requeues the run, a cancel or
 * a device that will not open ends it (the counters its launches wait for
 * are given up); a helper (a device that joined a shared run) just leaves.
 * 0: the point may run; 1: the run ends here with *rc (-1 with err: the
 * store failed). */
/* What counting needs of ex (run_counts.h). */
static struct wl_run_counting counting_of(const struct wl_executor *ex)
{
	return (struct wl_run_counting){ .store = ex->store, .tracing = !ex->trace_off, .on_point = ex->on_point,
					 .hook_ctx = ex->hook_ctx };
}

static int run_ends_before_point(struct wl_executor *ex, long long run_id, struct wl_run_plan *plan, int helper,
				 int *rc, struct wl_error *err)
{
	const struct wl_run_counting counting = counting_of(ex);
	struct wl_error why;
	int cancel = 0;

	*rc = -1;
	if (helper) {
		/* A device that joined leaves between points; the run and its
		 * points are its own device's to settle. */
		*rc = 0;
		if (*ex->stop || wl_store_cancel_requested(ex->store, run_id, &cancel, err) < 0 || cancel)
			return 1;
		wl_error_clear(&why);
		return plan->backend->open(plan->dev, &why) < 0;
	}
	if (*ex->stop) {
		wl_run_give_up_counts(&counting, run_id, plan, NULL);
		*rc = wl_store_requeue_run(ex->store, ex->runner_id, run_id, err);
		if (*rc == 0)
			wl_log_info("run %lld requeued: the runner is stopping", run_id);
		return 1;
	}
	if (wl_store_cancel_requested(ex->store, run_id, &cancel, err) < 0)
		return 1;
	if (cancel) {
		wl_run_give_up_counts(&counting, run_id, plan, "not profiled: the run was cancelled");
		*rc = finish(ex, run_id, "cancelled", "cancelled while running", err);
		return 1;
	}
	wl_error_clear(&why);
	if (plan->backend->open(plan->dev, &why) < 0) {
		wl_run_give_up_counts(&counting, run_id, plan, "not profiled: the run failed");
		*rc = finish(ex, run_id, "failed", why.msg, err);
		return 1;
	}
	return 0;
}

/* Which point comes next, after point *i (-1 before the first): the next;
 * for a shared run the first nobody has taken, and once none is free, the
 * run's own device waits for those others measure, taking any given back.
 * 0 with *i set (-1: none left); 1: the run ended first, *rc as
 * run_ends_before_point says. */
static int next_point(struct wl_executor *ex, const struct wl_claim *claim, struct wl_run_plan *plan,
		      long long *i, int *rc, struct wl_error *err)
{
	if (!claim->shared) {
		if (++*i >= (long long)plan->req.pts.count) {
			*i = -1;
			return 0;
		}
		return run_ends_before_point(ex, claim->id, plan, 0, rc, err);
	}
	for (long waits = 0;; waits++) {
		long long free_points, busy;
		int running;

		if (run_ends_before_point(ex, claim->id, plan, claim->helper, rc, err))
			return 1;
		*rc = -1;
		/* A device that joined works from the end: it and the run's own
		 * device, which builds the programs from the start, meet in the
		 * middle, each having built (or loaded) what it measures. */
		if (wl_store_take_point(ex->store, ex->runner_id, claim->id, plan->dev->id, claim->helper, i, err) < 0)
			return 1;
		if (*i >= 0 || claim->helper)
			return 0;
		if (wl_store_points_left(ex->store, claim->id, &free_points, &busy, &running, err) < 0)
			return 1;
		if (!running) {
			/* A device that joined failed it, saying why. */
			*rc = 0;
			return 1;
		}
		if (!free_points && !busy)
			return 0;
		if (free_points)
			continue;
		/* The supervisor hears each second that the wait may last the
		 * longest point (one that joined and hangs is stopped by its
		 * own supervisor, and its point comes back). */
		if (ex->on_point && waits % (1000 / SHARED_WAIT_MS) == 0)
			ex->on_point(ex->hook_ctx, claim->id, ex->point_timeout_max);
		usleep(SHARED_WAIT_MS * 1000);
	}
}

/* A shared run's point i met an error (msg): the run's own device fails the
 * run, a device that joined fails it too, as the one that found why. */
static int point_failed(struct wl_executor *ex, const struct wl_claim *claim, const char *msg,
			struct wl_error *err)
{
	if (!claim->helper)
		return finish(ex, claim->id, "failed", msg, err);
	wl_log_info("run %lld failed on %s, which joined it: %s", claim->id, claim->device_id, msg);
	return wl_store_fail_shared(ex->store, claim->id, claim->device_id, msg, err);
}

/* What the run's own device records before its first point: the family's
 * source by its hash, so the page shows the kernels as they were (an own
 * experiment's named for it), the runner's version, the clocks, and a
 * shared run's points opened for others. A device that joined records none. */
static int record_start(struct wl_executor *ex, const struct wl_claim *claim, struct wl_run_plan *plan,
			json_t **clocks_start, struct wl_error *err)
{
	if (claim->helper)
		return 0;
	if (wl_store_put_source(ex->store, plan->source.hash,
				plan->exp->own ? plan->exp->id : plan->backend->family_source(plan->exp),
				plan->source.text, err) < 0 ||
	    wl_store_set_run_provenance(ex->store, claim->id, plan->source_hash, ex->version, err) < 0 ||
	    wl_run_record_clocks(ex->store, claim->id, plan->dev, wl_run_plan_flush_bytes(plan, ex->flush_max),
				 clocks_start, err) < 0)
		return -1;
	return claim->shared ? wl_store_open_points(ex->store, claim->id, (long long)plan->req.pts.count,
						    (long long)plan->nvariants, err)
			     : 0;
}

/* Point i of plan, as the families measure it, asking watch whether the
 * run was cancelled meanwhile. */
static struct wl_point point_at(struct wl_executor *ex, struct wl_run_plan *plan, long long run_id, size_t i, int later,
				struct wl_cancel_watch *watch)
{
	return (struct wl_point){ .dev = plan->dev, .exp = plan->exp,
				  .values = plan->req.pts.values + i * plan->req.pts.nparams,
				  .seed = wl_run_plan_point_seed(plan, i), .warmup = ex->warmup, .warm = &plan->warm,
				  .repeat = plan->repeat, .programs = ex->programs, .source = &plan->source,
				  .sampling = plan->noise_driven ? &plan->sampling : NULL, .budget = &plan->budget,
				  .checker = ex->checker, .builds = &plan->builds, .backend = plan->backend,
				  .energy = plan->energy, .uncounted = !plan->counters, .count_later = later,
				  .run_id = run_id, .cancelled = wl_cancel_asked, .cancel_ctx = watch };
}

int wl_executor_run(struct wl_executor *ex, const struct wl_claim *claim, struct wl_error *err)
{
	const struct wl_run_counting counting = counting_of(ex);
	struct wl_run_plan plan;
	struct wl_kept_setup keep = { 0 };
	struct wl_error why;
	long long rows = 0, i = -1;
	json_t *clocks_start = NULL;
	double started = wl_now_ms();
	int rc = -1, later;

	wl_log_info("run %lld (%s) %s on %s, attempt %lld", claim->id, claim->experiment,
		    claim->helper ? "joined" : "started", claim->device_id, claim->attempt);
	wl_error_clear(&why);
	if (wl_run_plan_make(ex->cat, ex->devs, ex->kernels_dir, ex->unconfined, claim, &plan, &why) < 0) {
		rc = claim->helper ? 0 : finish(ex, claim->id, "failed", why.msg, err);
		goto out;
	}
	if (record_start(ex, claim, &plan, &clocks_start, err) < 0)
		goto out;

	later = wl_run_counts_later(&plan);
	if (wl_run_settle_counts(&counting, claim->id, &plan, err) < 0)
		goto out;
	/* A device that joined a shared run builds only what it takes, at its
	 * points: the run's own device builds every program beside its points. */
	if (ex->build_ahead && !claim->helper)
		ex->build_ahead(ex->build_ahead_ctx, &plan);
	for (;;) {
		struct wl_point pt;
		json_t *params;
		int store_failed = 0;
		struct wl_cancel_watch watch = { ex->store, claim->id, wl_now_ms(), 0 };

		if (next_point(ex, claim, &plan, &i, &rc, err))
			goto out;
		if (i < 0)
			break;
		pt = point_at(ex, &plan, claim->id, (size_t)i, later, &watch);
		params = wl_point_to_json(plan.exp, &plan.req.pts, (size_t)i);
		if (!params) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
		pt.point_s = wl_point_deadline(plan.exp, plan.defs, plan.nvariants, pt.values, plan.repeat, ex->warmup,
					       wl_run_plan_extra_seconds(&plan, ex->warmup, ex->flush_max), ex->point_timeout_max);
		if (ex->on_point)
			ex->on_point(ex->hook_ctx, claim->id, pt.point_s);
		/* A shared run's results keep the points' order, whoever measures. */
		if (claim->shared)
			rows = i * (long long)plan.nvariants;
		if (run_point(ex, claim->id, plan.ops, &keep, &pt, plan.variants, plan.nvariants,
			      wl_run_plan_flush_bytes(&plan, ex->flush_max),
			      params, &rows, claim->shared, &store_failed, &why) < 0) {
			char msg[sizeof(why.msg) + 256], where[200];

			json_decref(params);
			wl_run_give_up_counts(&counting, claim->id, &plan, "not profiled: the run failed");
			if (store_failed) {
				/* Nothing more can be recorded; recovery will see to the run. */
				*err = why;
				goto out;
			}
			/* Cut short by a cancel: what was measured before stands. */
			if (watch.cancelled) {
				rc = claim->helper ? 0 : finish(ex, claim->id, "cancelled", "cancelled while running", err);
				goto out;
			}
			wl_point_text(plan.exp, pt.values, where, sizeof(where));
			snprintf(msg, sizeof(msg), "at %s, %s", where, why.msg);
			rc = point_failed(ex, claim, msg, err);
			if (may_be_lost(plan.backend, &why))
				device_reset(ex, plan.backend, plan.dev);
			goto out;
		}
		json_decref(params);
		if (claim->shared && wl_store_point_measured(ex->store, claim->id, i, plan.dev->id, err) < 0)
			goto out;
		if (wl_run_settle_counts(&counting, claim->id, &plan, err) < 0)
			goto out;
	}
	if (claim->helper) {
		rc = 0;
		goto out;
	}
	if (
	    wl_run_record_clocks(ex->store, claim->id, plan.dev, wl_run_plan_flush_bytes(&plan, ex->flush_max),
			  &clocks_start, err) < 0 || wl_run_record_budget(ex->store, claim->id, &plan.budget, started, err) < 0)
		goto out;
	note_energy_facts(ex, &plan);
	rc = finish_done(ex, claim->id, &plan, err);
out:
	if (rc < 0)
		wl_run_give_up_counts(&counting, claim->id, &plan, "not profiled: the run stopped");
	if (keep.state)
		wl_point_setup_end(plan.ops, &keep);
	json_decref(clocks_start);
	wl_run_plan_free(&plan);
	return rc;
}
