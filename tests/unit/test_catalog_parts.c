/* Pure parts of the seed catalog: the CPU references
 * of minplus and banks, the exact-sum inputs and check, and the slowdown the
 * server derives. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "catalog.h"
#include "check.h"
#include "request.h"
#include "experiment.h"
#include "references.h"
#include "rng.h"

void test_minplus_reference_is_min_over_k(void)
{
	/* d = [[0 3 1], [2 0 5], [4 1 0]]: r[i][j] = min_k d[i][k] + d[k][j]. */
	static const float d[9] = { 0, 3, 1, 2, 0, 5, 4, 1, 0 };
	static const float want[9] = { 0, 2, 1, 2, 0, 3, 3, 1, 0 };

	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++) {
			float got;

			wl_minplus_reference_entry(d, 3, i, j, &got);
			CHECK(got == want[i * 3 + j], "r[%zu][%zu] = %g, expected %g", i, j, got,
			      want[i * 3 + j]);
		}
}

void test_banks_reference_sums_the_pattern(void)
{
	float want[4];

	/* stride c = 2, 4 work-items, 3 reads: work-item lid reads 2*lid + it. */
	wl_banks_reference("stride", 2, 4, 3, want);
	CHECK(want[0] == 0 + 1 + 2 && want[3] == 6 + 7 + 8, "stride: %g %g", want[0], want[3]);
	/* broadcast c = 2: lid % 2. */
	wl_banks_reference("broadcast", 2, 4, 2, want);
	CHECK(want[2] == 0 + 1 && want[3] == 1 + 2, "broadcast: %g %g", want[2], want[3]);
	/* struct c = 2: lid*2 + f, f = 0, 1, 0; plus it. */
	wl_banks_reference("struct", 2, 4, 3, want);
	CHECK(want[1] == (2 + 0) + (3 + 1) + (2 + 2), "struct: %g", want[1]);
	/* soa c = 2, size 4: f*4 + lid, f = 0, 1, 0; plus it. */
	wl_banks_reference("soa", 2, 4, 3, want);
	CHECK(want[1] == (1 + 0) + (5 + 1) + (1 + 2), "soa: %g", want[1]);
}

void test_exact_sums_catch_one_wrong_element(void)
{
	enum { N = 1 << 20 };
	float *v = malloc(N * sizeof(float)), partials[4];
	struct wl_measurement m;
	struct wl_rng r;
	double want = 0;
	size_t zeros = 0, out_of_range = 0;

	wl_rng_seed(&r, 7);
	wl_rng_fill_small_int(&r, v, N, 8);
	for (size_t i = 0; i < N; i++) {
		zeros += v[i] == 0;
		out_of_range += v[i] < -8 || v[i] > 8 || v[i] != floorf(v[i]);
		want += v[i];
	}
	CHECK(zeros == 0 && out_of_range == 0, "%zu zeros, %zu outside the integers of [-8, 8]", zeros,
	      out_of_range);
	/* Four float partial sums, as a device would form them, in any order. */
	for (int p = 0; p < 4; p++) {
		partials[p] = 0;
		for (size_t i = (size_t)p; i < N; i += 4)
			partials[p] += v[i];
	}
	memset(&m, 0, sizeof(m));
	CHECK(wl_verify_partial_sums(partials, 4, want, &m) == 1, "exact: %s", m.error);
	partials[2] -= v[2];	/* one element dropped */
	CHECK(wl_verify_partial_sums(partials, 4, want, &m) == 0 && strstr(m.error, "off by"),
	      "a dropped element is seen: %s", m.error);
	memset(&m, 0, sizeof(m));
	partials[2] = NAN;	/* a partial never written (poison) */
	CHECK(wl_verify_partial_sums(partials, 4, want, &m) == 0 && strstr(m.error, "never written"),
	      "a poisoned partial is seen: %s", m.error);
	free(v);
}

void test_slowdown_is_relative_to_baseline_point(void)
{
	struct wl_catalog *cat = NULL;
	struct wl_error err;
	json_t *run = json_loads(
		"{\"experiment\":\"banks\",\"results\":["
		"{\"variant\":\"stride\",\"params\":{\"c\":1,\"local\":128,\"groups\":8,\"iters\":64},\"median_ms\":2.0},"
		"{\"variant\":\"stride\",\"params\":{\"c\":32,\"local\":128,\"groups\":8,\"iters\":64},\"median_ms\":40.0},"
		"{\"variant\":\"soa\",\"params\":{\"c\":32,\"local\":128,\"groups\":8,\"iters\":64},\"median_ms\":3.0},"
		"{\"variant\":\"stride\",\"params\":{\"c\":32,\"local\":256,\"groups\":8,\"iters\":64},\"median_ms\":5.0},"
		"{\"variant\":\"stride\",\"params\":{\"c\":4,\"local\":128,\"groups\":8,\"iters\":64},\"median_ms\":null}]}",
		0, NULL);
	struct wl_run typed = { 0 };
	json_t *res;

	CHECK(wl_catalog_load(CATALOG_PATH, &cat, &err) == 0, "%s", err.msg);
	if (!cat || !run)
		goto out;
	CHECK(wl_run_read(cat, run, &typed, &err) == 0 && wl_run_add_slowdown(&typed) == 0, "derive");
	CHECK(typed.results[1].slowdown == 20.0 && isnan(typed.results[2].slowdown), "the typed findings too");
	wl_run_free(&typed);
	res = json_object_get(run, "results");
	CHECK(json_real_value(json_object_get(json_array_get(res, 0), "slowdown")) == 1.0, "the baseline is 1");
	CHECK(json_real_value(json_object_get(json_array_get(res, 1), "slowdown")) == 20.0, "40 / 2 = 20");
	CHECK(json_is_null(json_object_get(json_array_get(res, 2), "slowdown")), "soa has no c = 1 here");
	CHECK(json_is_null(json_object_get(json_array_get(res, 3), "slowdown")), "other local: no baseline");
	CHECK(json_is_null(json_object_get(json_array_get(res, 4), "slowdown")), "failed point");
	/* An experiment without a baseline gets no slowdown field. */
	json_object_set_new(run, "experiment", json_string("copy"));
	CHECK(wl_run_read(cat, run, &typed, &err) == 0 && wl_run_add_slowdown(&typed) == 0, "no baseline: nothing to do");
	wl_run_free(&typed);
out:
	json_decref(run);
	wl_catalog_free(cat);
}

