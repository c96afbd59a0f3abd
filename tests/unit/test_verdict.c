/* The run's verdict (analysis/verdict.c) on runs made up here: who won, by how
 * much, within noise or apart, what a result that did not verify or took no
 * time may never win, and sentences that say only what the figures say. */
#include <math.h>
#include <string.h>

#include "analysis.h"
#include "check.h"

/* A result of variant at n with median ms, its interval ±half (relative),
 * verified or not, the rate its bytes give, and a prediction binding. */
static json_t *result(const char *variant, long long n, double ms, double half, int verified, const char *binding,
		      double spr)
{
	double bytes = 8.0 * (double)n * (double)n;

	return json_pack("{s:s, s:{s:I, s:i, s:i}, s:f, s:f, s:f, s:b, s:f, s:f, s:f, s:{s:s, s:f}}", "variant", variant,
			 "params", "n", (json_int_t)n, "tile", 32, "rows", 8, "median_ms", ms, "ci_low_ms", ms * (1 - half),
			 "ci_high_ms", ms * (1 + half), "verified", verified, "bytes", bytes, "gbps",
			 ms > 0 ? bytes / (ms * 1e6) : 0.0, "ceiling_pct", ms > 0 ? 100 * bytes / (ms * 1e6) / 3000 : 0.0,
			 "prediction", "binding", binding, "sectors_per_request", spr);
}

static json_t *run_of(const char *status, json_t *results)
{
	json_t *run = json_pack("{s:s, s:s, s:{s:f, s:[s, s, s, s]}, s:o}", "status", status, "experiment",
				"transpose", "request", "noise", 0.01, "variants", "copy", "naive", "tiled", "padded",
				"results", results);

	return run;
}

/* run typed against cat and through steps; whether all went well. */
static int derive(const struct wl_catalog *cat, json_t *run, int (*steps)(struct wl_run *))
{
	struct wl_run typed;
	struct wl_error err;
	int ok;

	if (wl_run_read(cat, run, &typed, &err) < 0)
		return 0;
	ok = steps(&typed) == 0;
	wl_run_free(&typed);
	return ok;
}

/* The variants and the verdict, each result's ceiling share and prediction
 * as the steps before the verdict would find them: here the made-up
 * "ceiling_pct" and "prediction" of result(). */
static int verdict_steps(struct wl_run *run)
{
	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		const json_t *p = json_object_get(r->json, "prediction");

		if (json_is_number(json_object_get(r->json, "ceiling_pct")))
			r->ceiling_pct = json_number_value(json_object_get(r->json, "ceiling_pct"));
		r->prediction = p;
		r->binding = json_string_value(json_object_get(p, "binding"));
		r->sectors_per_request = json_number_value(json_object_get(p, "sectors_per_request"));
	}
	return wl_run_add_variants(run) < 0 || wl_run_add_verdict(run) < 0 ? -1 : 0;
}

static int judge(const struct wl_catalog *cat, json_t *run)
{
	return derive(cat, run, verdict_steps);
}

static const json_t *point_at(const json_t *verdict, long long n)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(verdict, "points"), i, p)
		if (json_integer_value(json_object_get(json_object_get(p, "params"), "n")) == n)
			return p;
	return NULL;
}

