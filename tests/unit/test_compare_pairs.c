/* The compare page's first sentences (wl_compare_pairs): each run after the
 * first against the first, what differs between them and what moved beyond
 * noise, by how much — and, where nothing did, that nothing did. */
#include <string.h>

#include <jansson.h>

#include "analysis.h"
#include "check.h"

/* A copy run with float's results at n = 1, 2, 3 (medians ms[], each ±1%). */
static json_t *run_of(int id, const char *device, const char *language, const double *ms)
{
	json_t *results = json_array();

	for (int i = 0; i < 3; i++)
		json_array_append_new(results, json_pack("{s:s, s:{s:i}, s:b, s:f, s:f, s:f}", "variant", "float", "params",
							 "n", i + 1, "verified", 1, "median_ms", ms[i], "ci_low_ms",
							 ms[i] * 0.99, "ci_high_ms", ms[i] * 1.01));
	return json_pack("{s:i, s:s, s:{s:s, s:s}, s:{s:s, s:f, s:s, s:{s:i}}, s:o}", "id", id, "experiment", "copy",
			 "device", "id", device, "name", device, "request", "experiment", "copy", "noise", 0.01,
			 "language", language, "params", "n", 3, "results", results);
}

void test_compare_says_what_differs_and_what_moved(void)
{
	static const double first[] = { 2.0, 1.0, 3.0 }, moved[] = { 1.0, 1.5, 3.0 }, still[] = { 2.0, 1.0, 3.005 };
	json_t *stored[3] = { run_of(1, "a", "opencl", first), run_of(2, "b", "cuda", moved),
			      run_of(3, "a", "opencl", still) };
	struct wl_run runs[3];
	struct wl_error err;
	const char *text;
	json_t *out, *pairs;

	for (int i = 0; i < 3; i++) {
		CHECK(wl_run_read(NULL, stored[i], &runs[i], &err) == 0, "read");
		json_decref(stored[i]);
	}
	out = wl_compare(runs, 3);
	pairs = wl_compare_pairs(runs, 3, json_object_get(out, "rows"));
	CHECK(json_array_size(pairs) == 2, "a sentence per run after the first");
	text = json_string_value(json_object_get(json_array_get(pairs, 0), "sentence"));
	CHECK(text && strcmp(text, "#2 against #1: on b rather than a; in CUDA rather than OpenCL. Of the 3 rows both "
			     "measured, 1 is faster beyond noise (float at n = 1 most: 2.00× faster), 1 is slower "
			     "(float at n = 2 most: 1.50× slower) and 1 is within noise.") == 0,
	      "what differs and what moved: %s", text);
	CHECK(json_integer_value(json_object_get(json_array_get(pairs, 0), "faster")) == 1 &&
		      json_array_size(json_object_get(json_array_get(pairs, 0), "differs")) == 2,
	      "counted and named");
	text = json_string_value(json_object_get(json_array_get(pairs, 1), "sentence"));
	CHECK(text && strcmp(text, "#3 against #1: the same device, language, sources, cache mode and params. All 3 "
			     "rows both measured are within noise: nothing moved.") == 0,
	      "nothing moved: %s", text);
	json_decref(pairs);
	json_decref(out);
	for (int i = 0; i < 3; i++)
		wl_run_free(&runs[i]);
}
