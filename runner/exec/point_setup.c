/* A point's setup made or kept (see point_setup.h). */
#include "point_setup.h"

#include "time_budget.h"

int wl_point_setup(const struct wl_experiment_ops *ops, struct wl_kept_setup *keep, const struct wl_point *pt,
		   void **state, struct wl_error *err)
{
	struct wl_budget_span span;

	*state = NULL;
	if (keep->state && ops->reuse && ops->reuse(&keep->at, pt, keep->state)) {
		*state = keep->state;
		keep->state = NULL;
		return 0;
	}
	wl_point_setup_end(ops, keep);
	/* Setup's own time, less the builds and transfers counted inside it, is
	 * the inputs and the CPU reference. */
	wl_budget_span_start(pt->budget, &span);
	if (ops->setup(pt, state, err) < 0) {
		*state = NULL;
		return -1;
	}
	wl_budget_span_end(pt->budget, WL_PHASE_INPUTS, &span);
	if (pt->budget)
		pt->budget->inputs_made++;
	return 0;
}

void wl_point_setup_done(const struct wl_experiment_ops *ops, struct wl_kept_setup *keep, const struct wl_point *pt,
			 void *state, int ok)
{
	wl_point_setup_end(ops, keep);
	if (ok && ops->reuse && state) {
		keep->state = state;
		keep->at = *pt;
		return;
	}
	if (state)
		ops->teardown(state);
}

void wl_point_setup_end(const struct wl_experiment_ops *ops, struct wl_kept_setup *keep)
{
	if (keep->state)
		ops->teardown(keep->state);
	keep->state = NULL;
}
