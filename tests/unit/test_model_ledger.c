/* The model's ledger: the store keeps each run's points at one model
 * version and finds the window's runs still to score (on SQLite and again
 * on PostgreSQL); the analysis takes a run's points from its own figures,
 * and the record it reads back weighs the run's sentences. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "check.h"
#include "store_check.h"

/* A finished run of experiment on cpu-0 by runner with results (params
 * "{}") of the given variants, medians and verification; its id. */
static long long finished_run(struct wl_store *st, long long runner, const char *experiment, size_t n,
			      const char *const *variants, const double *ms)
{
	const char *ids[] = { "cpu-0" };
	struct wl_claim_devices devs = { ids, 1, "cpu-0", NULL, "cpu-0", NULL, NULL };
	struct wl_error err;
	struct wl_claim c;
	long long id = check_queue_run(st, experiment, "cpu-0");

	CHECK(wl_store_claim_run(st, runner, &devs, &c, &err) == 0 && c.id == id, "claimed: %s", err.msg);
	wl_claim_free(&c);
	for (size_t i = 0; i < n; i++) {
		struct wl_result_row row = { .variant = variants[i], .params_json = "{}", .median_ms = ms[i],
					     .min_ms = ms[i], .max_ms = ms[i], .reps = 1, .bytes = 1e6, .verified = 1 };

		CHECK(wl_store_add_result(st, runner, id, &row, &err) == 0, "%s", err.msg);
	}
	CHECK(wl_store_finish_run(st, runner, id, "done", NULL, &err) == 0, "%s", err.msg);
	return id;
}

/* The store's ledger walked into counts: points and their factors' sum. */
struct tally {
	long long points;
	double sum;
	char last[64];
};

static int tally(void *ctx, const char *device, const char *family, double factor, struct wl_error *err)
{
	struct tally *t = ctx;

	(void)device;
	(void)err;
	t->points++;
	t->sum += factor;
	snprintf(t->last, sizeof(t->last), "%s", family);
	return 0;
}

void test_store_keeps_the_models_ledger(void)
{
	struct wl_store *st = check_fresh_store("ledger");
	const char *v[] = { "float", "float4" };
	const double ms[] = { 1.0, 2.0 };
	struct wl_ledger_point pts[] = {
		{ 1, "float", "copy", "time", 2.0, 1.0, 2.0 },
		{ 2, "float4", "copy", "time", 1.5, 2.0, 2.0 / 1.5 },
	};
	struct wl_ledger_window all = { NULL, NULL, NULL }, mine = { NULL, NULL, "cpu-0" }, other = { NULL, NULL, "gpu-9" };
	struct wl_error err;
	struct tally t = { 0 };
	char version[64];
	long long runner, a, b, queued, ids[4], unscored, elsewhere;
	double recent[8];
	size_t nids, n;
	int written;

	if (!st)
		return;
	runner = check_add_runner(st, getpid(), "cpu-0", "cpu");
	a = finished_run(st, runner, "copy", 2, v, ms);
	b = finished_run(st, runner, "copy", 1, v, ms);
	queued = check_queue_run(st, "copy", "cpu-0");
	CHECK(wl_store_ledger_unscored(st, "m1", &all, ids, 4, &nids, &unscored, &elsewhere, &err) == 0 &&
		      unscored == 2 && elsewhere == 0 && nids == 2 && ids[0] == b && ids[1] == a,
	      "two finished runs to score, the newest first (a queued one is not): %lld %zu", unscored, nids);
	CHECK(wl_store_ledger_put(st, queued, "m1", pts, 0, &written, &err) < 0 && err.kind == WL_ERR_CONFLICT,
	      "a run not finished is not scored");
	CHECK(wl_store_ledger_put(st, a, "m1", pts, 2, &written, &err) == 0 && written, "%s", err.msg);
	CHECK(wl_store_ledger_put(st, a, "m1", pts, 1, &written, &err) == 0 && !written,
	      "scored at this version already: nothing written");
	CHECK(wl_store_ledger_put(st, b, "m1", pts, 0, &written, &err) == 0 && written, "a run of no point is scored");
	CHECK(wl_store_ledger_version(st, a, version, sizeof(version), &err) == 0 && strcmp(version, "m1") == 0,
	      "its version: %s", version);
	CHECK(wl_store_ledger_unscored(st, "m1", &all, ids, 4, &nids, &unscored, &elsewhere, &err) == 0 && unscored == 0,
	      "nothing left at m1");
	CHECK(wl_store_ledger_each(st, "m1", &mine, tally, &t, &err) == 0 && t.points == 2 &&
		      strcmp(t.last, "copy") == 0,
	      "two points on cpu-0: %lld", t.points);
	t.points = 0;
	CHECK(wl_store_ledger_each(st, "m1", &other, tally, &t, &err) == 0 && t.points == 0, "none on another device");
	CHECK(wl_store_ledger_recent(st, "m1", "cpu-0", "copy", NULL, 0, recent, 8, &n, &err) == 0 && n == 2,
	      "the record: %zu", n);
	CHECK(wl_store_ledger_recent(st, "m1", "cpu-0", "copy", "2000-01-01T00:00:00.000Z", a, recent, 8, &n, &err) == 0 &&
		      n == 0,
	      "as of a time before every run: none");
	/* Another version's points are never counted with these: its runs are
	 * to score again, and scoring one replaces its points. */
	CHECK(wl_store_ledger_unscored(st, "m2", &all, ids, 4, &nids, &unscored, &elsewhere, &err) == 0 &&
		      unscored == 2 && elsewhere == 2,
	      "at m2 both are to score, both scored elsewhere: %lld %lld", unscored, elsewhere);
	t.points = 0;
	CHECK(wl_store_ledger_each(st, "m2", &all, tally, &t, &err) == 0 && t.points == 0, "m2 has no point yet");
	CHECK(wl_store_ledger_put(st, a, "m2", pts + 1, 1, &written, &err) == 0 && written, "%s", err.msg);
	t.points = 0;
	CHECK(wl_store_ledger_each(st, "m1", &all, tally, &t, &err) == 0 && t.points == 0, "m1's points replaced");
	CHECK(wl_store_ledger_each(st, "m2", &all, tally, &t, &err) == 0 && t.points == 1, "m2's one point");
	/* A window past every run's end holds none. */
	{
		struct wl_ledger_window later = { "2999-01-01T00:00:00.000Z", NULL, NULL };

		CHECK(wl_store_ledger_unscored(st, "m3", &later, ids, 4, &nids, &unscored, &elsewhere, &err) == 0 &&
			      unscored == 0,
		      "nothing ends after 2999");
	}
	wl_store_close(st);
}

