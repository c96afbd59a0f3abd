/* The compare page's judgement (wl_compare in analysis/regressions.c) on one
 * row of results: which run is the fastest, and the spread between runs that
 * repeated the row in one setting. Each case is a handful of results, one
 * per run; what it should give is written beside it. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "analysis.h"
#include "check.h"

#define FAILED (-1e300) /* a median that is null: the point failed */
#define MAX_CELLS 4

struct cell {
	int run;
	const char *device, *language, *cache; /* NULL: absent from the run */
	int verified;
	double median, lo, hi;
};

/* A run as wl_store_get_run gives it, with one result: copy's float at
 * n = 1. */
static json_t *run_of(const struct cell *c)
{
	json_t *request = json_pack("{s:s, s:f}", "experiment", "copy", "noise", 0.01);
	json_t *result = json_pack("{s:s, s:{s:i}, s:b}", "variant", "float", "params", "n", 1, "verified",
				   c->verified);
	json_t *run;

	if (c->language)
		json_object_set_new(request, "language", json_string(c->language));
	if (c->cache)
		json_object_set_new(request, "cache", json_string(c->cache));
	json_object_set_new(result, "median_ms", c->median == FAILED ? json_null() : json_real(c->median));
	json_object_set_new(result, "ci_low_ms", c->median == FAILED ? json_null() : json_real(c->lo));
	json_object_set_new(result, "ci_high_ms", c->median == FAILED ? json_null() : json_real(c->hi));
	run = json_pack("{s:i, s:s, s:o, s:o, s:[o]}", "id", c->run, "experiment", "copy", "device",
			c->device ? json_pack("{s:s}", "id", c->device) : json_null(), "request", request,
			"results", result);
	return run;
}

/* A row's repeats as one line: "device/language/cache:runs spread% [apart]",
 * entries joined by "; ". */
static void repeats_text(const json_t *repeats, char *out, size_t len)
{
	const json_t *e, *id;
	size_t i, j, at = 0;

	out[0] = '\0';
	json_array_foreach(repeats, i, e) {
		at += (size_t)snprintf(out + at, len - at, "%s%s/%s/%s:", i ? "; " : "",
				       json_string_value(json_object_get(e, "device")),
				       json_string_value(json_object_get(e, "language")),
				       json_string_value(json_object_get(e, "cache")));
		json_array_foreach(json_object_get(e, "runs"), j, id)
			at += (size_t)snprintf(out + at, len - at, "%s%lld", j ? "," : "", json_integer_value(id));
		at += (size_t)snprintf(out + at, len - at, " %.1f%%%s",
				       json_number_value(json_object_get(e, "spread_pct")),
				       json_is_true(json_object_get(e, "apart")) ? " apart" : "");
		if (at >= len)
			return;
	}
}

