/* The analysis of results: what a run's measurements say, computed once on
 * the server so that the run page, the compare page, the CSV and a script
 * read the same figures and the same judgements. It stands beside model/,
 * below server/: it reads a stored run (store.h) typed once here, asks the
 * catalog for experiments and points and the model for predictions, and
 * returns typed findings or the JSON the API shows. It knows nothing of
 * HTTP; server/api/ puts what it returns into responses.
 *
 * A request's usage:
 *
 *	json_t *stored;		(wl_store_get_run)
 *	struct wl_run run;
 *
 *	if (wl_run_read(cat, stored, &run, err) < 0) ... out of memory ...
 *	if (wl_run_derive(&run, st, err) < 0) ... not for showing: free it ...
 *	... stored holds every figure; wl_run_is_final(&run) ...
 *	wl_run_free(&run);
 *
 * The sections: a run typed once; its derived figures; times told apart
 * beyond the noise (a run's previous, the compare table); drops; the
 * verdict; predictions; the model's record (its ledger and what a sentence
 * may say of it); energy; counted beside predicted; builds; CSV. A tuning
 * run's parts have a header of their own (analysis_tuning.h, included at
 * the end). */
#ifndef WL_ANALYSIS_H
#define WL_ANALYSIS_H

#include <jansson.h>
#include <stddef.h>

#include <pthread.h>

#include "catalog.h"
#include "error.h"
#include "model_trust.h"
#include "request.h"
#include "store.h"

/* ---- a run, typed once ----
 *
 * The run as wl_store_get_run gives it, read field by field in one place
 * (run.c): its status, its request's settings by wl_run_settings_read's
 * rules (what "absent" means in an older request is said there, once), its
 * variants and custom kernels, its device, and each result's figures. A
 * figure the store holds as null reads NAN. Strings and JSON values are
 * borrowed from the run's JSON, which the typed run holds a reference to.
 *
 * What the derivation finds is added to the JSON (for the API's bodies) and
 * to the typed results below (for the steps after it): a finding reads NAN,
 * NULL, 0 (or -1, where its comment says so) until its step has run. */

/* Room for a model version (wl_model_version). */
#define WL_MODEL_VERSION_MAX 48

enum wl_run_status { WL_RUN_QUEUED, WL_RUN_RUNNING, WL_RUN_DONE, WL_RUN_FAILED, WL_RUN_CANCELLED, WL_RUN_UNKNOWN };

/* What the hardware counted on one profiled launch of a result's variant
 * (CUPTI, extra.counters); NAN where it did not count. */
struct wl_counts {
	double global_load_requests, global_load_sectors, global_store_requests, global_store_sectors;
	double shared_load_wavefronts, shared_load_bank_conflicts;
	double dram_read_bytes, dram_write_bytes, l2_hit_pct;
};

struct wl_result {
	json_t *json;			/* the result's object in the run's JSON */
	const char *variant;		/* NULL where the row names none */
	const json_t *params;		/* its params object */
	const long long *values;	/* the point in the catalog's param order, or NULL
					 * (no experiment, or a param missing) */
	double median_ms, min_ms, max_ms, ci_low_ms, ci_high_ms, spread;
	double bytes, ops, gbps, gops, reps;
	/* Its time stands: it matched its check, or its experiment checks
	 * nothing (unchecked then set: the API's "verified": null). */
	int verified, unchecked;
	const char *stopped;		/* why sampling stopped, or NULL */
	const char *error;		/* why it failed or did not verify, or NULL */
	/* The hardware's counters (extra): the figures, their JSON as recorded
	 * (NULL: none), why a profile failed, or that they are still coming. */
	struct wl_counts counts;
	const json_t *counters;
	const char *counters_error;
	int counters_pending;
	/* The stored energy (NULL: none asked): its JSON (a reference of the
	 * typed run's own: the derived figures replace it in the run's JSON),
	 * joules per launch (NAN: not measured), and why the device could not
	 * measure it, or NULL. */
	json_t *energy;
	double j_per_launch, j_above_idle_per_launch;
	const char *energy_error;

