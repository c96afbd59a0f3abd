/* A run's hardware counters while it runs (run_counts.h): the launches a
 * deferring backend (CUDA's CUPTI) keeps to profile together, settled
 * between points where too many wait, given up where the run stops, and
 * written to the store. */
#include "run_counts.h"

#include "backend.h"
#include "counts_write.h"
#include "device.h"
#include "log.h"
#include "time_budget.h"

/* Whether the runs of dev's deferring backend are traced once their
 * counters are in (their explanation then waits for the traces too). */
static int traces_follow(const struct wl_run_counting *c, const struct wl_device *dev)
{
	const struct wl_backend *be = wl_device_deferring(dev);

	return be && be->traced && c->tracing;
}

/* The counters waiting on the run's device (its own launches' and earlier
 * runs'), profiled now where too many wait, too long, or on too much of
 * the device's memory (else they wait for the runner's idle time, see
 * explain.h); what is settled is written. -1 with the store's error. */
int wl_run_settle_counts(const struct wl_run_counting *c, long long run_id, struct wl_run_plan *plan, struct wl_error *err)
{
	const struct wl_backend *be = plan->dev ? wl_device_deferring(plan->dev) : NULL;

	if (!be)
		return 0;
	/* Buffers beyond half the device's memory would crowd the next point
	 * (one that finds too little memory has them profiled and freed
	 * first, see wl_cuda_buffer); a run of another backend, which cannot
	 * ask, finds no more than an eighth kept. */
	if (be->deferred->due(plan->dev, (size_t)(plan->dev->global_mem / (plan->backend == be ? 2 : 8)))) {
		double started = wl_now_ms();

		if (c->on_point)
			c->on_point(c->hook_ctx, run_id, be->deferred->seconds(plan->dev, (size_t)-1));
		be->deferred->profile(plan->dev, (size_t)-1);
		wl_budget_add(&plan->budget, WL_PHASE_COUNTERS, started);
	}
	return wl_counts_write(c->store, plan->dev, run_id, traces_follow(c, plan->dev), err);
}

/* A run that stops early: its launches still waiting are given up (why:
 * each result says so; NULL, its results are gone) and written. */
void wl_run_give_up_counts(const struct wl_run_counting *c, long long run_id, struct wl_run_plan *plan, const char *why)
{
	const struct wl_backend *be = plan->dev ? wl_device_deferring(plan->dev) : NULL;
	struct wl_error ignored;

	if (!be)
		return;
	be->deferred->drop(plan->dev, why, 0, run_id);
	if (wl_counts_write(c->store, plan->dev, run_id, traces_follow(c, plan->dev), &ignored) < 0)
		wl_log_warn("run %lld: counters not written: %s", run_id, ignored.msg);
}

/* Whether the run's counters wait to be profiled together: a CUDA run
 * that counts, without custom kernels (someone else's code is profiled
 * while it is measured, under the supervisor's eye, and alone). */
int wl_run_counts_later(const struct wl_run_plan *plan)
{
	for (size_t k = 0; k < plan->nvariants; k++)
		if (plan->variants[k].custom)
			return 0;
	return plan->counters;
}
