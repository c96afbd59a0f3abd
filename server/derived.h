/* Figures the server derives from a run's stored results, so that every client
 * (the dashboard, scripts) reads the same numbers:
 * - slowdown: each result against its experiment's baseline point (banks: c = 1);
 * - drops: points of a sweep well below their neighbours (transpose: partition
 *   camping), labelled with the largest power of two dividing the swept value;
 * - ceiling: the device's copy bandwidth as of the run's end, and each result's
 *   share of it;
 * - prediction: the memory-access model's figures beside each result;
 * - energy: joules per launch as picojoules per useful and per moved byte
 *   (energy_view.h);
 * - verdict: who won, by how much and why (verdict.h). */
#ifndef WL_DERIVED_H
#define WL_DERIVED_H

#include <jansson.h>

#include "catalog.h"
#include "store.h"

/* Add "slowdown" (median_ms over the baseline's median_ms; null where the run
 * has no such baseline) to every result of run, when exp declares a baseline.
 * Results are matched on variant and every other parameter. */
int wl_run_add_slowdown(const struct wl_experiment *exp, json_t *run);

/* Add "drops" to run when exp declares a drops param: an array of {"variant",
 * "params", "value", "gbps" (or "gops"), "trend", "below_pct", "pow2"}, one per
 * verified point more than the threshold below both neighbours of its sweep
 * (same variant and other params, in the swept param's order); null until
 * the run is finished and a sweep has three points or more. */
int wl_run_add_drops(const struct wl_experiment *exp, json_t *run);

/* Add "ceiling" (wl_store_copy_ceiling of cat's built-in copy variants as
 * of the run's end, or null) and, for bandwidth results, "ceiling_pct", and
 * "peak_pct" where the run recorded the GPU's theoretical peak
 * (clocks.peak_gbps). */
int wl_run_add_ceiling(const struct wl_experiment *exp, const struct wl_catalog *cat, struct wl_store *st,
		       json_t *run, struct wl_error *err);

/* Add "variants" to run: every variant it measures, in its table's order — the
 * built-ins it names, then its custom kernels — as {"id", "title", "custom"}
 * (and "like" for a custom one); mark each result "custom" true or false
 * and give it "like": the built-in whose harness ran it (its own id for a
 * built-in). */
int wl_run_add_variants(const struct wl_experiment *exp, json_t *run);

/* Add "<metric>_low" and "<metric>_high" (the rate's 95% interval, from the
 * interval of the median time) and "ci_pct" (its half-width in % of the
 * median) to every result; null where a result has no interval. */
int wl_run_add_intervals(const struct wl_experiment *exp, json_t *run);

/* Add "in_cache" to every result: true in a hot run when the point's working
 * set (the variant's memory formula) fits in the device's measured cache. */
int wl_run_add_cache_marks(const struct wl_experiment *exp, json_t *run);

/* Whether a run's status is final: its measurements never change again. */
int wl_run_is_finished(const json_t *run);

/* Whether a run is finished and nothing more follows it: no trace still
 * coming ("explain": "pending"), so its stream may end. */
int wl_run_is_settled(const json_t *run);

/* Whether a derived run will read the same from now on: settled, and no
 * prediction still being computed (so its body may be cached). */
int wl_run_is_final(const json_t *run);

/* All of the above, the warps each variant keeps resident (build_view.h,
 * from the architecture limits gpu_limits, or NULL), each result's
 * prediction (predictions.h), counts (counted_view.h) and energy
 * (energy_view.h). Each of these returns -1 only when out of
 * memory (wl_run_add_ceiling and this one also when the store fails, err
 * set); run may then hold some of the figures and is for freeing, not for
 * showing. */
int wl_run_derive(const struct wl_experiment *exp, const struct wl_catalog *cat, struct wl_store *st, json_t *run,
		  struct wl_error *err);

#endif
