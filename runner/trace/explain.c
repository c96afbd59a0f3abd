/* The runner's idle time spent on done runs' traces (see explain.h). */
#include "explain.h"

#include <stdlib.h>

#include "backend.h"
#include "device.h"
#include "counts_write.h"
#include "log.h"
#include "run_traces.h"
#include "time_budget.h"

struct waiting {
	struct wl_store *st;
	const struct wl_claim_devices *devs;
};

/* Whether a run is queued for the runner's devices: the traces then wait.
 * A store that cannot say lets the traces go on. */
static int run_waiting(void *ctx)
{
	const struct waiting *w = ctx;
	struct wl_error err;
	int waiting = 0;

	if (wl_store_run_waiting(w->st, w->devs, &waiting, &err) < 0)
		wl_log_warn("explain: %s", err.msg);
	return waiting;
}

int wl_explain_counts(struct wl_executor *ex, const struct wl_claim_devices *devs, struct wl_error *err)
{
	struct wl_device *dev = ex->devs->count ? &ex->devs->list[0] : NULL;
	const struct wl_backend *be = dev ? wl_device_deferring(dev) : NULL;
	const struct wl_counted *settled;
	struct waiting w = { ex->store, devs };

	if (!be || (!be->deferred->waiting(dev, 0) && !be->deferred->settled(dev, &settled)))
		return 0;
	if (run_waiting(&w))
		return 1;
	if (ex->on_point)
		ex->on_point(ex->hook_ctx, 0, be->deferred->seconds(dev, be->deferred->session_max));
	be->deferred->profile(dev, be->deferred->session_max);
	/* Its runs are traced next, where the runner traces. */
	return wl_counts_write(ex->store, dev, 0, be->traced && !ex->trace_off, err) < 0 ? -1 : 1;
}

/* A run still pending whose results say their counters are coming, when
 * this worker holds none: the runner that left them waiting stopped (its
 * worker's memory went with it). Each result says so; -1 with err. */
static int counters_orphaned(struct wl_store *st, long long run_id, struct wl_error *err)
{
	char now[256];
	long long changed;

	wl_counts_error_extra("not profiled: the runner stopped before profiling them", now, sizeof(now));
	if (wl_store_replace_result_extras(st, run_id, WL_COUNTS_PENDING, now, &changed, err) < 0)
		return -1;
	if (changed)
		wl_log_info("run %lld: %lld results' counters were lost with a stopped runner", run_id, changed);
	return 0;
}

int wl_explain_next(struct wl_executor *ex, const struct wl_claim_devices *devs, struct wl_error *err)
{
	struct waiting w = { ex->store, devs };
	const struct wl_trace_setup setup = { ex->kernels_dir, ex->trace_seconds, ex->trace_memory, run_waiting,
					      &w };
	struct wl_claim claim;
	struct wl_run_plan plan = { 0 };
	struct wl_error why;
	double started = wl_now_ms();
	int rc, planned;

	if (wl_store_next_to_explain(ex->store, devs, &claim, err) < 0)
		return -1;
	if (claim.id == 0)
		return 0;
	if (counters_orphaned(ex->store, claim.id, err) < 0) {
		wl_claim_free(&claim);
		return -1;
	}
	wl_error_clear(&why);
	planned = wl_run_plan_make(ex->cat, ex->devs, ex->kernels_dir, ex->unconfined, &claim, &plan, &why) == 0;
	if (planned && !plan.backend->traced) {
		/* A backend whose kernels are not traced: its counters were
		 * what was coming. */
		rc = wl_store_set_explain(ex->store, claim.id, "done", wl_now_ms() - started, err);
		wl_run_plan_free(&plan);
		wl_claim_free(&claim);
		return rc < 0 ? -1 : 1;
	}
	if (ex->trace_off || !planned) {
		/* Nothing this runner can trace (the catalog or the runner
		 * changed since the run was measured): nothing more is coming. */
		wl_log_info("run %lld: not explained: %s", claim.id, ex->trace_off ? ex->trace_off : why.msg);
		rc = wl_store_set_explain(ex->store, claim.id, "failed", wl_now_ms() - started, err);
		wl_run_plan_free(&plan);
		wl_claim_free(&claim);
		return rc < 0 ? -1 : 1;
	}
	if (ex->on_point)
		ex->on_point(ex->hook_ctx, claim.id, wl_run_trace_seconds(&setup, &plan));
	rc = wl_run_trace(&setup, ex->store, claim.id, &plan, err);
	if (rc >= 0) {
		const char *state = rc == 1 ? "pending" : "done";

		wl_log_info("run %lld: explained%s in %.0f ms", claim.id, rc == 1 ? " in part (a run waits)" : "",
			    wl_now_ms() - started);
		rc = wl_store_set_explain(ex->store, claim.id, state, wl_now_ms() - started, err) < 0 ? -1 : 1;
	}
	wl_run_plan_free(&plan);
	wl_claim_free(&claim);
	return rc;
}

/* The catalog's experiments at their defaults, traced while idle: the
 * first run of a form's defaults finds its built-ins' traces kept. How far
 * this worker has come (its lifetime: a new worker, say of a new version,
 * looks again, and what is kept costs a read). */
static size_t catalog_next;

int wl_explain_catalog(struct wl_executor *ex, const struct wl_claim_devices *devs, struct wl_error *err)
{
	struct waiting w = { ex->store, devs };
	const struct wl_trace_setup setup = { ex->kernels_dir, ex->trace_seconds, ex->trace_memory, run_waiting,
					      &w };

	if (ex->trace_off || !ex->catalog_traces || catalog_next >= ex->cat->nexperiments || devs->nids == 0)
		return 0;
	while (catalog_next < ex->cat->nexperiments) {
		const struct wl_experiment *e = &ex->cat->experiments[catalog_next];
		struct wl_run_plan plan;
		struct wl_error why;
		int rc = 0;

		if (run_waiting(&w))
			return 1;
		if (wl_run_plan_defaults(ex->cat, ex->devs, ex->kernels_dir, e, devs->ids[0], &plan, &why) == 0 &&
		    plan.backend->traced) {
			if (ex->on_point)
				ex->on_point(ex->hook_ctx, 0, wl_run_trace_seconds(&setup, &plan));
			rc = wl_run_trace(&setup, ex->store, 0, &plan, err);
		}
		wl_run_plan_free(&plan);
		if (rc < 0)
			return -1;
		if (rc == 1)
			return 1;
		catalog_next++;
	}
	wl_log_info("catalog: every experiment's built-ins traced at their defaults, kept for the lab");
	return 1;
}
