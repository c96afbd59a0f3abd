/* A run's points: the values of its params at each measurement, expanded
 * from the normalized request's specs (or the catalog's defaults), and their
 * wording for JSON and for messages. The server expands them to count and
 * check a request; the runner to execute it. */
#ifndef WL_POINTS_H
#define WL_POINTS_H

#include <jansson.h>
#include <stddef.h>

#include "catalog.h"
#include "point_rows.h"
#include "error.h"

/* A run's points (point_rows.h): the last param varying fastest, or in a
 * tuning run's order (tuning.h). */

/* Expand a normalized request's params for exp into *out (caller frees with
 * wl_points_free). Checks the constraints between params (n a multiple of
 * tile). On failure *out is empty (nothing to free) and err says why. */
int wl_request_points(const struct wl_experiment *exp, const json_t *normalized,
		      struct wl_points *out, struct wl_error *err);
void wl_points_free(struct wl_points *pts);

/* The point's values as a JSON object {"n": 256, ...}. Caller owns it. */
json_t *wl_point_to_json(const struct wl_experiment *exp, const struct wl_points *pts, size_t i);

/* The inverse: an object's values in exp's param order into values (nparams
 * of them; what wl_variant_cost and the model take). Returns -1 when obj
 * lacks one of them or it is no integer; values is then partly written. */
int wl_point_from_json(const struct wl_experiment *exp, const json_t *obj, long long *values);

/* "n=8192, tile=32, rows=8": a point's values (one per param of exp) for
 * messages. */
void wl_point_text(const struct wl_experiment *exp, const long long *values, char *buf,
		   size_t len);

#endif