void test_catalog_holds_every_seed_experiment(void)
{
	static const char *const ids[] = { "copy", "strided", "offset", "transpose", "reduction",
					   "dot", "myadd", "minplus", "banks" };
	struct wl_catalog *cat = NULL;
	struct wl_error err;

	CHECK(wl_catalog_load(CATALOG_PATH, &cat, &err) == 0, "%s", err.msg);
	if (!cat)
		return;
	CHECK(cat->nexperiments == 9, "%zu experiments", cat->nexperiments);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct wl_experiment *e = wl_catalog_find(cat, ids[i]);

		CHECK(e && wl_experiment_ops_find(e), "%s is in the catalog and implemented", ids[i]);
	}
	CHECK(wl_experiments_check(cat, 0, &err) == 0, "%s", err.msg);
	CHECK(wl_catalog_find(cat, "myadd")->needs_fp64, "myadd is fp64");
	CHECK(wl_catalog_find(cat, "minplus")->metric == WL_METRIC_THROUGHPUT, "minplus reports Gop/s");
	CHECK(wl_catalog_find(cat, "banks")->baseline_value == 1, "banks is relative to c = 1");
	wl_catalog_free(cat);
}

void test_gather_sum_dot_and_myadd_references(void)
{
	static const float in[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	static const double a[4] = { 1.5, -2.0, 3.25, 4.0 };	/* 2 x 2 */
	float out[4];
	double m[4];

	for (size_t i = 0; i < 4; i++)
		out[i] = in[wl_gather_source(i, 3, 0)];
	CHECK(out[0] == 1 && out[1] == 4 && out[3] == 10, "stride 3: %g %g %g", out[0], out[1], out[3]);
	for (size_t i = 0; i < 4; i++)
		out[i] = in[wl_gather_source(i, 1, 5)];
	CHECK(out[0] == 6 && out[3] == 9, "offset 5: %g %g", out[0], out[3]);
	CHECK(wl_sum_reference(in, 12) == 78, "1 + ... + 12 = 78");
	CHECK(wl_dot_reference(in, in, 3) == 14, "1 + 4 + 9 = 14");
	wl_myadd_reference(a, m, 2, 0);
	CHECK(m[0] == 3.0 && m[1] == -4.0 && m[2] == 0 && m[3] == 0, "rows: even 2a, odd 0");
	wl_myadd_reference(a, m, 2, 1);
	CHECK(m[0] == 3.0 && m[1] == 0 && m[2] == 6.5 && m[3] == 0, "columns: even 2a, odd 0");
}

/* A request's cache mode means one thing to every reader: a run queued
 * before cold mode existed has none and timed hot, so its small points are
 * marked in the cache as a hot run's are; a cold run's never are. */
void test_absent_cache_is_hot_for_every_reader(void)
{
	struct wl_catalog *cat = NULL;
	struct wl_error err;
	const char *modes[] = { NULL, "\"hot\"", "\"cold\"" };

	CHECK(wl_catalog_load(CATALOG_PATH, &cat, &err) == 0, "%s", err.msg);
	if (!cat)
		return;
	for (size_t m = 0; m < 3; m++) {
		struct wl_run typed = { 0 };
		char text[512];
		json_t *run;

		snprintf(text, sizeof(text),
			 "{\"experiment\": \"copy\", \"request\": {\"experiment\": \"copy\"%s%s}, \"device\": {\"cache\": {\"bytes\": 52428800}},"
			 " \"results\": [{\"variant\": \"float\", \"params\": {\"n\": 4096, \"local\": 256}}]}",
			 modes[m] ? ", \"cache\": " : "", modes[m] ? modes[m] : "");
		run = json_loads(text, 0, NULL);
		CHECK(run && wl_request_cache(json_object_get(run, "request")) == (m == 2 ? WL_CACHE_COLD : WL_CACHE_HOT),
		      "mode %s", modes[m] ? modes[m] : "(absent)");
		CHECK(run && wl_run_read(cat, run, &typed, &err) == 0 && wl_run_add_cache_marks(&typed) == 0 &&
			      json_is_true(json_object_get(json_array_get(json_object_get(run, "results"), 0), "in_cache")) == (m != 2),
		      "a 32 KiB point of a %s run in a 50 MB cache", modes[m] ? modes[m] : "hot (absent)");
		wl_run_free(&typed);
		json_decref(run);
	}
	CHECK(strcmp(wl_cache_mode_name(WL_CACHE_COLD), "cold") == 0 && strcmp(wl_cache_mode_name(WL_CACHE_HOT), "hot") == 0,
	      "the names");
	wl_catalog_free(cat);
}
