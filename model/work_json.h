/* What one work-group asks (ceilings.h's struct wl_launch_work) as JSON and
 * back: how a trace's counts travel from the runner that counted them,
 * through the store, to the model that predicts from them. */
#ifndef WL_WORK_JSON_H
#define WL_WORK_JSON_H

#include <jansson.h>

#include "ceilings.h"
#include "warp_model.h"

/* w as a JSON object; NULL only when out of memory. */
json_t *wl_work_to_json(const struct wl_launch_work *w);

/* obj (as wl_work_to_json writes it) into *out, zeroing what it lacks.
 * Returns 1 when obj held a work-group's counts (its groups and items),
 * else 0. */
int wl_work_from_json(const json_t *obj, struct wl_launch_work *out);

/* A stored trace's figures ({"lanes", "traced": {"efficiency",
 * "sectors_per_request", "conflict_degree", "work"}}, as runner/trace/trace.c
 * writes them) as the prediction the model predicts from. Returns 1 where
 * they hold what one work-group asks (then out->work is set and the
 * ceilings apply), 0 where only the per-request figures (a trace stored
 * before its counts were). */
int wl_traced_prediction(const json_t *figures, struct wl_prediction *out);

#endif
