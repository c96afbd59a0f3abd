/* The store: the run queue and the history, shared by the server and the runner.
 * One interface over two engines (db.h): an embedded SQLite file (WAL mode) for
 * one machine, or a PostgreSQL database for a lab of hosts. Each process opens
 * its own handle; a handle is used by one thread at a time. Every function
 * returns 0 on success and -1 on failure with err set (WL_ERR_NOT_FOUND,
 * WL_ERR_CONFLICT, WL_ERR_QUEUE_FULL, WL_ERR_UNAVAILABLE when the database is
 * busy or broken); a function that writes does so in one transaction, so a
 * failure leaves the store as it was, and its out-parameters are left unset
 * (NULL for owned results). */
#ifndef WL_STORE_H
#define WL_STORE_H

#include <jansson.h>

#include "db_target.h"
#include "error.h"

struct wl_store;

/* Open (creating if needed) the store at path (a SQLite file or a postgresql://
 * URI) and bring its schema up to date. Caller closes *out with
 * wl_store_close(); on failure nothing is left open. */
int wl_store_open(const char *path, struct wl_store **out, struct wl_error *err);
void wl_store_close(struct wl_store *st);

/* The schema version the store is at (its count of applied migrations). */
int wl_store_schema_version(struct wl_store *st, int *version, struct wl_error *err);

/* ---- runs, as the server writes and reads them ---- */

struct wl_new_run {
	const char *experiment;
	const char *label;		/* NULL for none */
	const char *request_json;	/* the normalized request */
	const char *device_req;		/* "auto", "gpu", "cpu" or a device id */
	const char *device_id;		/* resolved device, or NULL to resolve at claim */
	long long total;		/* measurements the run will hold */
	long long queue_limit;		/* refuse with WL_ERR_QUEUE_FULL at this many queued */
	const char *language;		/* "opencl" or "cuda" (wl_language_name's), or NULL:
					 * none, which reads as the default (language.h) */
	int shared;			/* its points may be measured by several devices
					 * of one model at once (store_shared.c) */
};

/* Insert a queued run; *id is its id once committed. */
int wl_store_insert_run(struct wl_store *st, const struct wl_new_run *run, long long *id,
			struct wl_error *err);

/* The run as GET /api/runs/{id} shows it, with results and traces when
 * with_results.
 * Caller owns *out. WL_ERR_NOT_FOUND for no such run. */
int wl_store_get_run(struct wl_store *st, long long id, int with_results, json_t **out,
		     struct wl_error *err);

/* The kernel source stored under hash (see wl_store_put_source): *name is its
 * file name and *text its text, both owned by the caller (free()).
 * WL_ERR_NOT_FOUND when no runner has stored it. */
int wl_store_get_source(struct wl_store *st, const char *hash, char **name, char **text,
			struct wl_error *err);

struct wl_run_filter {
	long long before;		/* only ids below this; 0 for no bound */
	long long limit;		/* 1..200 */
	const char *experiment, *device, *status;	/* NULL for any */
	const char *label;		/* runs whose label holds this text (any case), or NULL */
};

/* Run summaries, newest first, each with "change": its latest change number
 * (see wl_store_changes). *more is set when older runs remain. */
int wl_store_list_runs(struct wl_store *st, const struct wl_run_filter *f, json_t **runs,
		       int *more, struct wl_error *err);

/* The change feed, for live streams. Every change a client can see of a run
 * takes the next change number. *runs: the summaries (as wl_store_list_runs
 * gives them) of up to limit
 * runs whose latest change is after `after`, in change order; *last: the
 * newest change number in the store. Caller owns *runs. */
int wl_store_changes(struct wl_store *st, long long after, long long limit, json_t **runs,
		     long long *last, struct wl_error *err);

/* Cancel: queued runs at once, running ones after their current point.
 * WL_ERR_CONFLICT when the run has finished. */
int wl_store_cancel_run(struct wl_store *st, long long id, struct wl_error *err);