	/* ---- findings ---- */
	int custom;			/* a custom kernel's (variants) */
	const char *like;		/* the built-in whose harness ran it (variants) */
	double slowdown;		/* over the baseline point's median (slowdown) */
	double rate_low, rate_high, ci_pct;	/* the rate's 95% interval (intervals) */
	double ceiling_pct;		/* share of the copy ceiling (ceiling) */
	long long resident_warps;	/* per compute unit, 0: unknown (occupancy) */
	int in_drop;			/* its variant has a drop (drops) */
	const json_t *prediction;	/* the model's figures, or NULL (predictions) */
	const char *binding;		/*   its binding ceiling, or NULL */
	double sectors_per_request, conflict_degree;	/* its counts, 0 where none */
	double dram_read_bytes, dram_write_bytes;	/* its traffic, NAN where none */
	const json_t *energy_figures;	/* the energy as derived, or NULL (energy) */
	double energy_per_work;		/*   what variants are compared on, -1: none */
	const char *energy_key;		/*   its name, or NULL */
	struct wl_trust trust;		/* what a sentence may say of the model here (trust);
					 * until then it may cite the model */
};

/* A custom kernel of the request: its name and like variant (NULL where not
 * strings) and, as stored, the values a body shows. */
struct wl_run_kernel {
	const char *name, *like;
	const json_t *name_json, *like_json, *entry, *source, *accesses;
};

/* A trace of one variant at one point (the runner's tracer). */
struct wl_run_trace {
	const char *variant;
	const json_t *params, *figures;
};

/* A variant as the run's table lists it: id, title, custom or not. */
struct wl_run_variant {
	const char *id, *title;
	int custom;
};

struct wl_run {
	json_t *json;				/* the run: a reference of its own */
	const struct wl_catalog *cat;
	const struct wl_experiment *exp;	/* NULL: the experiment left the catalog */
	struct wl_experiment *own;		/* the run's own experiment, which exp is; owned */
	long long id, requeues;
	const char *experiment, *url, *source_hash, *finished_at;
	enum wl_run_status status;
	int explain_pending;			/* a trace is still coming */
	struct wl_run_settings settings;	/* the request's, absent fields as request.h says */
	const json_t *device;			/* the device's record, or NULL */
	const char *device_id;
	int lanes;				/* its warp width, 32 where unknown */
	int cpu;				/* it has no warp width: a CPU (PoCL) */
	long long cache_bytes;			/* its measured cache, 0: unknown */
	double peak_gbps;			/* the GPU's theoretical peak, 0: unknown */
	size_t nbuiltins, nkernels, nvariants;	/* the request's built-ins, custom kernels, both */
	const char **builtins;			/* the built-ins' ids, in the request's order */
	struct wl_run_kernel *kernels;
	struct wl_run_variant *variants;	/* built-ins, then custom kernels */
	int has_results;			/* read with its results */
	size_t nresults, ntraces;
	struct wl_result *results;		/* in the run's order */
	struct wl_run_trace *traces;
	long long *point_block;			/* the results' values, one block */
	char model_version[WL_MODEL_VERSION_MAX];	/* this server's model (wl_model_version) */
	/* ---- findings ---- */
	double ceiling_gbps;			/* the copy ceiling as of the run's end, 0: none */
	int predictions_pending;		/* a prediction is still being computed */
	/* The model's record on the run's device for its family and for custom
	 * kernels (trust); points 0 where none. */
	struct wl_model_record record, custom_record;
};

/* Read stored (a run as wl_store_get_run gives it, with or without results)
 * against cat (may be NULL: no experiment) into *out, which takes a
 * reference to stored. -1 only when out of memory, err set, *out then
 * empty. Free with wl_run_free. */
