/* One rule for every sentence of the verdict that compares two figures
 * (wl_result_verdict over wl_time_verdict): intervals that overlap are
 * "within noise", never a factor or a percentage — for a variant against
 * another at a point, for one variant's points of a sweep by rate, and for
 * "at every point", which is said plainly only where it holds beyond noise.
 * The cases are the ones a reader met on the run pages. */
#include <math.h>
#include <string.h>

#include "analysis.h"
#include "check.h"

/* A result of variant at n with median ms in [lo, hi], verified. */
static json_t *timed(const char *variant, long long n, double ms, double lo, double hi)
{
	double bytes = 8.0 * (double)n * (double)n;

	return json_pack("{s:s, s:{s:I, s:i, s:i}, s:f, s:f, s:f, s:b, s:f, s:f}", "variant", variant, "params", "n",
			 (json_int_t)n, "tile", 32, "rows", 8, "median_ms", ms, "ci_low_ms", lo, "ci_high_ms", hi,
			 "verified", 1, "bytes", bytes, "gbps", bytes / (ms * 1e6));
}

/* The verdict's sentence of a finished transpose run of results with
 * variants (a JSON array of ids); NULL where it is not made. Caller frees
 * *run. */
static const char *sentence(const struct wl_catalog *cat, json_t *variants, json_t *results, json_t **run)
{
	struct wl_run typed;
	struct wl_error err;
	int ok;

	*run = json_pack("{s:s, s:s, s:{s:f, s:o}, s:o}", "status", "done", "experiment", "transpose", "request",
			 "noise", 0.01, "variants", variants, "results", results);
	if (!*run || wl_run_read(cat, *run, &typed, &err) < 0)
		return NULL;
	ok = wl_run_add_variants(&typed) == 0 && wl_run_add_verdict(&typed) == 0;
	wl_run_free(&typed);
	return ok ? json_string_value(json_object_get(json_object_get(*run, "verdict"), "sentence")) : NULL;
}

void test_verdict_says_within_noise_wherever_intervals_overlap(void)
{
	struct wl_catalog *cat = check_load_catalog();
	struct wl_run empty = { 0 };
	struct wl_result a = { 0 }, b = { 0 };
	json_t *run;
	const char *text;

	if (!cat)
		return;
	/* The rule itself: float's [48.3, 157.8] ms against float2's [37.3,
	 * 102.3] overlap, whatever their medians; apart, they are judged. */
	a.median_ms = 64, a.ci_low_ms = 37.3, a.ci_high_ms = 102.3;
	b.median_ms = 102, b.ci_low_ms = 48.3, b.ci_high_ms = 157.8;
	a.bytes = b.bytes = 1e9;
	CHECK(wl_result_verdict(&empty, &a, &b, 0, 0.01) == WL_SAME, "overlapping: within noise");
	b.ci_low_ms = 103;
	CHECK(wl_result_verdict(&empty, &a, &b, 0, 0.01) == WL_FASTER, "apart: faster");
	/* Rates of two points: 10.4 GB/s in [5.96, 12.7] against [8.7, 25.1]
	 * (twice the bytes at the second point) overlap. */
	a.bytes = 1e9, a.median_ms = 1e9 / 10.4e6, a.ci_low_ms = 1e9 / 12.7e6, a.ci_high_ms = 1e9 / 5.96e6;
	b.bytes = 2e9, b.median_ms = 2e9 / 11.2e6, b.ci_low_ms = 2e9 / 25.1e6, b.ci_high_ms = 2e9 / 8.7e6;
	CHECK(wl_result_verdict(&empty, &a, &b, 1, 0.01) == WL_SAME, "rates overlapping: within noise");
	b.ci_high_ms = b.median_ms * 1.01, b.ci_low_ms = b.median_ms * 0.99;
	a.ci_high_ms = a.median_ms * 1.01, a.ci_low_ms = a.median_ms * 0.99;
	CHECK(wl_result_verdict(&empty, &a, &b, 1, 0.01) == WL_SLOWER, "rates apart: 10.4 GB/s is slower than 11.2");

	/* A winner within noise of the reference gets no factor over it. */
	text = sentence(cat, json_pack("[s, s]", "naive", "padded"),
			json_pack("[o, o]", timed("padded", 4096, 64, 37.3, 102.3), timed("naive", 4096, 102, 48.3, 157.8)),
			&run);
	CHECK(text && strstr(text, "padded is the fastest, within noise of naive") &&
		      !strstr(text, "faster than naive"), "no factor within noise: %s", text);
	json_decref(run);

	/* One variant's sweep: a slower rate within noise is said so. */
	text = sentence(cat, json_pack("[s]", "naive"),
			json_pack("[o, o]", timed("naive", 1024, 0.80, 0.40, 0.96), timed("naive", 2048, 3.44, 1.6, 4.0)),
			&run);
	CHECK(text && strstr(text, "at n = 2048 it is within noise of that") && !strstr(text, "% slower"),
	      "a sweep's rates within noise: %s", text);
	json_decref(run);
	text = sentence(cat, json_pack("[s]", "naive"),
			json_pack("[o, o]", timed("naive", 1024, 0.80, 0.79, 0.81), timed("naive", 2048, 3.44, 3.43, 3.45)),
			&run);
	CHECK(text && strstr(text, "at n = 2048 it is 7% slower"), "apart, the sweep says by how much: %s", text);
	json_decref(run);
	wl_catalog_free(cat);
}