/* The device's copy ceiling as of time `before` (RFC 3339; NULL: now), for a
 * run in cache mode `cache` ("hot" or "cold"; anything else reads as hot):
 * the best verified GB/s of a built-in copy variant (variants[0..nvariants),
 * at most WL_STORE_CEILING_VARIANTS: the catalog's names) over the last
 * WL_STORE_CEILING_RUNS copy runs on device_id in that cache mode that
 * finished by then with one; where that mode has none, over the last of the
 * other mode. As {"run", "gbps", "variant", "params", "cache" (the mode of
 * the copy run it came from), "url"}; *out is NULL when there is none. The
 * best of several, so that one copy slowed by a busy host does not lower
 * it; of the last few, so that a device that has become slower (a driver,
 * a clock, a card swapped under the same id) is judged by what it does now
 * once that many copies have run; by runs rather than days, so that a
 * device whose copies are rare keeps its ceiling. A custom kernel never
 * sets it. A finished run asks as of its own end, so later copy runs never
 * change it; nor do runs merged in from another store later (they take
 * ids after its own): upto_id (> 0) is the run's id, and no copy run of a
 * later id counts. -1 only when the store fails (err set). */
#define WL_STORE_CEILING_VARIANTS 8
#define WL_STORE_CEILING_RUNS 5
int wl_store_copy_ceiling(struct wl_store *st, const char *device_id, const char *before, long long upto_id,
			  const char *cache, const char *const *variants, size_t nvariants, json_t **out,
			  struct wl_error *err);

/* Up to limit ids of finished ("done") runs of experiment on device_id older
 * than run before_id, newest first, as a JSON array the caller owns. */
int wl_store_previous_runs(struct wl_store *st, const char *device_id, const char *experiment,
			   long long before_id, int limit, json_t **out, struct wl_error *err);

/* The bounds of the run-duration histogram, seconds (the store keeps a count
 * per bucket as runs finish). */
#define WL_STORE_DURATION_BUCKETS 8
extern const double wl_store_duration_le[WL_STORE_DURATION_BUCKETS];

/* The pace of the last (up to 10) runs done of experiment on device_id:
 * *runs of them, *seconds from start to end and *measurements in all (0
 * where there are none). -1 only when the store fails (err set). */
int wl_store_run_pace(struct wl_store *st, const char *experiment, const char *device_id, int *runs,
		      double *seconds, long long *measurements, struct wl_error *err);

/* How long finished runs took (started to finished, seconds), as a cumulative
 * histogram: counts[i] runs took at most wl_store_duration_le[i]; *total runs
 * in all, *sum_s seconds together. Kept as runs finish: no run is read. */
int wl_store_run_durations(struct wl_store *st, long long counts[WL_STORE_DURATION_BUCKETS],
			   long long *total, double *sum_s, struct wl_error *err);

/* Runs per status, for health and metrics: {"queued":3,"running":1,...};
 * kept as runs change, so it costs the same however long the history. */
int wl_store_count_runs(struct wl_store *st, json_t **out, struct wl_error *err);

/* ---- the model's ledger (store_ledger.c) ----
 *
 * Each finished run's predictions beside its measurements, as the server
 * scored them, one row per point, with the version of the model that made
 * them: the model's record over devices, families and time is read from
 * here. The store keeps what it is given and interprets nothing: which
 * results are points, their family and factor are the analysis's
 * (analysis/model_ledger.c). A run is scored at one version at a time;
 * scoring it at another replaces its points. Times are as the store keeps
 * them (RFC 3339 UTC with milliseconds), compared as text. */

/* One point of a run: its result's seq, its variant and family, what was
 * compared ("time": the median in ms, "slowdown": over the baseline) and
 * by how much the prediction is off (max(predicted / measured, measured /
 * predicted)). */
struct wl_ledger_point {
	long long seq;
	const char *variant, *family, *compared_on;
	double predicted, measured, factor;
};

/* A window of runs by their end: since (included) and until (excluded) as
 * stored times, NULL for open ends; device NULL for every device. */
struct wl_ledger_window {
	const char *since, *until, *device;
};

/* The version run_id is scored at into buf (len bytes), "" where it is not
 * scored. -1 with err when the store fails (buf then ""). */
int wl_store_ledger_version(struct wl_store *st, long long run_id, char *buf, size_t len, struct wl_error *err);

/* Score run_id at version: its points (n of them, none for a run without
 * one) replace whatever it had, with its device and end copied from the
 * run, in one transaction; nothing is written where it is scored at
 * version already (*written 0, else 1). WL_ERR_CONFLICT where the run has
 * not finished or names no device. */
int wl_store_ledger_put(struct wl_store *st, long long run_id, const char *version,
			const struct wl_ledger_point *points, size_t n, int *written, struct wl_error *err);

