/* Energy per useful byte (analysis/energy_view.c) on results made up here:
 * the figures from joules per launch, where the moved bytes come from (the
 * hardware's count before the model's), null with the reason where the
 * device could not measure; the verdict naming the variant of least energy
 * only when it is not the fastest and beyond the energy's noise; the CSV's
 * energy columns; the compare table's cells. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"

/* A result as the store reads it: its energy column (JSON text, or NULL for
 * none), its bytes and operations (0: null), and optionally the counters'
 * and the model's DRAM bytes (-1: absent). */
struct energy_row {
	const char *what;
	const char *energy;
	double bytes, ops, counted_dram, model_dram;
	/* expected: */
	double pj_useful, pj_above_idle, nj_op, pj_moved;	/* -1: null */
	const char *from;		/* moved_bytes_from, NULL: null */
	const char *error;		/* energy_error, NULL: none (and energy null where pj_useful < 0) */
};

#define H100_COPY "{\"j_per_launch\": 0.0924425, \"j_above_idle_per_launch\": 0.068768, \"avg_w\": 503.13, " \
		  "\"idle_w\": 128.85, \"launches\": 1100, \"burst_ms\": 202.1, \"window_ms\": 299.3, \"throttled\": false}"

static const struct energy_row rows[] = {
	/* The H100's float4 copy of 64 Mi floats: 512 MiB useful. */
	{ "measured, the model's bytes", H100_COPY, 536870912.0, 0, -1, 536870912.0,
	  0.0924425e12 / 536870912.0, 0.068768e12 / 536870912.0, -1, 0.0924425e12 / 536870912.0, "model", NULL },
	{ "the counters win over the model", H100_COPY, 536870912.0, 0, 2 * 536870912.0, 536870912.0,
	  0.0924425e12 / 536870912.0, 0.068768e12 / 536870912.0, -1, 0.0924425e12 / (2 * 536870912.0), "counters", NULL },
	{ "no moved bytes known", H100_COPY, 536870912.0, 0, -1, -1, 0.0924425e12 / 536870912.0,
	  0.068768e12 / 536870912.0, -1, -1, NULL, NULL },
	{ "operations, no bytes", "{\"j_per_launch\": 0.002, \"j_above_idle_per_launch\": 0.001}", 0, 1e6, -1, -1,
	  -1, -1, 2.0, -1, NULL, NULL },
	{ "no counter on the device", "{\"error\": \"no energy counter on pthread-cpu (not an NVIDIA GPU)\"}",
	  4096, 0, -1, 4096, -1, -1, -1, -1, NULL, "no energy counter on pthread-cpu (not an NVIDIA GPU)" },
	{ "not asked", NULL, 4096, 0, -1, 4096, -1, -1, -1, -1, NULL, NULL },
};

static json_t *make_result(const struct energy_row *row)
{
	json_t *r = json_pack("{s:s, s:{s:I}, s:o, s:o, s:o}", "variant", "float4", "params", "n", (json_int_t)4096,
			      "bytes", row->bytes > 0 ? json_real(row->bytes) : json_null(), "ops",
			      row->ops > 0 ? json_real(row->ops) : json_null(), "energy",
			      row->energy ? json_loads(row->energy, 0, NULL) : json_null());

	if (r && row->counted_dram >= 0)
		json_object_set_new(r, "extra", json_pack("{s:{s:f, s:f}}", "counters", "dram_read_bytes",
							  row->counted_dram / 2, "dram_write_bytes", row->counted_dram / 2));
	if (r && row->model_dram >= 0)
		json_object_set_new(r, "prediction", json_pack("{s:{s:f, s:f}}", "traffic", "dram_read_bytes",
							       row->model_dram / 2, "dram_write_bytes", row->model_dram / 2));
	return r;
}

/* run typed (against cat, or none), each result's DRAM traffic as the
 * predictions step would find it: here the made-up "prediction" of
 * make_result(). -1 when out of memory. */
static int typed_run(const struct wl_catalog *cat, json_t *run, struct wl_run *out)
{
	struct wl_error err;

	if (wl_run_read(cat, run, out, &err) < 0)
		return -1;
	for (size_t i = 0; i < out->nresults; i++) {
		const json_t *traffic = json_object_get(json_object_get(out->results[i].json, "prediction"), "traffic");

		if (traffic) {
			out->results[i].dram_read_bytes = json_number_value(json_object_get(traffic, "dram_read_bytes"));
			out->results[i].dram_write_bytes = json_number_value(json_object_get(traffic, "dram_write_bytes"));
		}
	}
	return 0;
}