/* Run id read from st with made-up predictions of ratio each (predicted
 * over measured), through the variants and the trust step into *run. */
static int judged(const struct wl_catalog *cat, struct wl_store *st, long long id, const double *ratio,
		  struct wl_run *run)
{
	struct wl_error err;
	json_t *stored = NULL;
	int rc;

	if (wl_store_get_run(st, id, 1, &stored, &err) < 0 || wl_run_read(cat, stored, run, &err) < 0) {
		json_decref(stored);
		CHECK(0, "read run %lld: %s", id, err.msg);
		return -1;
	}
	json_decref(stored);
	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		json_t *p = json_pack("{s:f, s:f, s:s, s:s}", "ratio", ratio[i], "ms", ratio[i] * r->median_ms, "binding",
				      "dram", "departure", "Measured ... likely cause: reuse");

		json_object_set_new(r->json, "prediction", p);
		r->prediction = p;
		r->binding = "dram";
	}
	rc = wl_run_add_variants(run) == 0 && wl_run_add_trust(run, st, &err) == 0 ? 0 : -1;
	CHECK(rc == 0, "trust: %s", err.msg);
	return rc;
}

void test_model_record_weighs_a_runs_sentences(void)
{
	struct wl_catalog *cat = check_load_catalog();
	struct wl_store *st = cat ? check_fresh_store("record") : NULL;
	const char *v[] = { "float", "float4" };
	const double ms[] = { 1.0, 2.0 }, poor[] = { 1.8, 1 / 1.8 }, fine[] = { 1.1, 0.9 };
	struct wl_ledger_point *pts;
	struct wl_error err;
	struct wl_run run;
	long long runner, id = 0;
	size_t n;
	int scored;

	if (!st) {
		wl_catalog_free(cat);
		return;
	}
	runner = check_add_runner(st, getpid(), "cpu-0", "cpu");
	/* Ten runs of two points each, 1.8x off: a record of 20, poor. */
	for (int k = 0; k < 10; k++) {
		id = finished_run(st, runner, "copy", 2, v, ms);
		if (judged(cat, st, id, poor, &run) < 0)
			break;
		CHECK(run.record.points == 2 * k, "the record before run %d: %lld points", k, run.record.points);
		CHECK(wl_ledger_points(&run, &pts, &n) == 0 && n == 2 && strcmp(pts[0].family, "copy") == 0 &&
			      strcmp(pts[0].compared_on, "time") == 0 && pts[0].seq == 1 && pts[1].seq == 2 &&
			      pts[0].factor == 1.8 && fabs(pts[1].factor - 1.8) < 1e-12,
		      "its points from its own figures");
		free(pts);
		CHECK(wl_ledger_score(&run, st, NULL, &scored, &err) == 0 && scored, "scored: %s", err.msg);
		wl_run_free(&run);
	}
	/* The next run of the family is within 2x, but its record is poor. */
	id = finished_run(st, runner, "copy", 2, v, ms);
	if (judged(cat, st, id, fine, &run) == 0) {
		const json_t *rec = json_array_get(json_object_get(run.json, "model_record"), 0);
		const json_t *p = run.results[0].prediction;

		CHECK(run.record.points == 20 && run.record.median_factor > 1.79 && run.record.median_factor < 1.81 &&
			      json_is_true(json_object_get(rec, "poor")),
		      "the record: %s", json_dumps(rec, JSON_COMPACT));
		CHECK(run.results[0].trust.kind == WL_TRUST_POOR_RECORD && json_is_false(json_object_get(p, "explains")) &&
			      strcmp(json_string_value(json_object_get(p, "trust")), "record") == 0,
		      "judged by the record: %s", json_dumps(p, JSON_COMPACT));
		CHECK(run.cpu && run.results[0].trust.cpu, "cpu-0 has no warp width: a CPU");
		wl_run_free(&run);
	}
	/* A point beyond 2x is worded by the rule: no cause. */
	{
		const double far[] = { 1 / 208.0, 1.0 };

		id = finished_run(st, runner, "copy", 2, v, ms);
		if (judged(cat, st, id, far, &run) == 0) {
			const char *d = json_string_value(json_object_get(run.results[0].prediction, "departure"));

			CHECK(d && strstr(d, "Measured 208× slower than predicted: the model does not explain this point") &&
				      !strstr(d, "likely cause"),
			      "the departure: %s", d ? d : "(none)");
			wl_run_free(&run);
		}
	}
	wl_store_close(st);
	wl_catalog_free(cat);
}
