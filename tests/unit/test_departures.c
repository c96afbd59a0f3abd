/* The run's departures listed once (wl_run_add_departures): the points of a
 * variant that depart the same way with the same sentence are one entry,
 * over the swept values where it is said, with the range of its factor —
 * the strided sweep's slow strides as one, the transpose family's variants
 * each apart; a point within 2x is in none. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"

/* A verified result of variant at params whose prediction has ratio and, as
 * the trust rule words it beyond 2x, its departure. */
static json_t *predicted(const char *variant, json_t *params, double ratio)
{
	char text[300];
	double f = ratio > 1 ? ratio : 1 / ratio;

	snprintf(text, sizeof(text), "Measured %.1f× %s than predicted: the model does not explain this point and "
		 "names no cause.", f, ratio > 1 ? "faster" : "slower");
	return json_pack("{s:s, s:o, s:f, s:b, s:{s:f, s:o}}", "variant", variant, "params", params, "median_ms", 1.0,
			 "verified", 1, "prediction", "ratio", ratio, "departure",
			 f > 2 ? json_string(text) : json_null());
}

/* Run json (experiment, variants, results) read and its departures added;
 * its "departures" (a reference the caller frees) or NULL. */
static json_t *departures_of(const struct wl_catalog *cat, const char *experiment, json_t *variants,
			     json_t *results)
{
	json_t *run = json_pack("{s:s, s:s, s:{s:o}, s:o}", "status", "done", "experiment", experiment, "request",
				"variants", variants, "results", results), *list = NULL;
	struct wl_run typed;
	struct wl_error err;

	if (!run || wl_run_read(cat, run, &typed, &err) < 0) {
		json_decref(run);
		return NULL;
	}
	if (wl_run_add_departures(&typed) == 0)
		list = json_incref(json_object_get(run, "departures"));
	wl_run_free(&typed);
	json_decref(run);
	return list;
}

/* The entry of variant, or NULL. */
static const json_t *entry_of(const json_t *list, const char *variant)
{
	size_t i;
	const json_t *e;

	json_array_foreach(list, i, e)
		if (strcmp(json_string_value(json_object_get(e, "variant")), variant) == 0)
			return e;
	return NULL;
}

/* Whether e is at the values want (n of them, ascending). */
static int at(const json_t *e, const long long *want, size_t n)
{
	const json_t *a = json_object_get(e, "at");

	for (size_t i = 0; i < n; i++)
		if (json_integer_value(json_array_get(a, i)) != want[i])
			return 0;
	return json_array_size(a) == n;
}

static void strided_sweep(const struct wl_catalog *cat)
{
	json_t *list = departures_of(
		cat, "strided", json_pack("[s]", "stride"),
		json_pack("[o, o, o, o]", predicted("stride", json_pack("{s:i, s:i}", "stride", 8, "n", 1048576), 0.8),
			  predicted("stride", json_pack("{s:i, s:i}", "stride", 64, "n", 1048576), 0.3),
			  predicted("stride", json_pack("{s:i, s:i}", "stride", 16, "n", 1048576), 0.45),
			  predicted("stride", json_pack("{s:i, s:i}", "stride", 32, "n", 1048576), 1 / 3.0)));
	const json_t *e = entry_of(list, "stride");
	const long long strides[] = { 16, 32, 64 };

	CHECK(list && json_array_size(list) == 1, "one sentence over the sweep");
	CHECK(e && at(e, strides, 3) && strcmp(json_string_value(json_object_get(e, "param")), "stride") == 0,
	      "said at stride 16, 32 and 64, not 8");
	CHECK(e && json_object_size(json_object_get(e, "where")) == 0, "n, the run's one value, not said");
	CHECK(e && strcmp(json_string_value(json_object_get(e, "sentence")),
			  "Measured 2.2–3.3× slower than predicted: the model does not explain this point and names no "
			  "cause.") == 0, "the factor's range: %s", e ? json_string_value(json_object_get(e, "sentence")) : "");
	CHECK(e && fabs(json_number_value(json_array_get(json_object_get(e, "factor"), 1)) - 1 / 0.3) < 1e-9,
	      "the widest factor");
	json_decref(list);
}

static void transpose_family(const struct wl_catalog *cat)
{
	json_t *list = departures_of(
		cat, "transpose", json_pack("[s, s, s]", "naive", "tiled", "padded"),
		json_pack("[o, o, o, o, o, o]",
			  predicted("tiled", json_pack("{s:i, s:i, s:i}", "n", 1024, "tile", 32, "rows", 8), 0.4),
			  predicted("padded", json_pack("{s:i, s:i, s:i}", "n", 1024, "tile", 32, "rows", 8), 0.35),
			  predicted("naive", json_pack("{s:i, s:i, s:i}", "n", 1024, "tile", 32, "rows", 8), 1.2),
			  predicted("tiled", json_pack("{s:i, s:i, s:i}", "n", 2048, "tile", 32, "rows", 8), 0.4),
			  predicted("padded", json_pack("{s:i, s:i, s:i}", "n", 2048, "tile", 32, "rows", 8), 0.8),
			  predicted("naive", json_pack("{s:i, s:i, s:i}", "n", 2048, "tile", 32, "rows", 8), 2.5)));
	const long long both[] = { 1024, 2048 }, first[] = { 1024 }, second[] = { 2048 };
	const json_t *tiled = entry_of(list, "tiled"), *padded = entry_of(list, "padded"), *naive = entry_of(list, "naive");
	char *text;

	CHECK(list && json_array_size(list) == 3, "a sentence per variant that departs");
	CHECK(tiled && at(tiled, both, 2) && strstr(json_string_value(json_object_get(tiled, "sentence")),
						    "Measured 2.5× slower than predicted: the model does not explain"),
	      "tiled: one factor at both sizes, said once");
	CHECK(padded && at(padded, first, 1), "padded departs at 1024 alone");
	CHECK(naive && at(naive, second, 1) && strcmp(json_string_value(json_object_get(naive, "direction")), "faster") == 0,
	      "naive: faster, at 2048");
	text = list ? json_dumps(list, 0) : NULL;
	CHECK(text && !strstr(text, "likely cause"), "no entry names a cause");
	free(text);
	json_decref(list);
}

void test_departures_are_listed_once_per_variant_and_sentence(void)
{
	struct wl_catalog *cat = check_load_catalog();

	if (!cat)
		return;
	strided_sweep(cat);
	transpose_family(cat);
	wl_catalog_free(cat);
}
