/* A run that tunes: which of its params form the space of settings searched
 * at each size (the others stay the ordinary sweep), the restrictions
 * between params that every measured configuration must meet, and how the
 * space is searched — every allowed configuration ("exhaustive"), a budget
 * of them drawn at random with the run's seed ("random"), or the budget the
 * model ranks best ("model": the server ranks the space when the run is
 * queued, analysis.h's wl_tuning_rank, and the normalized request carries
 * what it chose, "chosen", best first). Validated
 * from a request into its normalized form, and applied to a run's points
 * (points.h): the server and the runner expand the same points from it. */
#ifndef WL_TUNING_H
#define WL_TUNING_H

#include <jansson.h>

#include "catalog.h"
#include "error.h"
#include "point_rows.h"

#define WL_TUNE_SPACE_MAX 100000	/* configurations of one size's space */
#define WL_RESTRICT_MAX 16		/* restrictions in one request */
#define WL_TUNE_RANK_S 10		/* the most the model may take to rank a space */

#define WL_TUNED_MAX 64		/* params a tuned experiment may have */

/* Mark in tuned[] (exp->nparams of them, at most WL_TUNED_MAX) the params a
 * normalized "tune" names. Returns 0, or -1 where exp has more params than
 * that (tuned then all 0). */
int wl_tuned_params(const struct wl_experiment *exp, const json_t *tune, unsigned char *tuned);

/* Whether rows a and b (nparams values each) agree on the params whose
 * tuned[] mark is side: 0, the same size; 1, the same configuration. */
int wl_tuned_agree(const long long *a, const long long *b, size_t nparams, const unsigned char *tuned, int side);

/* Read body's "restrict" (a list of the catalog's expressions over exp's
 * params, each a condition a configuration must meet) and "tune"
 * ({"params": [names], "strategy": "exhaustive" | "random" | "model", "budget": n,
 * "objective": "time" | "energy" | "both"}) into out's "restrict" and "tune",
 * defaults filled in, and out's "energy" true where the objective is not
 * time alone; params the normalized params of the request (their specs). Returns 0
 * (nothing written where body has neither), or -1 with err naming the
 * field, its value and what is allowed; out then partly written. */
int wl_tuning_validate(const struct wl_experiment *exp, const json_t *body, const json_t *params,
		       long long max_list, json_t *out, struct wl_error *err);

/* Apply a normalized request's restrictions and strategy to its points,
 * in place: the points that break a restriction dropped; under "random",
 * at each size (each set of the untuned params' values) at most the budget
 * of what is left, drawn with the request's seed, kept in their order;
 * under "model", the ranking's "chosen" points in its order (before the
 * ranking, the first budget of each size: the same count).
 * Returns 0, or -1 with err where the restrictions leave no point, a
 * chosen point is not among them, or memory runs out (pts then for the
 * caller to free). */
int wl_tuning_select(const struct wl_experiment *exp, const json_t *normalized, struct wl_points *pts,
		     struct wl_error *err);

#endif