int wl_run_read(const struct wl_catalog *cat, json_t *stored, struct wl_run *out, struct wl_error *err);

/* Release what run holds and empty it; safe on an empty or freed one. */
void wl_run_free(struct wl_run *run);

/* Whether its status is final: its measurements never change again. */
int wl_run_is_finished(const struct wl_run *run);

/* Whether it is finished and nothing more follows it (no trace still
 * coming), so its stream may end. */
int wl_run_is_settled(const struct wl_run *run);

/* Whether a derived run reads the same from now on: settled, and no
 * prediction still being computed (so its body may be kept). */
int wl_run_is_final(const struct wl_run *run);

/* Result r's value of param name, or 0 where it has none. */
long long wl_result_param(const struct wl_result *r, const char *name);

/* The key results that belong together share — a result and its baseline,
 * the points of one sweep: "variant|{r's params but param}" (sorted keys,
 * compact). Caller frees; NULL where r names no variant, or out of
 * memory. */
char *wl_sweep_key(const struct wl_result *r, const char *param);

/* What the run's results are rated by: "gops" where its experiment counts
 * operations, else "gbps"; and r's rate by it (NAN: none). */
const char *wl_run_metric(const struct wl_run *run);
double wl_result_rate(const struct wl_run *run, const struct wl_result *r);

/* ---- derived figures (derived.c) ----
 *
 * Each step adds its figures to the run's JSON and its findings to the
 * typed results, in the order wl_run_derive runs them; a step reads the
 * findings of the steps before it. Results that belong together — a
 * result and its baseline, the points of one sweep — are matched on the
 * variant and every other param. Each step returns -1 only when out of
 * memory (those that read the store also when it fails, err set); the run
 * may then hold some of the figures and is for freeing, not for showing. */

/* Every step below, in order: variants, slowdown, intervals, cache marks,
 * drops, ceiling, occupancy, predictions, trust, counted, energy, verdict,
 * previous. */
int wl_run_derive(struct wl_run *run, struct wl_store *st, struct wl_error *err);

/* Run id read from st with its results against cat and derived into *run
 * (wl_run_free it): what every reader of one run does. -1 with err where
 * the store fails or the run is not there (WL_ERR_NOT_FOUND), *run then
 * empty. */
int wl_run_load(const struct wl_catalog *cat, struct wl_store *st, long long id, struct wl_run *run,
		struct wl_error *err);

/* "variants": every variant the run measures, in its table's order — the
 * built-ins it names, then its custom kernels — as {"id", "title", "custom"}
 * (and "like" for a custom one); each result "custom" true or false and
 * "like": the built-in whose harness ran it (its own id for a built-in);
 * and for an experiment of the run's own, "own_experiment": it as GET
 * /api/experiments shows an experiment (title, variants, params, metric),
 * what a page reads the catalog for about a catalog experiment, with
 * "bytes_from": "cost" (its cost.bytes) or "buffers" (none given: each
 * input read once, each output written once). */
int wl_run_add_variants(struct wl_run *run);

/* Each result's "slowdown" (its median over the baseline point's; null where
 * the run has no such baseline), where the experiment declares a baseline. */
int wl_run_add_slowdown(struct wl_run *run);

/* Each result's "<metric>_low" and "<metric>_high" (the rate's 95% interval,
 * from the interval of the median time) and "ci_pct" (its half-width in %
 * of the median); null where a result has no interval. */
int wl_run_add_intervals(struct wl_run *run);

/* Each result's "in_cache": true in a hot run when the point's working set
 * (the variant's memory formula) fits in the device's measured cache. */
int wl_run_add_cache_marks(struct wl_run *run);

/* "drops", where the experiment declares a drops param: {"variant",
 * "params", "value", "gbps" (or "gops"), "trend", "below_pct", "pow2"}, one
 * per verified point more than the threshold below both neighbours of its
 * sweep (same variant and other params, in the swept param's order); null
 * until the run is finished and a sweep has three points or more. */