void test_verdict_names_the_winner_by_how_much_and_why(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *exp = cat ? wl_catalog_find(cat, "transpose") : NULL;
	json_t *run, *v;
	const json_t *p;
	const char *text;

	if (!exp)
		return;
	/* n = 4096: padded 0.05 ms ±1%, tiled 0.09, naive 0.30, and a copy that
	 * failed verification at 0.04 (faster, but it may not win). n = 8192:
	 * padded and tiled within noise of each other. */
	run = run_of("done", json_pack("[o, o, o, o, o, o, o]", result("padded", 4096, 0.05, 0.01, 1, "dram", 4),
				       result("tiled", 4096, 0.09, 0.01, 1, "local", 4),
				       result("naive", 4096, 0.30, 0.01, 1, "cache", 32),
				       result("copy", 4096, 0.04, 0.01, 0, "dram", 4),
				       result("padded", 8192, 0.200, 0.02, 1, "dram", 4),
				       result("tiled", 8192, 0.201, 0.02, 1, "local", 4),
				       result("naive", 8192, 1.2, 0.01, 1, "cache", 32)));
	CHECK(run && judge(cat, run), "the verdict is made");
	v = json_object_get(run, "verdict");
	p = point_at(v, 4096);
	CHECK(p && strcmp(json_string_value(json_object_get(p, "fastest")), "padded") == 0 &&
		      json_is_true(json_object_get(p, "apart")) && json_array_size(json_object_get(p, "tied")) == 0,
	      "at 4096 padded wins apart from the rest: %s", json_dumps(p, JSON_COMPACT));
	CHECK(p && fabs(json_number_value(json_object_get(json_object_get(p, "reference"), "factor")) - 6) < 1e-9 &&
		      strcmp(json_string_value(json_object_get(json_object_get(p, "reference"), "variant")), "naive") == 0,
	      "6× the reference, naive");
	CHECK(p && json_array_size(json_object_get(p, "unverified_faster")) == 1, "the unverified copy was faster");
	p = point_at(v, 8192);
	CHECK(p && strcmp(json_string_value(json_object_get(p, "fastest")), "padded") == 0 &&
		      json_is_false(json_object_get(p, "apart")) &&
		      strcmp(json_string_value(json_array_get(json_object_get(p, "tied"), 0)), "tiled") == 0,
	      "at 8192 padded leads within noise of tiled: %s", json_dumps(p, JSON_COMPACT));
	text = json_string_value(json_object_get(v, "sentence"));
	CHECK(text && strcmp(json_string_value(json_object_get(v, "fastest")), "padded") == 0 &&
		      strstr(text, "padded is the fastest at every point, beyond noise at 1 of 2, within noise of tiled at n = 8192.") &&
		      strstr(text, "At n = 8192 it reaches") && strstr(text, "6.0× faster than naive (the slowest)") &&
		      strstr(text, "padded is bound by DRAM bandwidth; naive by the last-level cache's bandwidth, with 32 sectors per request (against 4)"),
	      "the run's sentence: %s", text);
	json_decref(run);

	/* Wins split between points: counted, and the point the rate is quoted
	 * at said in its own sentence. */
	run = run_of("done", json_pack("[o, o, o, o, o, o]", result("tiled", 1024, 0.010, 0.0001, 1, "local", 4),
				       result("padded", 1024, 0.020, 0.0001, 1, "dram", 4),
				       result("tiled", 2048, 0.040, 0.0001, 1, "local", 4),
				       result("padded", 2048, 0.080, 0.0001, 1, "dram", 4),
				       result("tiled", 4096, 0.400, 0.0001, 1, "local", 4),
				       result("padded", 4096, 0.200, 0.0001, 1, "dram", 4)));
	CHECK(run && judge(cat, run), "the verdict is made");
	text = json_string_value(json_object_get(json_object_get(run, "verdict"), "sentence"));
	CHECK(text && strstr(text, "padded is the fastest at 1 of 3 points (tiled at 2). At n = 4096 it reaches"),
	      "split wins: %s", text);
	json_decref(run);

	/* Still measuring: "so far"; a result of no time never wins. */
	run = run_of("running", json_pack("[o, o]", result("padded", 4096, 0.0, 0, 1, "dram", 4),
					   result("naive", 4096, 0.3, 0.01, 1, "cache", 32)));
	CHECK(run && judge(cat, run), "the verdict is made");
	v = json_object_get(run, "verdict");
	text = json_string_value(json_object_get(v, "sentence"));
	CHECK(json_is_true(json_object_get(v, "so_far")) && strcmp(json_string_value(json_object_get(v, "fastest")), "naive") == 0 &&
		      text && strncmp(text, "So far, naive is the fastest", 28) == 0,
	      "a zero time never wins; so far: %s", text);
	json_decref(run);
	wl_catalog_free(cat);
}

