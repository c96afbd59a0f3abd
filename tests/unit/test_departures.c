/* The run's departures listed once (wl_run_add_departures): the points of a
 * variant that depart the same way at the same other params are one entry,
 * over the swept values, its sentence the trust rule's with the range of
 * their factors — the strided sweep's slow strides as one, the transpose
 * family's variants each apart, another tile apart; a point within 2x, a
 * result that failed its check and one without the swept param are in
 * none. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"

/* A result of variant at params, verified or not, whose prediction has
 * ratio and, as the trust rule words it beyond 2x, its departure. */
static json_t *result(const char *variant, json_t *params, double ratio, int verified)
{
	char text[300];
	double f = ratio > 1 ? ratio : 1 / ratio;

	snprintf(text, sizeof(text), "Measured %.1f× %s than predicted: the model does not explain this point and "
		 "names no cause.", f, ratio > 1 ? "faster" : "slower");
	return json_pack("{s:s, s:o, s:f, s:b, s:{s:f, s:o}}", "variant", variant, "params", params, "median_ms", 1.0,
			 "verified", verified, "prediction", "ratio", ratio, "departure",
			 f > 2 ? json_string(text) : json_null());
}

static json_t *transpose_at(long long n, long long tile)
{
	return json_pack("{s:I, s:I, s:i}", "n", (json_int_t)n, "tile", (json_int_t)tile, "rows", 8);
}

static json_t *strided_at(long long stride)
{
	return json_pack("{s:I, s:i}", "stride", (json_int_t)stride, "n", 1048576);
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
		CHECK(0, "the run reads: %s", run ? err.msg : "out of memory");
		json_decref(run);
		return NULL;
	}
	if (wl_run_add_departures(&typed) == 0)
		list = json_incref(json_object_get(run, "departures"));
	wl_run_free(&typed);
	json_decref(run);
	return list;
}

/* The entry of variant whose "where" has key at value (key NULL: any), or
 * NULL. */
static const json_t *entry_of(const json_t *list, const char *variant, const char *key, long long value)
{
	size_t i;
	const json_t *e;

	json_array_foreach(list, i, e)
		if (strcmp(json_string_value(json_object_get(e, "variant")), variant) == 0 &&
		    (!key || json_integer_value(json_object_get(json_object_get(e, "where"), key)) == value))
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

static const char *sentence(const json_t *e)
{
	return e ? json_string_value(json_object_get(e, "sentence")) : "(no entry)";
}

static void strided_sweep(const struct wl_catalog *cat)
{
	json_t *list = departures_of(cat, "strided", json_pack("[s]", "stride"),
				     json_pack("[o, o, o, o]", result("stride", strided_at(8), 0.8, 1),
					       result("stride", strided_at(64), 0.3, 1),
					       result("stride", strided_at(16), 0.45, 1),
					       result("stride", strided_at(32), 1 / 3.0, 1)));
	const json_t *e = entry_of(list, "stride", NULL, 0);
	const long long strides[] = { 16, 32, 64 };

	CHECK(list && json_array_size(list) == 1, "one sentence over the sweep");
	CHECK(e && at(e, strides, 3) && strcmp(json_string_value(json_object_get(e, "param")), "stride") == 0,
	      "said at stride 16, 32 and 64, not 8");
	CHECK(e && json_object_size(json_object_get(e, "where")) == 0, "n, the run's one value, not said");
	CHECK(strcmp(sentence(e), "Measured 2.2–3.3× slower than predicted: the model does not explain these points "
				  "and names no cause.") == 0, "the factor's range: %s", sentence(e));
	CHECK(e && fabs(json_number_value(json_array_get(json_object_get(e, "factor"), 1)) - 1 / 0.3) < 1e-9,
	      "the widest factor");
	json_decref(list);
}

static void transpose_family(const struct wl_catalog *cat)
{
	json_t *list = departures_of(cat, "transpose", json_pack("[s, s, s]", "naive", "tiled", "padded"),
				     json_pack("[o, o, o, o, o, o]", result("tiled", transpose_at(1024, 32), 0.4, 1),
					       result("padded", transpose_at(1024, 32), 0.35, 1),
					       result("naive", transpose_at(1024, 32), 1.2, 1),
					       result("tiled", transpose_at(2048, 32), 0.4, 1),
					       result("padded", transpose_at(2048, 32), 0.8, 1),
					       result("naive", transpose_at(2048, 32), 2.5, 1)));
	const long long both[] = { 1024, 2048 }, first[] = { 1024 }, second[] = { 2048 };
	const json_t *tiled = entry_of(list, "tiled", NULL, 0), *padded = entry_of(list, "padded", NULL, 0);
	const json_t *naive = entry_of(list, "naive", NULL, 0);
	char *text;

	CHECK(list && json_array_size(list) == 3, "a sentence per variant that departs");
	CHECK(tiled && at(tiled, both, 2) &&
		      strstr(sentence(tiled), "Measured 2.5× slower than predicted: the model does not explain these"),
	      "tiled: one factor at both sizes, said once: %s", sentence(tiled));
	CHECK(padded && at(padded, first, 1) && strstr(sentence(padded), "does not explain this point"),
	      "padded departs at 1024 alone: %s", sentence(padded));
	CHECK(naive && at(naive, second, 1) && strcmp(json_string_value(json_object_get(naive, "direction")), "faster") == 0,
	      "naive: faster, at 2048");
	text = list ? json_dumps(list, 0) : NULL;
	CHECK(text && !strstr(text, "likely cause"), "no entry names a cause");
	free(text);
	json_decref(list);
}

/* Another tile is another entry; a result that failed its check, and one
 * stored without n, are in none; a factor of ten or more reads whole. */
static void apart_and_left_out(const struct wl_catalog *cat)
{
	json_t *list = departures_of(cat, "transpose", json_pack("[s]", "tiled"),
				     json_pack("[o, o, o, o, o]", result("tiled", transpose_at(1024, 16), 0.08, 1),
					       result("tiled", transpose_at(2048, 16), 1 / 9.2, 1),
					       result("tiled", transpose_at(1024, 32), 0.4, 1),
					       result("tiled", transpose_at(4096, 32), 0.1, 0),
					       result("tiled", json_pack("{s:i, s:i}", "tile", 32, "rows", 8), 0.1, 1)));
	const json_t *sixteen = entry_of(list, "tiled", "tile", 16), *big = entry_of(list, "tiled", "tile", 32);
	const long long both[] = { 1024, 2048 }, first[] = { 1024 };

	CHECK(list && json_array_size(list) == 2, "one entry per tile");
	CHECK(sixteen && at(sixteen, both, 2) && strstr(sentence(sixteen), "Measured 9.2–12× slower"),
	      "tile 16 at both sizes, 12x whole: %s", sentence(sixteen));
	CHECK(big && at(big, first, 1), "tile 32 at 1024 alone: the failed and the n-less left out");
	json_decref(list);
}

void test_departures_are_listed_once_per_variant_and_point(void)
{
	struct wl_catalog *cat = check_load_catalog();

	if (!cat)
		return;
	strided_sweep(cat);
	transpose_family(cat);
	apart_and_left_out(cat);
	wl_catalog_free(cat);
}