int wl_run_add_drops(struct wl_run *run);

/* "ceiling" (wl_store_copy_ceiling of the catalog's built-in copy variants
 * in the run's cache mode as of the run's end, or null); each result's "peak_pct" where the run
 * recorded the GPU's theoretical peak and, for bandwidth results,
 * "ceiling_pct". */
int wl_run_add_ceiling(struct wl_run *run, struct wl_store *st, struct wl_error *err);

/* "occupancy": {VARIANT: {"warps", "groups"}} — what each variant's build
 * first by options keeps resident per compute unit at its first launch,
 * from its recorded build and the catalog's architecture limits — where
 * both are known; nothing where the limits do not know the device. Each
 * result's resident_warps: those of the build of its point's options, in
 * its groups with its arguments' local memory (run_occupancy.c), else its
 * variant's above. On failure (the store, out of memory)
 * the results keep what they had. */
int wl_run_add_occupancy(struct wl_run *run, struct wl_store *st, struct wl_error *err);

/* Each result's "prediction" (predictions.c), from the server's memo of
 * predictions: null where the variant (or custom kernel) declares no
 * accesses and was not traced, {"error": ...} where the model cannot be
 * evaluated at the point (or not within its time), {"pending": true} while
 * the memo is still computing it (the run then has "predictions_pending":
 * true), else {"lanes", "efficiency", "sectors_per_request",
 * "conflict_degree", "pct", "ms", "gbps" or "gops", "slowdown", "ratio",
 * "departure", "sampled", "accesses": [...]} as docs/api.md describes. */
int wl_run_add_predictions(struct wl_run *run);

/* Each result with counters gets "counted" (counted_view.c): {"counters"
 * (as recorded), "load_sectors_per_request", "store_sectors_per_request",
 * "local_conflict_degree", "dram_bytes", "dram_read_bytes",
 * "dram_write_bytes", "l2_hit_pct", "predicted": {the same from the
 * prediction's accesses and traffic}, "model_differs": [sentences]}; one
 * whose profile failed "counted": {"error"}, one whose counters are still
 * coming "counted": {"pending": true}, the run then saying how many
 * ("counters_pending"). */
int wl_run_add_counted(struct wl_run *run);

/* Each result's "energy": its figures as wl_result_energy says, or null and
 * then "energy_error" where the device could not measure it. */
int wl_run_add_energy(struct wl_run *run);

/* A tuning run's "tuning" (tuning_view.c; none for another run): {"params"
 * tuned, "strategy", "objective", "space" (configurations at each size),
 * "budget" (random) or null, "sizes": [{"at" (the untuned params),
 * "configurations" measured there, "best": {"config" (the tuned params),
 * "variant", "median_ms"} of the fastest verified result or null,
 * "baseline": {"config", "median_ms"} of the same variant at the catalog's
 * default settings where it was measured, else null, "margin": baseline
 * over best, or null, its sentences, "against" and "why" the best wins
 * there (wl_tuning_why), and "space": each configuration's fastest result,
 * fastest first, with its prediction}]} (docs/api.md); each "best",
 * "baseline" and "against" also carries "energy_j". By the objective
 * "energy", "best", "baseline", "margin" and "space" go by joules per
 * launch (by time where none was measured); for "energy" and "both" each
 * size also has "energy" (wl_tuning_energy). -1 only when out of memory.
 * Its parts, and the ranking before a run is queued: analysis_tuning.h. */
int wl_run_add_tuning(struct wl_run *run);