/* The finished runs of w not scored at version: *unscored of them in all,
 * *elsewhere of those scored at another version, and into ids (room for
 * max) the newest of them whose explanations are not still pending (the
 * ones that can be scored now), *nids of them. Runs that name no device
 * (cancelled before they ran) have nothing to score and are not counted. */
int wl_store_ledger_unscored(struct wl_store *st, const char *version, const struct wl_ledger_window *w,
			     long long *ids, size_t max, size_t *nids, long long *unscored, long long *elsewhere,
			     struct wl_error *err);

/* Called with each point's device, family and factor; a negative return
 * stops the walk (err set by the callee). */
typedef int (*wl_ledger_fn)(void *ctx, const char *device, const char *family, double factor,
			    struct wl_error *err);

/* Every point scored at version of the runs in w, a device's and within
 * it a family's together (ordered by device and family; a family's
 * factors in no order). */
int wl_store_ledger_each(struct wl_store *st, const char *version, const struct wl_ledger_window *w,
			 wl_ledger_fn fn, void *ctx, struct wl_error *err);

/* The factors of the latest points (at most max, newest first: by the
 * runs' end) of device and family scored at version, of the runs that ended
 * before run before_id did at before (a stored time, runs of the same end
 * ordered by id; NULL: every run), into factors; *n of them. One read of an
 * index, however long the history. */
int wl_store_ledger_recent(struct wl_store *st, const char *version, const char *device, const char *family,
			   const char *before, long long before_id, double *factors, size_t max, size_t *n,
			   struct wl_error *err);

/* ---- devices and runners ---- */

/* Devices as GET /api/devices shows them; a device is online when its runner has
 * checked in within window_s seconds and has not stopped. Caller owns *out. */
int wl_store_list_devices(struct wl_store *st, long long window_s, json_t **out,
			  struct wl_error *err);

/* Runners with their devices and last heartbeat, for GET /api/health. */
int wl_store_list_runners(struct wl_store *st, long long window_s, json_t **out,
			  struct wl_error *err);

/* Register a runner process (host, pid, version); *runner_id identifies it. */
int wl_store_register_runner(struct wl_store *st, const char *host, long long pid,
			     const char *version, long long *runner_id, struct wl_error *err);

/* Record that the runner is alive now. */
int wl_store_heartbeat(struct wl_store *st, long long runner_id, struct wl_error *err);

/* Mark the runner stopped (its devices go offline at once). */
int wl_store_runner_stopped(struct wl_store *st, long long runner_id, struct wl_error *err);

/* The stored description of device id (as last registered), or NULL in *out
 * when there is none. Caller owns *out. */
int wl_store_get_device_info(struct wl_store *st, const char *id, json_t **out, struct wl_error *err);

/* Insert or update a device owned by runner_id; info is the device as the API
 * shows it (an object with at least "id" and "type"); ordinal orders "first GPU". */
int wl_store_upsert_device(struct wl_store *st, long long runner_id, long long ordinal,
			   const json_t *info, struct wl_error *err);

/* ---- the runner's side of a run ---- */

/* A run the runner has claimed. Caller frees with wl_claim_free(). */
struct wl_claim {
	long long id;			/* 0 when nothing was claimed */
	long long attempt;		/* 1 for a first try */
	char *experiment;
	char *request_json;
	char *device_id;
	int shared;			/* its points are shared (store_shared.c) */
	int helper;			/* joined, not claimed: another device holds it */
};
void wl_claim_free(struct wl_claim *c);

/* The devices a runner can claim for: its ids, and its choice for "auto", "gpu"
 * and "cpu" (NULL where it has none). */
struct wl_claim_devices {
	const char *const *ids;
	size_t nids;
	const char *auto_id, *gpu_id, *cpu_id;
	/* The languages the devices run, as ",opencl,cuda,"; NULL: the
	 * default language alone (language.h). A run in another language
	 * waits for a device that runs it. */
	const char *languages;
	/* The devices' model (their description's name): a shared run
	 * claimed by one is joined by idle devices of the same model alone;
	 * NULL joins none. */
	const char *model;
};

/* Claim the oldest queued run this runner can serve, in one immediate
 * transaction, and mark it running with a snapshot of its device. out->id is 0
 * when the queue holds nothing for these devices. */
int wl_store_claim_run(struct wl_store *st, long long runner_id,
		       const struct wl_claim_devices *devs, struct wl_claim *out,
		       struct wl_error *err);

