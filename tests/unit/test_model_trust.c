/* The one rule for sentences that cite the model (analysis/model_trust.c),
 * case by case, and the verdict's sentences under it: a point the model
 * misses by more than 2× gets no cause, nor does a family whose record on
 * the device is poor, and on a CPU the model says what it does not model. */
#include <math.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "model_trust.h"

void test_model_trust_weighs_each_case(void)
{
	static const struct {
		const char *name;
		double ratio;			/* predicted over measured; 0: none */
		long long points;		/* the record's; 0: none */
		double median;
		int cpu;
		enum wl_trust_kind kind;
		int binding, conflicts;		/* what a sentence may name */
		const char *words;		/* in the words said instead ("": none) */
	} rows[] = {
		{ "right at the point", 1.05, 0, 0, 0, WL_TRUST_CITE, 1, 1, "" },
		{ "no measurement to judge", 0, 0, 0, 0, WL_TRUST_CITE, 1, 1, "" },
		{ "208x slower than predicted (PoCL)", 1 / 208.0, 0, 0, 1, WL_TRUST_MISSES_POINT, 0, 0,
		  "the model is 208× off here: it does not explain this point" },
		{ "3x faster than predicted", 3, 0, 0, 0, WL_TRUST_MISSES_POINT, 0, 0, "the model is 3.0× off here" },
		{ "exactly 2x is within", 2, 0, 0, 0, WL_TRUST_CITE, 1, 1, "" },
		{ "exactly half is within", 0.5, 0, 0, 0, WL_TRUST_CITE, 1, 1, "" },
		{ "just beyond 2x", 2.01, 0, 0, 0, WL_TRUST_MISSES_POINT, 0, 0, "2.0× off" },
		{ "poor record", 1.1, 40, 1.8, 0, WL_TRUST_POOR_RECORD, 0, 0,
		  "the model's record for copy on this device is poor (its latest 40 points are 1.8× off at the median)"
		  ": it names no cause here" },
		{ "a poor record of too few points", 1.1, 19, 3, 0, WL_TRUST_CITE, 1, 1, "" },
		{ "a record at 1.5 is not poor", 1.1, 20, 1.5, 0, WL_TRUST_CITE, 1, 1, "" },
		{ "a record past 1.5 is", 1.1, 20, 1.51, 0, WL_TRUST_POOR_RECORD, 0, 0, "latest 20 points are 1.5×" },
		{ "the point before the record", 1 / 3.0, 40, 1.8, 0, WL_TRUST_MISSES_POINT, 0, 0, "3.0× off" },
		{ "a banks point within 2x on a CPU: no conflicts named", 1 / 1.76, 0, 0, 1, WL_TRUST_CITE, 1, 0, "" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct wl_model_record rec = { "copy", rows[i].points, rows[i].median };
		struct wl_trust t;
		char words[512];

		wl_model_trust(rows[i].ratio, rows[i].points ? &rec : NULL, rows[i].cpu, &t);
		wl_trust_words(&t, NULL, words, sizeof(words));
		CHECK(t.kind == rows[i].kind, "%s: kind %d, expected %d", rows[i].name, t.kind, rows[i].kind);
		CHECK(wl_trust_may_name(&t, WL_CLAIM_BINDING) == rows[i].binding, "%s: may name the binding ceiling: %d",
		      rows[i].name, !rows[i].binding);
		CHECK(wl_trust_may_name(&t, WL_CLAIM_CONFLICTS) == rows[i].conflicts, "%s: may name conflicts: %d",
		      rows[i].name, !rows[i].conflicts);
		CHECK(rows[i].words[0] ? strstr(words, rows[i].words) != NULL : words[0] == '\0',
		      "%s: said \"%s\", expected \"%s\"", rows[i].name, words, rows[i].words);
	}
}

void test_model_trust_words_departures_and_pairs(void)
{
	struct wl_model_record rec = { "reduction", 50, 2.5 };
	struct wl_trust cpu_miss, gpu_miss, ok, other_miss, poor_a, poor_b;
	char buf[1024];

	wl_model_trust(1 / 208.0, NULL, 1, &cpu_miss);
	wl_trust_departure(&cpu_miss, 1 / 208.0, buf, sizeof(buf));
	CHECK(strstr(buf, "Measured 208× slower than predicted: the model does not explain this point and names no cause") &&
		      strstr(buf, WL_TRUST_CPU_CLAUSE) && !strstr(buf, "likely cause"),
	      "a CPU's departure: %s", buf);
	wl_model_trust(3, NULL, 0, &gpu_miss);
	wl_trust_departure(&gpu_miss, 3, buf, sizeof(buf));
	CHECK(strcmp(buf, "Measured 3.0× faster than predicted: the model does not explain this point and names no cause.") == 0,
	      "a GPU's departure: %s", buf);

	wl_model_trust(1, NULL, 0, &ok);
	wl_trust_pair_words(&ok, "a", &ok, "b", buf, sizeof(buf));
	CHECK(buf[0] == '\0', "two points it explains: nothing said instead: %s", buf);
	wl_trust_pair_words(&ok, "padded", &gpu_miss, "naive", buf, sizeof(buf));
	CHECK(strcmp(buf, "the model is 3.0× off for naive here: it does not explain this point") == 0, "one missed: %s", buf);
	wl_model_trust(1 / 113.0, NULL, 0, &other_miss);
	wl_trust_pair_words(&gpu_miss, "first", &other_miss, "sequential", buf, sizeof(buf));
	CHECK(strcmp(buf, "the model is 3.0× off for first and 113× off for sequential here: it does not explain these points") == 0,
	      "both missed: %s", buf);
	wl_model_trust(1, &rec, 0, &poor_a);
	wl_model_trust(1.2, &rec, 0, &poor_b);
	wl_trust_pair_words(&poor_a, "a", &poor_b, "b", buf, sizeof(buf));
	CHECK(strstr(buf, "record for reduction") && !strstr(buf, "; "), "one record, said once: %s", buf);
	{
		struct wl_model_record custom = { "custom", 30, 2.2 }, own = { "own experiment", 30, 2.2 };

		wl_model_trust(1, &custom, 0, &poor_a);
		wl_trust_words(&poor_a, NULL, buf, sizeof(buf));
		CHECK(strstr(buf, "the model's record for custom kernels on this device is poor"), "custom: %s", buf);
		wl_model_trust(1, &own, 0, &poor_a);
		wl_trust_words(&poor_a, NULL, buf, sizeof(buf));
		CHECK(strstr(buf, "the model's record for experiments of one's own on this device is poor"), "own: %s", buf);
	}
}

/* A reduction run of two variants on a device, its results' predictions
 * binding on DRAM with ratio ratio_a and ratio_b, on a CPU or a GPU. */
static json_t *reduction_run(double ratio_a, double ratio_b, int cpu)
{
	json_t *results = json_pack(
		"[{s:s, s:{s:I, s:I}, s:f, s:b, s:f, s:f, s:{s:s, s:f, s:f}},"
		" {s:s, s:{s:I, s:I}, s:f, s:b, s:f, s:f, s:{s:s, s:f, s:f}}]",
		"variant", "grid_stride", "params", "n", (json_int_t)65536, "local", (json_int_t)256, "median_ms", 0.05,
		"verified", 1, "bytes", 262144.0, "gbps", 5.2, "prediction", "binding", "dram", "ratio", ratio_a,
		"sectors_per_request", 4.0,
		"variant", "sequential", "params", "n", (json_int_t)65536, "local", (json_int_t)256, "median_ms", 0.7,
		"verified", 1, "bytes", 262144.0, "gbps", 0.37, "prediction", "binding", "dram", "ratio", ratio_b,
		"sectors_per_request", 4.0);

	return json_pack("{s:s, s:s, s:{s:f, s:[s, s]}, s:{s:s, s:s, s:o}, s:o}", "status", "done", "experiment",
			 "reduction", "request", "noise", 0.01, "variants", "grid_stride", "sequential", "device", "id",
			 "cpu-0", "type", cpu ? "cpu" : "gpu", "warp_width", cpu ? json_null() : json_integer(32),
			 "results", results);
}

/* The run's verdict sentence with each result judged by the rule (record:
 * the family's, or NULL), as the trust step would; NULL where it failed. */
static char *sentence_of(const struct wl_catalog *cat, json_t *stored, const struct wl_model_record *record)
{
	struct wl_run run;
	struct wl_error err;
	char *text = NULL;

	if (wl_run_read(cat, stored, &run, &err) < 0)
		return NULL;
	for (size_t i = 0; i < run.nresults; i++) {
		struct wl_result *r = &run.results[i];
		const json_t *p = json_object_get(r->json, "prediction");

		r->prediction = p;
		r->binding = json_string_value(json_object_get(p, "binding"));
		r->sectors_per_request = json_number_value(json_object_get(p, "sectors_per_request"));
		wl_model_trust(json_number_value(json_object_get(p, "ratio")), record, run.cpu, &r->trust);
	}
	if (wl_run_add_variants(&run) == 0 && wl_run_add_verdict(&run) == 0)
		text = strdup(json_string_value(json_object_get(json_object_get(run.json, "verdict"), "sentence")));
	wl_run_free(&run);
	return text;
}

void test_verdict_claims_no_cause_where_the_model_misses(void)
{
	struct wl_catalog *cat = check_load_catalog();
	struct wl_model_record poor = { "reduction", 40, 1.9 };
	json_t *run;
	char *text;

	if (!cat)
		return;
	/* Within 2x on a GPU: the model's reason, as before. */
	run = reduction_run(1.1, 0.9, 0);
	text = sentence_of(cat, run, NULL);
	CHECK(text && strstr(text, "In the model, both are bound by DRAM bandwidth") && !strstr(text, "On a CPU"),
	      "explained: %s", text ? text : "(none)");
	free(text);
	json_decref(run);
	/* The PoCL case: 113x slower than predicted, and the page said both
	 * were bound by DRAM bandwidth. */
	run = reduction_run(1 / 6.3, 1 / 113.0, 1);
	text = sentence_of(cat, run, NULL);
	CHECK(text && !strstr(text, "In the model") && !strstr(text, "bound by") &&
		      strstr(text, "The model is 6.3× off for grid-stride float4 and 113× off for sequential here: it does "
				   "not explain these points.") && strstr(text, WL_TRUST_CPU_WORDS),
	      "missed on a CPU: %s", text ? text : "(none)");
	free(text);
	json_decref(run);
	/* Within 2x, but the family's record on the device is poor. */
	run = reduction_run(1.1, 0.9, 0);
	text = sentence_of(cat, run, &poor);
	CHECK(text && !strstr(text, "In the model") && strstr(text, "The model's record for reduction on this device is poor"),
	      "a poor record: %s", text ? text : "(none)");
	free(text);
	json_decref(run);
	wl_catalog_free(cat);
}

void test_factor_stats_count_within_and_take_medians(void)
{
	static const double odd[] = { 1.0, 1.2, 1.25, 1.5, 2.0, 2.5, 8.0 };
	static const double even[] = { 1.1, 1.3, 1.7, 4.0 };
	struct wl_factor_stats s;

	wl_factor_stats(odd, 7, &s);
	CHECK(s.points == 7 && s.within_2 == 5 && s.within_1_5 == 4 && s.within_1_25 == 3,
	      "counts, bounds included: %lld %lld %lld %lld", s.points, s.within_2, s.within_1_5, s.within_1_25);
	CHECK(s.median == 1.5, "the middle of seven: %g", s.median);
	CHECK(fabs(s.geomean - exp((log(1.0) + log(1.2) + log(1.25) + log(1.5) + log(2.0) + log(2.5) + log(8.0)) / 7)) < 1e-12,
	      "the geometric mean: %g", s.geomean);
	wl_factor_stats(even, 4, &s);
	CHECK(fabs(s.median - 1.5) < 1e-12, "the mean of the middle two: %g", s.median);
	wl_factor_stats(NULL, 0, &s);
	CHECK(s.points == 0 && s.median == 0 && s.geomean == 0, "none: zeros");
}