/* "verdict" (verdict.c): null while nothing is measured, else {"sentence",
 * "so_far" (the run is still measuring), "fastest" (the winner at the
 * headline point, or null), "headline" (that point's params: the one of
 * most work), "frugal" (the headline point's, below), "points":
 * [{"params", "fastest", "apart", "tied": [...], "slowest",
 * "slowest_factor", "reference": {"variant", "factor"} or null,
 * "ceiling_pct", "binding", "unverified_faster": [...], "sentence",
 * "frugal": {"variant", "figure" ("pj_per_useful_byte", "nj_per_op" or
 * "j_per_launch"), "value", "fastest_value", "less_pct"} or null}]}.
 *
 * At each point the variants are compared on their median time by the
 * compare page's rule (wl_time_verdict): the fastest is "apart" only when
 * its 95% interval lies below every other's by more than the run's noise
 * target; variants within noise of it are "tied" with it. Beside it: how
 * many times faster it is than the slowest and than the experiment's
 * reference (the variant the lesson starts from), its share of the copy
 * ceiling, and the model's binding ceiling as the reason. A run of one
 * variant compares its points instead, on their rate. Unverified and
 * failed results never win; one that was faster but did not verify is said
 * so. Where the run measured energy, the variant of least energy per unit
 * of work is named too when it is not the fastest and uses less than the
 * fastest by more than WL_ENERGY_NOISE. The sentences are built only from
 * the figures beside them, so a sentence cannot say what the numbers do
 * not. */
int wl_run_add_verdict(struct wl_run *run);

/* "previous": the latest earlier finished run of the same experiment on the
 * same device in the same cache mode that measured any of its points
 * ({"run", "url", "min_change_pct"}, or null; the last 20 such runs are
 * looked at), and to each verified result that it measured too,
 * "previous": {"median_ms", "verdict", "change_pct" (of the time)}. */
int wl_run_add_previous(struct wl_run *run, struct wl_store *st, struct wl_error *err);

/* The verdict's "since" (verdict_since.c), once "previous" is added: where
 * some result moved beyond noise since the previous run, {"run", "faster",
 * "slower" (how many results), "most" (the variant that moved most),
 * "sentence"} — that sentence also ending the verdict's — else null. -1
 * only when out of memory. */
int wl_run_add_since(struct wl_run *run);

/* ---- times told apart beyond the noise (regressions.c) ----
 *
 * Two results of the same point are told apart only when their 95%
 * intervals do not overlap and their medians differ by more than the
 * precision the run asked for (its noise target, ±1% by default): an
 * interval says how well one run knows its median, and a GPU drifts between
 * runs by a few tenths of a percent (temperature, clocks) — asv and
 * conbench also keep a threshold. Otherwise they are the same within noise.
 * A result without an interval (runs from before sampling was driven by
 * noise) counts as its median alone. The run page's "previous" and the
 * compare page's table are judged here; the pages only show the verdicts. */

enum wl_verdict { WL_SAME, WL_FASTER, WL_SLOWER };

/* The verdict on a time (median m, interval [lo, hi]) against the earlier
 * base_m in [base_lo, base_hi]; min_change is the least relative change that
 * counts (0.01: 1%). */
enum wl_verdict wl_time_verdict(double m, double lo, double hi, double base_m, double base_lo,
				double base_hi, double min_change);

/* The same rule for a against b, two results of one run: their times, or
 * where per_work is set (two points of a sweep) their times per unit of
 * work (bytes or operations, as the run's metric counts), as two rates
 * would be judged; WL_SAME where either has no time. */
enum wl_verdict wl_result_verdict(const struct wl_run *run, const struct wl_result *a, const struct wl_result *b,
				  int per_work, double min_change);

/* "same", "faster", "slower". */
const char *wl_verdict_name(enum wl_verdict v);