/* Keep a kernel source's text under its hash (a no-op when it is there). */
int wl_store_put_source(struct wl_store *st, const char *hash, const char *name,
			const char *text, struct wl_error *err);

/* Record the GPU's state around the run (a JSON object, see runner/nvml.h)
 * and the bytes a cold run writes before each timed launch (0 for hot). */
int wl_store_set_run_clocks(struct wl_store *st, long long run_id, const char *clocks_json,
			    long long flush_bytes, struct wl_error *err);

/* Record where the run's time went (a JSON object, see runner/time_budget.h). */
int wl_store_set_run_budget(struct wl_store *st, long long run_id, const char *budget_json,
			    struct wl_error *err);

/* Record what makes the run reproducible (kernel source hash, runner version). */
int wl_store_set_run_provenance(struct wl_store *st, long long run_id, const char *source_hash,
				const char *runner_version, struct wl_error *err);

/* One measured point. gbps and gops are derived from bytes/ops and median_ms.
 * reps 0 means the point never ran: it has no times. */
struct wl_result_row {
	const char *variant;
	const char *params_json;
	double median_ms, min_ms, max_ms;
	long long reps;
	double bytes, ops;		/* 0 where the metric does not count them */
	int verified;			/* 1 matched its check, 0 did not, -1 not checked
					 * (its experiment's check is "none"): the API's
					 * true, false and null */
	const char *error;		/* NULL when the point ran */
	const char *note;		/* NULL, or e.g. "ran in float: no fp64" */
	const char *extra_json;		/* NULL, or a JSON object of further figures */
	const char *energy_json;	/* NULL (not asked), or its energy as a JSON object */
	double ci_low_ms, ci_high_ms;	/* 95% interval of the median (0: none) */
	double spread;			/* interquartile range / median */
	const char *stopped;		/* why sampling stopped: noise, budget, max; or NULL */
	long long discarded;		/* samples dropped (taken while the GPU throttled) */
	const float *samples;		/* reps samples in ms, or NULL */
	long long seq;			/* its place in the run; 0: after the last */
	const char *device_id;		/* the device that measured it, or NULL */
};

/* Append a result and advance the run's progress, in one transaction. Only the
 * runner that holds the run, or one that measures an unfinished point of a
 * shared run, may: WL_ERR_CONFLICT otherwise (a worker that outlived its
 * supervisor cannot write into a run claimed again since). */
int wl_store_add_result(struct wl_store *st, long long runner_id, long long run_id,
			const struct wl_result_row *r, struct wl_error *err);

/* The same for n results in one transaction (one commit, one sync to disk):
 * all are added or none. */
int wl_store_add_results(struct wl_store *st, long long runner_id, long long run_id,
			 const struct wl_result_row *rows, size_t n, struct wl_error *err);

/* A result's extra written after it: its hardware counters, profiled later
 * in the runner's idle time together with other launches, since one
 * profiling session pays its passes once for them all. Row seq of run_id
 * gets extra_json. */
struct wl_result_extra {
	long long run_id, seq;
	const char *extra_json;
};

/* Replace the extra of n results in one transaction; a result that is gone
 * (its run requeued or deleted) is skipped. -1 with err: none replaced. */
int wl_store_set_result_extras(struct wl_store *st, const struct wl_result_extra *rows, size_t n,
			       struct wl_error *err);

/* The results of run_id whose extra is exactly was get now (what a runner
 * that stopped left pending); *changed says how many. -1 with err. */
int wl_store_replace_result_extras(struct wl_store *st, long long run_id, const char *was, const char *now,
				   long long *changed, struct wl_error *err);

/* A program a variant of a run was built as, and the compiler's account
 * of it. */
struct wl_build_row {
	const char *variant;		/* the run's name for it */
	const char *options;		/* the build options the family chose */
	const char *device, *driver;	/* the device's id and driver version */
	const char *source_hash;
	const char *kernel_json;	/* the kernel's figures, a JSON object's text */
	const char *log;		/* the compiler's log, as users see it */
	const char *ptx;		/* NVIDIA's PTX of the program, or NULL */
};

/* Record that variant b of run_id was built as b says: the log and PTX are
 * kept once per (device, driver, source_hash, options), the first kept
 * standing; the variant's row is replaced by a second record of it. */
int wl_store_put_build(struct wl_store *st, long long run_id, const struct wl_build_row *b,
		       struct wl_error *err);