void test_compare_never_stars_zero_or_failed_and_spreads_repeats(void)
{
	static const struct {
		const char *what;
		struct cell cells[MAX_CELLS];
		long long fastest; /* 0: null */
		const char *repeats;
	} rows[] = {
		{ "a zero median is never the fastest",
		  { { 1, "a", "opencl", "cold", 1, 0.0, 0.0, 0.0 }, { 2, "a", "opencl", "cold", 1, 0.5, 0.49, 0.51 } },
		  0, "" },
		{ "nor does a zero stand in the way of the fastest",
		  { { 1, "a", "opencl", "cold", 1, 0.0, 0.0, 0.0 }, { 2, "a", "opencl", "cold", 1, 0.5, 0.49, 0.51 },
		    { 3, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 } },
		  2, "a/opencl/cold:2,3 66.7% apart" },
		{ "a negative median is no time",
		  { { 1, "a", "opencl", "cold", 1, -1.0, -1.0, -1.0 }, { 2, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 } },
		  0, "" },
		{ "a failed point is never the fastest",
		  { { 1, "a", "opencl", "cold", 0, FAILED, 0, 0 }, { 2, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 },
		    { 3, "a", "opencl", "cold", 1, 2.0, 1.98, 2.02 } },
		  2, "a/opencl/cold:2,3 66.7% apart" },
		{ "an unverified result, however quick, is never the fastest",
		  { { 1, "a", "opencl", "cold", 0, 0.1, 0.09, 0.11 }, { 2, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 },
		    { 3, "a", "opencl", "cold", 1, 2.0, 1.98, 2.02 } },
		  2, "a/opencl/cold:2,3 66.7% apart" },
		{ "overlapping intervals: no fastest, a spread within noise",
		  { { 1, "a", "opencl", "cold", 1, 1.0, 0.9, 1.1 }, { 2, "a", "opencl", "cold", 1, 1.05, 1.0, 1.1 } },
		  0, "a/opencl/cold:1,2 4.9%" },
		{ "three runs: the spread is over the median of the medians",
		  { { 1, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 }, { 2, "a", "opencl", "cold", 1, 1.2, 1.19, 1.21 },
		    { 3, "a", "opencl", "cold", 1, 3.0, 2.99, 3.01 } },
		  1, "a/opencl/cold:1,2,3 166.7% apart" },
		{ "other devices are no repeats",
		  { { 1, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 }, { 2, "b", "opencl", "cold", 1, 2.0, 1.98, 2.02 } },
		  1, "" },
		{ "nor are another language or another cache mode",
		  { { 1, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 }, { 2, "a", "cuda", "cold", 1, 1.1, 1.09, 1.11 },
		    { 3, "a", "opencl", "hot", 1, 1.2, 1.19, 1.21 }, { 4, "a", "opencl", "cold", 1, 1.03, 1.02, 1.04 } },
		  1, "a/opencl/cold:1,4 3.0% apart" },
		{ "two settings, each repeated: an entry each, first seen first",
		  { { 1, "b", "opencl", "cold", 1, 2.0, 1.98, 2.02 }, { 2, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 },
		    { 3, "b", "opencl", "cold", 1, 2.2, 2.18, 2.22 }, { 4, "a", "opencl", "cold", 1, 1.1, 1.09, 1.11 } },
		  2, "b/opencl/cold:1,3 9.5% apart; a/opencl/cold:2,4 9.5% apart" },
		{ "a request without language or cache is OpenCL, hot",
		  { { 1, "a", NULL, NULL, 1, 1.0, 0.99, 1.01 }, { 2, "a", "opencl", "hot", 1, 1.0, 0.99, 1.01 } },
		  0, "a/opencl/hot:1,2 0.0%" },
		{ "a run without a device repeats nothing",
		  { { 1, NULL, "opencl", "cold", 1, 1.0, 0.99, 1.01 }, { 2, "a", "opencl", "cold", 1, 1.0, 0.99, 1.01 } },
		  0, "" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct wl_run runs[MAX_CELLS];
		struct wl_error err;
		json_t *out;
		const json_t *row, *fastest;
		char seen[256];
		size_t n = 0;

		for (; n < MAX_CELLS && rows[i].cells[n].run; n++) {
			json_t *stored = run_of(&rows[i].cells[n]);

			CHECK(wl_run_read(NULL, stored, &runs[n], &err) == 0, "%s: read", rows[i].what);
			json_decref(stored);
		}
		out = wl_compare(runs, n);
		row = json_array_get(json_object_get(out, "rows"), 0);
		CHECK(row, "%s: no row", rows[i].what);
		if (!row) {
			json_decref(out);
			for (size_t k = 0; k < n; k++)
				wl_run_free(&runs[k]);
			continue;
		}
		fastest = json_object_get(row, "fastest");
		CHECK(rows[i].fastest ? json_integer_value(fastest) == rows[i].fastest : json_is_null(fastest),
		      "%s: fastest %lld, expected %lld", rows[i].what,
		      json_is_integer(fastest) ? json_integer_value(fastest) : 0, rows[i].fastest);
		repeats_text(json_object_get(row, "repeats"), seen, sizeof(seen));
		CHECK(strcmp(seen, rows[i].repeats) == 0, "%s: repeats \"%s\", expected \"%s\"", rows[i].what, seen,
		      rows[i].repeats);
		json_decref(out);
		for (size_t k = 0; k < n; k++)
			wl_run_free(&runs[k]);
	}
}
