/* A run's points whose results wait for their hardware counters (issue 35):
 * measured, verified and torn down, their results written only once the
 * launches they left (cuda_counts.h) have been profiled together. */
#ifndef WL_HELD_POINTS_H
#define WL_HELD_POINTS_H

#include "result_rows.h"

struct wl_held_point {
	struct wl_point pt;		/* a copy: what writing its rows reads */
	char *params_text;
	struct wl_point_results pr;
	size_t nvariants;		/* the run's, which pr's arrays hold */
	size_t upto;			/* variants [0, upto) to write */
};

struct wl_held_points {
	struct wl_held_point *v;
	size_t n, cap;
};

/* Hold a point's results (variants [0, upto) of nvariants), taking
 * *params_text and pr's arrays (the caller's are cleared). -1 with err (out of memory): nothing is
 * taken then. */
int wl_held_points_add(struct wl_held_points *h, const struct wl_point *pt, char **params_text,
		       struct wl_point_results *pr, size_t nvariants, size_t upto, struct wl_error *err);

/* Write every held point's results in order and forget them (all of them,
 * written or not). -1 with the store's error. */
int wl_held_points_record(struct wl_held_points *h, struct wl_store *st, long long runner_id, long long run_id,
			  const struct wl_run_variant *variants, struct wl_error *err);

/* Forget the held points without writing them. */
void wl_held_points_free(struct wl_held_points *h);

#endif