/* Whether v is want (-1: null) to 1e-9 relative. */
static int same_figure(const json_t *v, double want)
{
	if (want < 0)
		return json_is_null(v);
	return json_is_number(v) && fabs(json_number_value(v) - want) <= 1e-9 * want;
}

void test_energy_figures_per_useful_and_moved_byte(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct energy_row *row = &rows[i];
		json_t *results = json_array(), *run = json_pack("{s:o}", "results", results);
		json_t *r = make_result(row);
		const json_t *e, *error;
		struct wl_run typed;

		if (!run || !r) {
			CHECK(0, "%s: test JSON", row->what);
			json_decref(r);
			json_decref(run);
			continue;
		}
		json_array_append_new(results, r);
		if (typed_run(NULL, run, &typed) < 0) {
			CHECK(0, "%s: typed", row->what);
			json_decref(run);
			continue;
		}
		CHECK(wl_run_add_energy(&typed) == 0, "%s: derived", row->what);
		/* A second pass (a run derived twice) reads the same. */
		CHECK(wl_run_add_energy(&typed) == 0, "%s: derived again", row->what);
		wl_run_free(&typed);
		e = json_object_get(r, "energy");
		error = json_object_get(r, "energy_error");
		if (row->pj_useful < 0 && row->nj_op < 0) {
			CHECK(json_is_null(e), "%s: energy null, seen %s", row->what, json_dumps(e, JSON_ENCODE_ANY));
		} else {
			CHECK(same_figure(json_object_get(e, "pj_per_useful_byte"), row->pj_useful) &&
				      same_figure(json_object_get(e, "pj_per_useful_byte_above_idle"), row->pj_above_idle) &&
				      same_figure(json_object_get(e, "nj_per_op"), row->nj_op) &&
				      same_figure(json_object_get(e, "pj_per_moved_byte"), row->pj_moved),
			      "%s: expected %g pJ/B (%g above idle), %g nJ/op, %g pJ/moved B; seen %s", row->what,
			      row->pj_useful, row->pj_above_idle, row->nj_op, row->pj_moved, json_dumps(e, 0));
			CHECK(row->from ? json_is_string(json_object_get(e, "moved_bytes_from")) &&
						  strcmp(json_string_value(json_object_get(e, "moved_bytes_from")), row->from) == 0
					: json_is_null(json_object_get(e, "moved_bytes_from")),
			      "%s: moved bytes from %s, seen %s", row->what, row->from ? row->from : "null",
			      json_dumps(json_object_get(e, "moved_bytes_from"), JSON_ENCODE_ANY));
			CHECK(json_is_number(json_object_get(e, "j_per_launch")) &&
				      json_object_get(e, "throttled") && json_object_get(e, "launches"),
			      "%s: the stored figures stay: %s", row->what, json_dumps(e, 0));
		}
		CHECK(row->error ? json_is_string(error) && strcmp(json_string_value(error), row->error) == 0 : !error,
		      "%s: energy_error %s, seen %s", row->what, row->error ? row->error : "absent",
		      error ? json_string_value(error) : "absent");
		json_decref(run);
	}
}

/* A transpose result at n = 4096 (128 MiB useful) of variant taking ms ±1%,
 * verified or not, whose energy is pj picojoules per useful byte (0: none
 * measured). */
static json_t *transpose_result(const char *variant, double ms, int verified, double pj)
{
	const double bytes = 8.0 * 4096 * 4096;
	json_t *energy = pj > 0 ? json_pack("{s:f, s:f, s:f, s:f, s:b}", "j_per_launch", pj * bytes / 1e12,
					    "j_above_idle_per_launch", 0.7 * pj * bytes / 1e12, "avg_w", 500.0,
					    "idle_w", 128.85, "throttled", 0)
				: json_null();

	return json_pack("{s:s, s:{s:i, s:i, s:i}, s:f, s:f, s:f, s:b, s:f, s:f, s:o}", "variant", variant, "params",
			 "n", 4096, "tile", 32, "rows", 8, "median_ms", ms, "ci_low_ms", ms * 0.99, "ci_high_ms",
			 ms * 1.01, "verified", verified, "bytes", bytes, "gbps", bytes / (ms * 1e6), "energy", energy);
}

