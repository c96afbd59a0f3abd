/* A tuning run searched for energy, or time and energy together
 * (analysis/tuning_view.c, tuning_energy.c), on results made up here: the
 * best by joules per launch and its margin over the catalog's settings,
 * within the counter's noise where it is; the front of configurations no
 * other beats on both; and, where the device measured no energy, the
 * fastest with the device's reason. */
#include <math.h>
#include <string.h>

#include "analysis.h"
#include "check.h"

/* A transpose result at n = 4096: its variant, tile, rows, median and
 * joules per launch (below 0: the device had no energy counter). */
static json_t *result(const char *variant, int tile, int rows, double ms, double j)
{
	json_t *energy = j >= 0 ? json_pack("{s:f, s:f}", "j_per_launch", j, "j_above_idle_per_launch", j / 2)
				: json_pack("{s:s}", "error", "no energy counter on pthread-cpu (not an NVIDIA GPU)");

	return json_pack("{s:s, s:{s:i, s:i, s:i}, s:f, s:b, s:f, s:o}", "variant", variant, "params", "n", 4096, "tile",
			 tile, "rows", rows, "median_ms", ms, "verified", 1, "bytes", 2.0 * 4096 * 4096 * 4, "energy",
			 energy);
}

/* The tuning of a run of padded at four configurations (the catalog's is
 * 32 × 8) and tiled at the catalog's, searched for objective; frugal the
 * joules of padded at 32 × 4 (no energy at all where below 0). The run's
 * JSON, which the caller frees. */
static json_t *tuned(const struct wl_catalog *cat, const char *objective, double frugal)
{
	double none = frugal < 0 ? -1 : 1;
	json_t *run = json_pack("{s:s, s:s, s:{s:[s, s], s:{s:[s, s], s:s, s:s, s:i}}, s:[o, o, o, o, o]}", "status",
				"done", "experiment", "transpose", "request", "variants", "tiled", "padded", "tune",
				"params", "tile", "rows", "strategy", "exhaustive", "objective", objective, "space", 4,
				"results", result("padded", 32, 8, 0.050, 0.020 * none),
				result("padded", 16, 4, 0.048, 0.024 * none), result("padded", 32, 4, 0.052, frugal),
				result("padded", 64, 8, 0.055, 0.021 * none), result("tiled", 32, 8, 0.060, 0.030 * none));
	struct wl_run typed;
	struct wl_error err;

	CHECK(run && wl_run_read(cat, run, &typed, &err) == 0, "the run reads");
	if (!run)
		return NULL;
	CHECK(wl_run_add_tuning(&typed) == 0, "its tuning is made");
	wl_run_free(&typed);
	return run;
}

static const json_t *size0(const json_t *run)
{
	return json_array_get(json_object_get(json_object_get(run, "tuning"), "sizes"), 0);
}

static int config_is(const json_t *entry, int tile, int rows)
{
	const json_t *c = json_object_get(entry, "config");

	return json_integer_value(json_object_get(c, "tile")) == tile && json_integer_value(json_object_get(c, "rows")) == rows;
}

static const char *text(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key)) ?: "";
}

void test_tuning_searches_for_energy_and_the_front(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const json_t *s, *front;
	json_t *run;

	if (!cat || !wl_catalog_find(cat, "transpose"))
		goto out;
	/* Energy: 32 × 4 at 16 mJ, 20% below the catalog's 32 × 8. */
	run = tuned(cat, "energy", 0.016);
	s = size0(run);
	CHECK(config_is(json_object_get(s, "best"), 32, 4) &&
		      fabs(json_number_value(json_object_get(s, "margin")) - 0.020 / 0.016) < 1e-9,
	      "the best is the one of least energy: %s", json_dumps(s, JSON_COMPACT));
	CHECK(strstr(text(s, "best_sentence"), "least energy of 4 configurations measured is padded with tile = 32, rows = 4: 16 mJ a launch (52 µs), 20% less energy than the catalog's tile = 32, rows = 8"),
	      "%s", text(s, "best_sentence"));
	CHECK(config_is(json_array_get(json_object_get(s, "space"), 0), 32, 4) &&
		      config_is(json_array_get(json_object_get(s, "space"), 3), 16, 4),
	      "the space goes from least energy to most");
	CHECK(strstr(text(json_object_get(s, "energy"), "sentence"), "The fastest, tile = 16, rows = 4 (48 µs, 24 mJ), takes 50% more energy a launch."),
	      "%s", text(json_object_get(s, "energy"), "sentence"));
	json_decref(run);
	/* 19.5 mJ against 20: within the counter's noise. */
	run = tuned(cat, "energy", 0.0195);
	CHECK(strstr(text(size0(run), "best_sentence"), "within the energy counter's noise of the catalog's tile = 32, rows = 8"),
	      "%s", text(size0(run), "best_sentence"));
	json_decref(run);
	/* Both: 64 × 8 is slower than 32 × 8 and takes more energy. */
	run = tuned(cat, "both", 0.016);
	s = size0(run);
	front = json_object_get(json_object_get(s, "energy"), "front");
	CHECK(json_array_size(front) == 3 && config_is(json_array_get(front, 0), 16, 4) &&
		      config_is(json_array_get(front, 1), 32, 8) && config_is(json_array_get(front, 2), 32, 4),
	      "the front, fastest first: %s", json_dumps(front, JSON_COMPACT));
	CHECK(config_is(json_object_get(s, "best"), 16, 4), "by both, the best is the fastest");
	for (size_t i = 0; i < json_array_size(json_object_get(s, "space")); i++) {
		const json_t *c = json_array_get(json_object_get(s, "space"), i);

		CHECK(json_is_true(json_object_get(c, "front")) == !config_is(c, 64, 8), "%s on the front or not",
		      text(c, "label"));
	}
	CHECK(strstr(text(json_object_get(s, "energy"), "sentence"),
		     "3 of the 4 configurations whose energy was measured are on the time–energy front"),
	      "%s", text(json_object_get(s, "energy"), "sentence"));
	CHECK(strstr(text(json_object_get(run, "tuning"), "summary"), "Searched for time and energy together."),
	      "the summary names the objective");
	json_decref(run);
	/* No energy counter: the fastest, and why. */
	run = tuned(cat, "energy", -1);
	s = size0(run);
	CHECK(config_is(json_object_get(s, "best"), 16, 4) && strstr(text(s, "best_sentence"), "the fastest of 4"),
	      "without energy the best is the fastest: %s", text(s, "best_sentence"));
	CHECK(json_integer_value(json_object_get(json_object_get(s, "energy"), "measured")) == 0 &&
		      strstr(text(json_object_get(s, "energy"), "sentence"), "(no energy counter on pthread-cpu (not an NVIDIA GPU)), so the best is the fastest"),
	      "%s", text(json_object_get(s, "energy"), "sentence"));
	json_decref(run);
out:
	wl_catalog_free(cat);
}