/* The compare page's judgement of n runs (read with their results, not
 * derived): {"noise", "min_change_pct", "rows": [{"experiment", "variant",
 * "params", "fastest", "cells": [{"run", "verdict", "change_pct", "energy",
 * "energy_error"}], "repeats": [...]}]}, a row per (experiment, variant,
 * point) in first-seen order, a cell per run that measured it. Every
 * verified cell after the first run's is judged against the first run's
 * ("verdict" null where either is unverified or failed, "change_pct" null
 * where the first run's median is not above 0; "energy" the result's
 * figures that need no prediction, {"j_per_launch", "avg_w",
 * "pj_per_useful_byte", "nj_per_op", "throttled"}, or null, and
 * "energy_error" only where the device could not measure it); "fastest" is
 * the run whose time is apart from, and below by more than the noise, every
 * other verified one above 0, else null: a result whose median is 0 or
 * below, failed or unverified is never the fastest. "repeats" has an entry
 * per setting (device, language, cache mode) in which two or more of the
 * runs have a verified time above 0 for the row: {"device", "language",
 * "cache", "runs": [ids], "medians_ms": [theirs, in that order],
 * "median_ms" (the median of those), "spread_pct" ((max - min) / median_ms
 * * 100), "apart" (the slowest is slower than the quickest by the
 * verdict's rule)}. The min change is the first run's. Caller owns the
 * result; NULL when out of memory. */
json_t *wl_compare(const struct wl_run *runs, size_t n);

/* Each run after the first against the first, from wl_compare's rows:
 * [{"run", "against", "differs": ["device", "language", "source", "cache",
 * "params", "experiment"], "faster", "slower", "same" (rows both measured,
 * by the rows' verdicts), "sentence"}]. NULL when out of memory. */
json_t *wl_compare_pairs(const struct wl_run *runs, size_t n, const json_t *rows);

/* ---- drops (drops.c) ----
 *
 * Drop detection for sweeps (the partition-camping chart): points that fall
 * well below the curve around them. A point is a drop when it is more than
 * threshold (a fraction) below both of its neighbours on the sweep; the
 * first and last points, with one neighbour only, are never drops. Comparing
 * with both neighbours keeps a steep rise (a GPU filling up at small sizes)
 * from counting, while an isolated dip — the seed's matrices at multiples of
 * 512 — does. */

struct wl_drop {
	size_t index;		/* into the sweep's points */
	double trend;		/* the lower neighbour the point is measured against */
	double below;		/* 1 - y / trend: how far below, as a fraction */
};

/* Find the drops of y (n points, in sweep order) below threshold; write at
 * most max of them to out and return how many there are. When lo and hi
 * (each point's 95% interval) are given, a drop must also lie apart from
 * its neighbours: its upper bound below both of theirs lower bounds, so
 * that noise is never called a drop. */
size_t wl_find_drops(const double *y, const double *lo, const double *hi, size_t n, double threshold,
		     struct wl_drop *out, size_t max);

/* The largest power of two dividing v (v > 0): what the seed labels drops by. */
long long wl_pow2_divisor(long long v);

/* ---- predictions (predictions.c) ---- */

/* The run's trace of result r's variant (at r's point where there is one),
 * or NULL where the run has none. Borrowed from run. */
const struct wl_run_trace *wl_run_trace_of(const struct wl_run *run, const struct wl_result *r);

/* Stop the thread that computes predictions once the job in hand is done,
 * and forget every prediction: before the catalog its jobs point into is
 * freed (a server that stops). A later derivation starts it again. */
void wl_predictions_stop(void);

/* ---- the model's record (model_version.c, model_ledger.c, model_record.c) ----
 *
 * The ledger keeps every prediction the server made for a finished run
 * beside its measurement (store.h, "the model's ledger"), so that how right
 * the model has been — per device and per family, over any window — is a
 * read rather than a derivation of every run again. A point is a result
 * whose time stands (verified, or of an experiment that checks nothing) and
 * whose prediction has a ratio: predicted over measured time, or over the
 * measured slowdown for an experiment compared on it (banks); its factor is
 * max(ratio, 1 / ratio), the figure bench/model-score.py counts. Its
 * family is its experiment (the catalog's families are its experiments:
 * "copy", "strided", ...; a built-in variant counts under its experiment),
 * "custom" for a custom kernel, "own experiment" for an experiment of a
 * request's own. A run is scored once its figures are final
 * (wl_run_is_final): the first time the server derives it so, or when
 * GET /api/model/accuracy finds it unscored in its window. Every point
 * carries the model's version; a run scored by another version is scored
 * again, never counted with this one's. */