/* The verdict of a transpose run of padded (the fastest, at 198 pJ/B) and
 * diagonal (slower, at diagonal_pj), a naive one, and an unverified tiled
 * one that would use the least energy of all; its "frugal" into *frugal
 * (borrowed from the run, which the caller frees). */
static json_t *verdict_of(const struct wl_catalog *cat, double diagonal_pj, double padded_pj)
{
	struct wl_run typed;
	json_t *run = json_pack("{s:s, s:s, s:{s:f, s:[s, s, s, s]}, s:[o, o, o, o]}", "status", "done",
				"experiment", "transpose", "request", "noise", 0.01, "variants", "naive", "tiled",
				"padded", "diagonal", "results", transpose_result("padded", 0.0513, 1, padded_pj),
				transpose_result("diagonal", 0.0542, 1, diagonal_pj),
				transpose_result("naive", 0.291, 1, 782),
				transpose_result("tiled", 0.090, 0, 100));

	CHECK(run && typed_run(cat, run, &typed) == 0 && wl_run_add_variants(&typed) == 0 &&
		      wl_run_add_energy(&typed) == 0 && wl_run_add_verdict(&typed) == 0,
	      "the verdict is made");
	if (run)
		wl_run_free(&typed);
	return run;
}

void test_verdict_names_the_frugal_variant_beyond_the_noise(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *exp = cat ? wl_catalog_find(cat, "transpose") : NULL;
	const json_t *v, *f;
	const char *text;
	json_t *run;

	if (!exp)
		goto out;
	/* diagonal at 180 against padded's 198: 9% less, beyond 5%. */
	run = verdict_of(cat, 180, 198);
	v = json_object_get(run, "verdict");
	f = json_object_get(v, "frugal");
	text = json_string_value(json_object_get(v, "sentence"));
	CHECK(json_is_string(json_object_get(f, "variant")) &&
		      strcmp(json_string_value(json_object_get(f, "variant")), "diagonal") == 0 &&
		      strcmp(json_string_value(json_object_get(f, "figure")), "pj_per_useful_byte") == 0 &&
		      fabs(json_number_value(json_object_get(f, "value")) - 180) < 1e-6 &&
		      fabs(json_number_value(json_object_get(f, "fastest_value")) - 198) < 1e-6 &&
		      fabs(json_number_value(json_object_get(f, "less_pct")) - 100.0 * 18 / 198) < 1e-6,
	      "diagonal is the frugal one, never the unverified tiled: %s", json_dumps(f, JSON_ENCODE_ANY));
	CHECK(text && strcmp(json_string_value(json_object_get(v, "fastest")), "padded") == 0 &&
		      strstr(text, " diagonal uses the least energy: 180 pJ per useful byte, 9% less than padded."),
	      "the sentence names it: %s", text);
	CHECK(json_equal(json_object_get(json_array_get(json_object_get(v, "points"), 0), "frugal"), f),
	      "the point says the same");
	json_decref(run);

	/* 190 against 198: 4% less, within the energy's noise: not said. */
	run = verdict_of(cat, 190, 198);
	v = json_object_get(run, "verdict");
	text = json_string_value(json_object_get(v, "sentence"));
	CHECK(json_is_null(json_object_get(v, "frugal")) && text && !strstr(text, "energy"),
	      "within noise: %s", text);
	json_decref(run);

	/* The fastest uses the least: nothing more to say. */
	run = verdict_of(cat, 211, 198);
	v = json_object_get(run, "verdict");
	text = json_string_value(json_object_get(v, "sentence"));
	CHECK(json_is_null(json_object_get(v, "frugal")) && text && !strstr(text, "energy"),
	      "the fastest is the frugal one: %s", text);
	json_decref(run);

	/* No energy measured for the fastest: no comparison. */
	run = verdict_of(cat, 180, 0);
	v = json_object_get(run, "verdict");
	CHECK(json_is_null(json_object_get(v, "frugal")), "the fastest without energy");
	json_decref(run);
out:
	wl_catalog_free(cat);
}

/* The CSV appends the energy columns; empty cells and the reason where the
 * device could not measure. */