/* The builds of run_id's variants, as an array of {"variant", "options",
 * "source_hash", "kernel" (the figures object), "log", "ptx" (null where
 * none, or where with_ptx is 0)}, by variant and options; empty for a run
 * that recorded none. Caller owns *out. */
int wl_store_get_builds(struct wl_store *st, long long run_id, int with_ptx, json_t **out, struct wl_error *err);

/* Explaining: a run is done once measured and verified; its traces (and the
 * predictions built on them) follow, with the run's "explain" state saying
 * what is still coming: "pending" until a runner has taken them, then
 * "done" or "failed"; NULL for a run with nothing to explain. */

/* Set run_id's explain state (and explained_at, for "done" and "failed"),
 * adding ms to the time spent explaining it. -1 with err when the store
 * fails. */
int wl_store_set_explain(struct wl_store *st, long long run_id, const char *state, double ms,
			 struct wl_error *err);

/* *waiting: whether a queued run waits for one of devs (as
 * wl_store_claim_run would find it). -1 with err when the store fails. */
int wl_store_run_waiting(struct wl_store *st, const struct wl_claim_devices *devs, int *waiting,
			 struct wl_error *err);

/* The oldest finished run whose explanations are pending on one of devs'
 * ids, into out (its id, experiment, request, device and attempt, as a
 * claim has them; out->id 0 when there is none). -1 with err leaves out
 * empty. The caller frees out with wl_claim_free. */
int wl_store_next_to_explain(struct wl_store *st, const struct wl_claim_devices *devs, struct wl_claim *out,
			     struct wl_error *err);

/* The lab's kept trace under key (what decides a trace, hashed by the
 * runner) into *figures (the caller's; NULL when none is kept), and keeping
 * one. -1 with err when the store fails; keeping replaces what was kept. */
int wl_store_kept_trace(struct wl_store *st, const char *key, char **figures, struct wl_error *err);
int wl_store_keep_trace(struct wl_store *st, const char *key, const char *figures, struct wl_error *err);

/* Record variant's traced accesses for run_id, traced at params (a JSON
 * object's text): figures_json is the tracer's JSON, or {"error": why}. A
 * second trace of the variant at the point (a retried run) replaces the
 * first. */
int wl_store_put_trace(struct wl_store *st, long long run_id, const char *variant,
		       const char *params_json, const char *figures_json, struct wl_error *err);

/* Every result's samples of run id: {"run", "results": [{"seq", "variant",
 * "params", "samples_ms": [...]}]}. Caller owns *out. */
int wl_store_get_samples(struct wl_store *st, long long id, json_t **out, struct wl_error *err);

/* A shared run's points (store_shared.c): a tuning run measured by every
 * idle device of its device's model at once, one point at a time each. */

/* Open run_id's npoints points of rows results each, none taken (rows left
 * by an earlier attempt are replaced); point i's results are seq i * rows + 1
 * to (i + 1) * rows. -1 with err: none opened. */
int wl_store_open_points(struct wl_store *st, long long run_id, long long npoints, long long rows,
			 struct wl_error *err);

/* Take the first free point of run_id (the last where last) for device_id
 * of runner_id: *point is its index, or -1 when none is free, or the run no
 * longer runs or was asked to stop. -1 with err (*point -1): nothing taken. */
int wl_store_take_point(struct wl_store *st, long long runner_id, long long run_id, const char *device_id, int last,
			long long *point, struct wl_error *err);

/* Mark the point device_id took measured (its results are written). */
int wl_store_point_measured(struct wl_store *st, long long run_id, long long point, const char *device_id,
			    struct wl_error *err);

/* How many of run_id's points are free and how many taken but not yet
 * measured (*busy), and whether it still runs. */
int wl_store_points_left(struct wl_store *st, long long run_id, long long *free_points, long long *busy,
			 int *running, struct wl_error *err);

/* Give back the points of run_id that device_id took and did not finish,
 * for another device to take, dropping what of them it wrote; *helper says
 * whether device_id joined the run rather than holding it (the run itself is
 * then not device_id's to settle). */
int wl_store_release_points(struct wl_store *st, long long run_id, const char *device_id, int *helper,
			    struct wl_error *err);

/* The oldest running shared run that device_id (of devs' model and
 * languages) can join: one with a free point, held by another device of the
 * same model. out->id 0: none; out->helper set otherwise. */