/* A run of one variant compares its points by rate; an empty run has no verdict. */
void test_verdict_of_one_variant_compares_its_points(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *exp = cat ? wl_catalog_find(cat, "transpose") : NULL;
	json_t *run;
	const char *text;

	if (!exp)
		return;
	run = run_of("done", json_pack("[o, o, o]", result("naive", 1024, 0.01, 0.01, 1, "latency", 32),
				       result("naive", 2048, 0.02, 0.01, 1, "cache", 32),
				       result("naive", 4096, 0.30, 0.01, 1, "dram", 32)));
	json_array_clear(json_object_get(json_object_get(run, "request"), "variants"));
	json_array_append_new(json_object_get(json_object_get(run, "request"), "variants"), json_string("naive"));
	CHECK(judge(cat, run), "the verdict is made");
	text = json_string_value(json_object_get(json_object_get(run, "verdict"), "sentence"));
	CHECK(text && strstr(text, "naive reaches") && strstr(text, "at n = 2048") && strstr(text, "the rate at n = 4096") &&
		      strstr(text, "n = 2048 is bound by the last-level cache's bandwidth; n = 4096 by DRAM bandwidth"),
	      "one variant's sweep: %s", text);
	json_decref(run);
	run = run_of("queued", json_array());
	CHECK(judge(cat, run) && json_is_null(json_object_get(run, "verdict")), "no results, no verdict");
	json_decref(run);
	wl_catalog_free(cat);
}

static int drops_steps(struct wl_run *run)
{
	return wl_run_add_intervals(run) < 0 || wl_run_add_drops(run) < 0 ? -1 : 0;
}

/* A custom kernel's judgement against its like, by the verdict's rule. */
static const json_t *custom_of(const json_t *run, const char *kernel)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(run, "verdict"), "custom"), i, c)
		if (strcmp(json_string_value(json_object_get(c, "kernel")), kernel) == 0)
			return c;
	return NULL;
}

/* A user who adds kernels to a lesson is told, for each, whether it beat
 * the variant it is like, by how much and beyond the noise or not, and
 * where it did not build or verify, that and why — also when it is no
 * winner of the run. */