void test_csv_appends_energy_columns(void)
{
	static const char *const header_tail =
		",ceiling_pct,energy_j_per_launch,energy_avg_w,energy_idle_w,energy_pj_per_useful_byte,"
		"energy_pj_per_moved_byte,energy_throttled,energy_nj_per_op,energy_pj_per_useful_byte_above_idle,"
		"energy_moved_bytes,energy_moved_bytes_from,energy_error,tuning_rank,tuning_predicted_ms,runner_id,device_id,predicted_groups_ms,predicted_drain_ms\r\n";
	json_t *run = json_pack("{s:s, s:{}, s:[o, o]}", "experiment", "transpose", "request", "results",
				transpose_result("padded", 0.0513, 1, 198),
				transpose_result("naive", 0.291, 1, 0));
	char *csv = NULL, *line;
	struct wl_run typed = { 0 };
	size_t len;

	CHECK(run != NULL, "test JSON");
	if (!run)
		return;
	json_object_set_new(json_array_get(json_object_get(run, "results"), 1), "energy",
			    json_pack("{s:s}", "error", "no energy counter on pthread-cpu (not an NVIDIA GPU)"));
	/* Read without a catalog: the columns come from the first result. */
	CHECK(typed_run(NULL, run, &typed) == 0 && wl_run_add_energy(&typed) == 0, "derived");
	CHECK(wl_results_csv(&typed, &csv, &len) == 0 && csv, "csv built");
	if (!csv)
		goto out;
	line = strstr(csv, "\r\n");
	CHECK(line && (size_t)(line + 2 - csv) > strlen(header_tail) &&
		      strncmp(line + 2 - strlen(header_tail), header_tail, strlen(header_tail)) == 0,
	      "the header ends with the energy columns: %.*s", line ? (int)(line - csv) : 0, csv);
	/* 198 pJ for each of 128 MiB, 70% of it above idle; no moved bytes
	 * known (no counters, no prediction). */
	CHECK(strstr(csv, ",0.0265751101,500,128.85,198,,false,,138.6,,,,,,,,,\r\n") != NULL,
	      "padded's energy cells: %s", csv);
	CHECK(strstr(csv, ",,,,,,,,,,,no energy counter on pthread-cpu (not an NVIDIA GPU),,,,,,\r\n") != NULL,
	      "naive's empty cells and the reason: %s", csv);
out:
	free(csv);
	wl_run_free(&typed);
	json_decref(run);
}

/* The compare table's cells carry each result's energy, or null and why. */
void test_compare_cells_carry_energy(void)
{
	json_t *a = json_pack("{s:I, s:s, s:{}, s:[o]}", "id", (json_int_t)1, "experiment", "transpose", "request",
			      "results", transpose_result("padded", 0.0513, 1, 198));
	json_t *b = json_pack("{s:I, s:s, s:{}, s:[o]}", "id", (json_int_t)2, "experiment", "transpose", "request",
			      "results", transpose_result("padded", 0.0520, 1, 0));
	json_t *runs = json_pack("[o, o]", a, b), *cmp = NULL;
	struct wl_run typed[2];
	const json_t *cells;

	CHECK(runs != NULL, "test JSON");
	if (!runs)
		return;
	json_object_set_new(json_array_get(json_object_get(b, "results"), 0), "energy",
			    json_pack("{s:s}", "error", "no energy counter"));
	if (typed_run(NULL, a, &typed[0]) < 0 || typed_run(NULL, b, &typed[1]) < 0) {
		CHECK(0, "typed");
		wl_run_free(&typed[0]);
		json_decref(runs);
		return;
	}
	cmp = wl_compare(typed, 2);
	wl_run_free(&typed[0]);
	wl_run_free(&typed[1]);
	cells = json_object_get(json_array_get(json_object_get(cmp, "rows"), 0), "cells");
	CHECK(fabs(json_number_value(json_object_get(json_object_get(json_array_get(cells, 0), "energy"),
						     "pj_per_useful_byte")) - 198) < 1e-6 &&
		      !json_object_get(json_array_get(cells, 0), "energy_error"),
	      "run 1's energy: %s", json_dumps(cells, 0));
	CHECK(json_is_null(json_object_get(json_array_get(cells, 1), "energy")) &&
		      strcmp(json_string_value(json_object_get(json_array_get(cells, 1), "energy_error")) ?: "",
			     "no energy counter") == 0,
	      "run 2's energy null, and why: %s", json_dumps(cells, 0));
	json_decref(cmp);
	json_decref(runs);
}