int wl_store_join_run(struct wl_store *st, const char *device_id, const struct wl_claim_devices *devs,
		      struct wl_claim *out, struct wl_error *err);

/* Fail shared run run_id from device_id, which measures a point of it and
 * met an error there (the run's own device notices at its next write). */
int wl_store_fail_shared(struct wl_store *st, long long run_id, const char *device_id, const char *error,
			 struct wl_error *err);

/* Whether a cancel was asked for the run. */
int wl_store_cancel_requested(struct wl_store *st, long long run_id, int *requested,
			      struct wl_error *err);

/* Finish a running run held by runner_id as "done", "failed" or "cancelled",
 * with a message for failures. A run no longer held is left alone. */
int wl_store_finish_run(struct wl_store *st, long long runner_id, long long run_id,
			const char *status, const char *error, struct wl_error *err);

/* Put a running run held by runner_id back in the queue (its results dropped)
 * because the runner is stopping; it keeps its attempt count. */
int wl_store_requeue_run(struct wl_store *st, long long runner_id, long long run_id,
			 struct wl_error *err);

/* A run whose device process died under it: requeue it (results dropped, the
 * attempt counted) while it has had fewer than max_attempts tries, else fail it
 * with reason. *requeued says which. Nothing happens to a run not running. */
int wl_store_release_run(struct wl_store *st, long long run_id, long long max_attempts,
			 const char *reason, int *requeued, struct wl_error *err);

/* Recover runs left "running" by runners that are gone: a runner that stopped,
 * whose heartbeat is older than window_s, or whose pid no longer exists on this
 * host. Each is requeued (results dropped) while it has had fewer than
 * max_attempts tries, else failed with the reason. The points such runners
 * took in shared runs and did not finish are given back. */
int wl_store_recover(struct wl_store *st, long long self_runner_id, const char *host,
		     long long window_s, long long max_attempts, int *requeued, int *failed,
		     struct wl_error *err);

/* ---- moving a whole store (warplab-store copy, export, import) ---- */

/* Called with each record {"table", "row"}; a negative return stops the walk
 * (err set). The record is the callee's to read, not to keep. */
typedef int (*wl_store_row_fn)(void *ctx, json_t *record, struct wl_error *err);

/* Every row of the store, in one snapshot, tables in an order that keeps
 * references valid; ids and change numbers as stored. */
int wl_store_each_row(struct wl_store *st, wl_store_row_fn fn, void *ctx, struct wl_error *err);

/* Import: begin, one call per record as wl_store_each_row gives them, then
 * end (commit) or abort (nothing is kept); end and abort free the handle.
 * Into a store that holds no runs and no runners the records are restored as
 * they are, ids and change numbers kept. A store that holds some is refused
 * at begin (WL_ERR_CONFLICT, nothing written) unless merge is set; a merge
 * adds the records beside what is there: each run and runner gets a new id
 * (a runner already there, same host, pid and start, is used as it is), every
 * record that names one is pointed at the new id, each run takes a new change
 * number, and devices, sources and builds whose key is there already are kept
 * as they are; a record that names a run or runner must come after it (as
 * wl_store_each_row orders them). A bad record is WL_ERR_INVALID_FIELD naming
 * the column (its value, what is allowed); the import is then to be aborted. */
struct wl_store_import;

/* What an import did, for its message. */
struct wl_store_import_summary {
	int merged;			/* 1: added beside runs there, under new ids */
	long long runs_before;		/* runs the store held before */
	long long runs;			/* runs imported */
	long long first_id, last_id;	/* the least and greatest id they have now */
	long long first_old, last_old;	/* ... and had in the records */
	int in_order;			/* new ids rise as the records' did */
	/* Records whose row was in the store already, kept once (a merge). */
	long long kept_runners, kept_devices, kept_sources, kept_builds;
};

/* *out is the caller's until end or abort. -1 with err set and nothing open
 * on failure. */
int wl_store_import_begin(struct wl_store *st, int merge, struct wl_store_import **out,
			  struct wl_error *err);
int wl_store_import_row(struct wl_store_import *im, const json_t *record, struct wl_error *err);
/* Commit, with *sum (may be NULL) filled; on failure nothing is kept. */
int wl_store_import_end(struct wl_store_import *im, struct wl_store_import_summary *sum,
			struct wl_error *err);
void wl_store_import_abort(struct wl_store_import *im);

#endif