void test_verdict_says_whether_each_custom_kernel_beat_its_like(void)
{
	static const struct {
		const char *kernel;
		double ms, half;
		int verified;
		const char *error, *outcome, *words;
	} rows[] = {
		{ "quick", 0.45, 0.01, 1, NULL, "faster", "Your kernel quick is 1.1× faster than padded, the variant it is like" },
		{ "even", 0.50, 0.05, 1, NULL, "same", "Your kernel even is within noise of padded, the variant it is like" },
		{ "slow", 1.00, 0.01, 1, NULL, "slower", "Your kernel slow is 2.0× slower than padded, the variant it is "
		  "like. In the model, padded is bound by DRAM bandwidth; slow by the last-level cache's bandwidth, with "
		  "32 sectors per request (against 4)." },
		{ "broken", 0, 0, 0, "custom kernel 'broken' did not build on x (options as for 'padded'); build log:\n<source>:3: error",
		  "failed", "Your kernel broken did not build: custom kernel 'broken' did not build on x" },
		{ "wrong", 0.40, 0.01, 0, "verification failed: 12 of 1048576 elements differ", "unverified",
		  "Your kernel wrong ran but its output is not padded's: verification failed" },
	};
	struct wl_catalog *cat = check_load_catalog();
	json_t *results = json_array(), *kernels = json_array(), *run;
	const char *text;

	if (!cat)
		return;
	json_array_append_new(results, result("padded", 1024, 0.50, 0.01, 1, "dram", 4));
	json_array_append_new(results, result("naive", 1024, 2.00, 0.01, 1, "cache", 32));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		/* The slow one reads as naive does: why it is slower is the model's. */
		int slow = strcmp(rows[i].kernel, "slow") == 0;
		json_t *r = result(rows[i].kernel, 1024, rows[i].ms, rows[i].half, rows[i].verified, slow ? "cache" : "dram",
				   slow ? 32 : 4);

		if (rows[i].error)
			json_object_set_new(r, "error", json_string(rows[i].error));
		if (rows[i].ms == 0)
			json_object_set_new(r, "median_ms", json_null());
		json_array_append_new(results, r);
		json_array_append_new(kernels, json_pack("{s:s, s:s}", "name", rows[i].kernel, "like", "padded"));
	}
	run = run_of("done", results);
	json_object_set_new(json_object_get(run, "request"), "kernels", kernels);
	CHECK(judge(cat, run), "the verdict is made");
	text = json_string_value(json_object_get(json_object_get(run, "verdict"), "sentence"));
	for (size_t i = 0; text && i < sizeof(rows) / sizeof(rows[0]); i++) {
		const json_t *c = custom_of(run, rows[i].kernel);

		CHECK(c && strcmp(json_string_value(json_object_get(c, "outcome")), rows[i].outcome) == 0,
		      "%s: outcome %s, expected %s", rows[i].kernel, c ? json_string_value(json_object_get(c, "outcome")) : "(none)",
		      rows[i].outcome);
		CHECK(strstr(text, rows[i].words), "%s: the sentence says '%s': %s", rows[i].kernel, rows[i].words, text);
	}
	CHECK(fabs(json_real_value(json_object_get(custom_of(run, "quick"), "factor")) - 0.50 / 0.45) < 1e-9,
	      "the factor is the like's time over the kernel's");
	CHECK(text && strstr(text, "quick is the fastest"), "the fastest custom kernel still wins the run: %s", text);
	json_decref(run);
	wl_catalog_free(cat);
}

static int judge_drops(const struct wl_catalog *cat, json_t *run)
{
	return derive(cat, run, drops_steps);
}

/* Drops are judged only once a run is done and a sweep has neighbours on
 * both sides: null while running and for two sizes; a list (here one drop,
 * at 1024) when a done sweep has three or more. */
void test_drops_wait_for_the_run_and_three_points(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *exp = cat ? wl_catalog_find(cat, "transpose") : NULL;
	static const long long sizes[] = { 512, 768, 1024, 1280, 1536 };
	json_t *results, *run;

	if (!exp)
		return;
	results = json_array();
	/* padded at the same pace everywhere except n = 1024, where it is 3× slower. */
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		json_array_append_new(results, result("padded", sizes[i], 1e-6 * (double)(sizes[i] * sizes[i]) *
								     (sizes[i] == 1024 ? 3 : 1), 0.01, 1, "dram", 4));
	run = run_of("running", json_deep_copy(results));
	CHECK(judge_drops(cat, run) && json_is_null(json_object_get(run, "drops")),
	      "no drops verdict while the run is running");
	json_decref(run);
	run = run_of("done", json_pack("[O, O]", json_array_get(results, 0), json_array_get(results, 1)));
	CHECK(judge_drops(cat, run) && json_is_null(json_object_get(run, "drops")),
	      "no drops verdict over two sizes");
	json_decref(run);
	run = run_of("done", json_deep_copy(results));
	CHECK(judge_drops(cat, run) && json_array_size(json_object_get(run, "drops")) == 1 &&
		      json_integer_value(json_object_get(json_array_get(json_object_get(run, "drops"), 0), "value")) == 1024,
	      "the drop at 1024 of a done sweep: %s", json_dumps(json_object_get(run, "drops"), JSON_COMPACT));
	json_decref(run);
	json_decref(results);
	wl_catalog_free(cat);
}
