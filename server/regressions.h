/* Did a figure move? Two results of the same point are told apart only when
 * their 95% intervals do not overlap and their medians differ by more than the
 * precision the run asked for (its noise target, ±1% by default): an interval
 * says how well one run knows its median, and a GPU drifts between runs by a
 * few tenths of a percent (temperature, clocks) — asv and conbench also keep a
 * threshold. Otherwise they are the same within noise. The run page's
 * comparison with the previous run of the same experiment, device,
 * parameters and cache mode is judged here, and so is the compare page's
 * table (GET /api/compare): the pages only show the verdicts. */
#ifndef WL_REGRESSIONS_H
#define WL_REGRESSIONS_H

#include <jansson.h>

#include "catalog.h"
#include "store.h"

enum wl_verdict { WL_SAME, WL_FASTER, WL_SLOWER };

/* The verdict on a time (median m, interval [lo, hi]) against the earlier
 * base_m in [base_lo, base_hi]; min_change is the least relative change that
 * counts (0.01: 1%). */
enum wl_verdict wl_time_verdict(double m, double lo, double hi, double base_m, double base_lo,
				double base_hi, double min_change);

/* "same", "faster", "slower". */
const char *wl_verdict_name(enum wl_verdict v);

/* The compare page's judgement of runs (an array of runs as wl_store_get_run
 * gives them, with results): {"noise", "min_change_pct", "rows": [{
 * "experiment", "variant", "params", "fastest", "cells": [{"run", "verdict",
 * "change_pct", "energy", "energy_error"}], "repeats": [...]}]}, a row per
 * (experiment, variant, point) in first-seen order, a cell per run that
 * measured it. Every
 * verified cell after the first run's is judged against the first run's
 * ("verdict" null where either is unverified or failed, "change_pct" null
 * where the first run's median is not above 0; "energy" the result's
 * figures that need no prediction, {"j_per_launch", "avg_w",
 * "pj_per_useful_byte", "nj_per_op", "throttled"}, or null, and
 * "energy_error" only where the device could not measure it, as
 * energy_view.h says); "fastest" is the run whose
 * time is apart from, and below by more than the noise, every other
 * verified one above 0, else null: a result whose median is 0 or below,
 * failed or unverified is never the fastest. "repeats" has an entry per
 * setting (device, language, cache mode) in which two or more of the runs
 * have a verified time above 0 for the row: {"device", "language", "cache",
 * "runs": [ids], "medians_ms": [theirs, in that order], "median_ms" (the
 * median of those), "spread_pct" ((max - min) / median_ms * 100), "apart"
 * (the slowest is slower than the quickest by the verdict's rule)}. The min
 * change is the first run's. Caller owns the result; NULL when out of
 * memory. */
json_t *wl_compare(const json_t *runs);

/* Add "previous" to run: the latest earlier finished run of the same
 * experiment on the same device in the same cache mode that measured any of
 * its points ({"run", "url"}, or null; the last 20 such runs are looked at),
 * and to each verified result that it measured too,
 * "previous": {"verdict", "change_pct" (of the time), "median_ms"}. */
int wl_run_add_previous(struct wl_store *st, json_t *run, struct wl_error *err);

#endif