/* This server's model version into out (len bytes, WL_MODEL_VERSION_MAX is
 * room): the hash of the code predictions are made by (the build's) and
 * of cat (NULL: none). */
void wl_model_version(const struct wl_catalog *cat, char *out, size_t len);

/* What result r of run counts under: its experiment's id, "custom" or
 * "own experiment" (needs the variants step). */
const char *wl_result_family(const struct wl_run *run, const struct wl_result *r);

/* "trust" (model_record.c): the model's record on the run's device for the
 * run's family, and for custom kernels where it has some, from the ledger
 * (one read of an index each: the latest WL_TRUST_RECORD_RECENT points at
 * this model's version of the runs that ended before it — as of its end,
 * as its copy ceiling is, so that a finished run reads the same once they
 * are scored), as "model_record": [{"family", "points",
 * "median_factor", "poor"}]; each result's judgement by model_trust.h's
 * rule (its "prediction" gets "explains": false where the rule says the
 * model does not explain it, with "trust": "point" or "record"), each
 * departure sentence as the rule words it, and the run's "departures"
 * (wl_run_add_departures). A run on no device reads no record. -1 when the store fails or out of memory. */
int wl_run_add_trust(struct wl_run *run, struct wl_store *st, struct wl_error *err);

/* "departures" (departures.c; wl_run_add_trust adds it once it has worded
 * them): [{"variant", "direction", "param" (swept), "at" (its values),
 * "where", "factor": [low, high], "sentence"}], the verified results'
 * departures, one entry per variant, direction and other params. -1 when
 * out of memory (the run's JSON then without it). */
int wl_run_add_departures(struct wl_run *run);

/* The points of a derived run into *out (n of them, caller frees the array;
 * the strings are borrowed from run), as the ledger keeps them. -1 only
 * when out of memory. */
int wl_ledger_points(const struct wl_run *run, struct wl_ledger_point **out, size_t *n);

/* Score run into the ledger where it is final and not scored at its model
 * version yet: its points written under turn (the server's writers' lock;
 * NULL: none), *scored 1 where it is scored at this version now (0: not
 * final). -1 with err when the store fails: nothing written then. */
int wl_ledger_score(const struct wl_run *run, struct wl_store *st, pthread_mutex_t *turn, int *scored,
		    struct wl_error *err);

/* How far one set of factors is off, as GET /api/model/accuracy shows it. */
struct wl_factor_stats {
	long long points, within_2, within_1_5, within_1_25;
	double median, geomean;		/* 0 where there is no point */
};

/* The figures of n factors sorted ascending (the median of an even count
 * is the mean of the middle two; the geometric mean exp(mean(ln f))). */
void wl_factor_stats(const double *sorted, size_t n, struct wl_factor_stats *out);

/* The longest GET /api/model/accuracy scores runs for before it answers,
 * seconds, and the most runs it looks at: the rest are said to be pending. */
#define WL_ACCURACY_BUDGET_S 0.25
#define WL_ACCURACY_BATCH 16

/* GET /api/model/accuracy's body for window w (model_ledger.c): first the
 * window's finished runs not scored at this version (cat's) are scored,
 * the newest first, for at most WL_ACCURACY_BUDGET_S (writes under turn),
 * then the window's points at this version are counted: {"model_version",
 * "since", "until", "device", "scored_now", "runs_pending",
 * "runs_pending_other_version", "all": {figures}, "devices": [{"device",
 * "all": {figures}, "families": [{"family", figures}]}]}, figures being
 * "points", "within_2x", "within_1_5x", "within_1_25x", "median_factor",
 * "geomean_factor" (null without points). -1 with err when the store
 * fails, *out then NULL. */
