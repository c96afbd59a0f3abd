/* A point's setup — its inputs, the CPU reference, the device buffers —
 * made afresh, or kept from the point before where the family says it
 * serves (experiment.h's reuse): a tuning run's configurations of one size
 * share their inputs, so only the size's first makes them. */
#ifndef WL_POINT_SETUP_H
#define WL_POINT_SETUP_H

#include "experiment.h"
#include "point.h"

/* What the point before left for the next: its state (NULL: none) and the
 * point it was made at. */
struct wl_kept_setup {
	void *state;
	struct wl_point at;
};

/* pt's state into *state: the kept one where ops->reuse says it serves pt,
 * else made by ops->setup (the kept one torn down first), the time of
 * making it counted as the inputs' and the budget's inputs_made counted.
 * Returns 0, or -1 with err (*state NULL, nothing kept). */
int wl_point_setup(const struct wl_experiment_ops *ops, struct wl_kept_setup *keep, const struct wl_point *pt,
		   void **state, struct wl_error *err);

/* After pt's point: state kept for the next where ok and ops can reuse,
 * else torn down. */
void wl_point_setup_done(const struct wl_experiment_ops *ops, struct wl_kept_setup *keep, const struct wl_point *pt,
			 void *state, int ok);

/* The run is over: what is kept, torn down. */
void wl_point_setup_end(const struct wl_experiment_ops *ops, struct wl_kept_setup *keep);

#endif
