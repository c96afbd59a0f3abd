/* Did a figure move? Two results of the same point are told apart only when
 * their 95% intervals do not overlap (asv and conbench judge benchmark history
 * the same way): then one is faster or slower, otherwise they are the same
 * within noise. Used by the run page's comparison with the previous run of the
 * same experiment, device, parameters and cache mode. */
#ifndef WL_REGRESSIONS_H
#define WL_REGRESSIONS_H

#include <jansson.h>

#include "catalog.h"
#include "store.h"

enum wl_verdict { WL_SAME, WL_FASTER, WL_SLOWER };

/* The verdict on times [lo, hi] against the earlier [base_lo, base_hi]. */
enum wl_verdict wl_time_verdict(double lo, double hi, double base_lo, double base_hi);

/* "same", "faster", "slower". */
const char *wl_verdict_name(enum wl_verdict v);

/* Add "previous" to run: the latest earlier finished run of the same
 * experiment on the same device in the same cache mode that measured any of
 * its points ({"run", "url"}, or null; the last 20 such runs are looked at),
 * and to each verified result that it measured too,
 * "previous": {"verdict", "change_pct" (of the time), "median_ms"}. */
int wl_run_add_previous(struct wl_store *st, json_t *run, struct wl_error *err);

#endif