int wl_model_accuracy(const struct wl_catalog *cat, struct wl_store *st, const struct wl_ledger_window *w,
		      pthread_mutex_t *turn, json_t **out, struct wl_error *err);

/* ---- energy (energy_view.c) ----
 *
 * The runner measures a result's energy as a burst of its launches between
 * two updates of the GPU's energy counter and stores joules per launch;
 * this turns that into the figures a reader compares, once:
 * - picojoules per useful byte: per launch over the result's bytes, the
 *   fewest the variant must move (the bytes its GB/s counts) — what the
 *   work cost;
 * - picojoules per moved byte: per launch over the bytes DRAM moved,
 *   counted by the hardware where the run profiled the variant, else as the
 *   model predicts — what moving a byte cost, however wasteful the pattern;
 * - nanojoules per operation, for a result that counts operations.
 * A device without an energy counter (PoCL, a driver without it) stored
 * {"error": why}: the result then says energy null and why. */

/* How far apart two variants' energies must be before one is said to use
 * less: bursts of the same launch agree within 2.4% on the H100
 * (bench/energy-probe.c), so two of them can differ by twice that with
 * nothing changed. */
#define WL_ENERGY_NOISE 0.05

/* The energy of result r into *figures as a new object (caller owns): the
 * stored figures {"j_per_launch", "j_above_idle_per_launch", "avg_w",
 * "idle_w", "launches", "burst_ms", "window_ms", "throttled"} and
 * "pj_per_useful_byte", "pj_per_useful_byte_above_idle" (null where r has
 * no bytes), "nj_per_op" (null where r counts no operations),
 * "moved_bytes", "moved_bytes_from" ("counters" or "model") and
 * "pj_per_moved_byte" (all three null where neither is known). *figures is
 * NULL where r has no energy; *error then r's reason where the device could
 * not measure it (NULL where the run did not ask). -1 only when out of
 * memory (*figures NULL). */
int wl_result_energy(const struct wl_result *r, json_t **figures, const char **error);

/* ---- counted beside predicted (counted_view.c) ----
 *
 * For each result of a CUDA run that carries counters, what they say per
 * request — sectors per global load and store request, local (shared)
 * wavefronts per load instruction (the conflict degree), DRAM bytes read
 * and written, the L2's hit rate — beside what the prediction's accesses
 * and traffic say, and a sentence for each figure where the two differ by
 * more than WL_COUNTED_AGREE (per request) or WL_COUNTED_TRAFFIC (traffic,
 * which the counters count over the whole launch with everything else the
 * device did): the model's error, not the hardware's. */
#define WL_COUNTED_AGREE 1.05
#define WL_COUNTED_TRAFFIC 1.25

/* ---- builds (build_view.c) ---- */

/* GET /api/runs/{id}/compiler's body: what the device's compiler made of
 * each variant of run, from its recorded builds (wl_store_get_builds, with
 * the PTX): per variant its builds, each with its figures (ptxas's where
 * NVIDIA's compiler reported, the driver's otherwise), its launches with
 * their local memory and occupancy under the device's architecture limits
 * (limits: the catalog's gpu_limits, or NULL), and on NVIDIA its PTX with
 * each instruction's source line. NULL only when out of memory. */
json_t *wl_compiler_view(const struct wl_run *run, const json_t *builds, const json_t *limits);

/* ---- CSV (csv.c) ---- */

/* The derived run as CSV (RFC 4180) into a new buffer *out of *len bytes
 * (caller frees): one row per measurement, one column per parameter of
 * the experiment (when it left the catalog, the first result's), the
 * header docs/api.md documents. -1 when out of memory, *out then NULL. */
int wl_results_csv(const struct wl_run *run, char **out, size_t *len);

#include "analysis_tuning.h"

#endif
