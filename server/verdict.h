/* Who won a run, by how much and why: the verdict the run page opens with,
 * computed here so the page, a script and the tests read one judgement.
 *
 * At each point the variants (built-in and custom) are compared on their
 * median time — they do the same work there — by the compare page's rule
 * (regressions.h): the fastest is "apart" only when its 95% interval lies
 * below every other's by more than the run's noise target; variants within
 * noise of it are "tied" with it. Beside it: how many times faster it is than
 * the slowest and than the experiment's reference (the variant the lesson
 * starts from: naive, interleaved...), its share of the copy ceiling, and
 * the model's binding ceiling as the reason. A run of one variant compares
 * its points instead, on their rate. Unverified and failed results never
 * win; one that was faster but did not verify is said so. Where the run
 * measured energy (energy_view.h), the variant of least energy per unit of
 * work is named too when it is not the fastest and uses less than the
 * fastest by more than the energy's noise (WL_ENERGY_NOISE). */
#ifndef WL_VERDICT_H
#define WL_VERDICT_H

#include <jansson.h>

#include "catalog.h"

/* Add "verdict" to run (derived: results with "custom", intervals, ceiling
 * shares, predictions and energy): null while nothing is measured, else
 * {"sentence", "so_far" (the run is still measuring), "fastest" (the
 * winner at the headline point, or null), "headline" (that point's
 * params: the one of most work), "frugal" (the headline point's, below),
 * "points": [{"params", "fastest", "apart", "tied": [...], "slowest",
 * "slowest_factor", "reference": {"variant", "factor"} or null,
 * "ceiling_pct", "binding", "unverified_faster": [...], "sentence",
 * "frugal": {"variant", "figure" ("pj_per_useful_byte", "nj_per_op" or
 * "j_per_launch"), "value", "fastest_value", "less_pct"} or null}]}. -1
 * only when out of memory. */
int wl_run_add_verdict(const struct wl_experiment *exp, json_t *run);

#endif
