/* A stored run typed once (analysis/run.c): its request's settings by
 * wl_run_settings_read's rules, an absent field read as request.h says and
 * a field no validator writes read as absent; its variants with their
 * titles, built-ins then custom kernels; each result's figures, null as
 * NAN, and its point in the catalog's param order. */
#include <math.h>
#include <string.h>

#include "analysis.h"
#include "catalog.h"
#include "check.h"

void test_stored_run_reads_its_settings_once(void)
{
	static const struct {
		const char *what, *request;
		enum wl_language language;
		enum wl_cache_mode cache;
		double noise;
		long long repeat;
		int counters, energy;
	} rows[] = {
		{ "absent: OpenCL, hot, the default noise, counted, no energy", "{}", WL_LANG_OPENCL, WL_CACHE_HOT,
		  WL_NOISE_DEFAULT, WL_REPEAT_DEFAULT, 1, 0 },
		{ "as the validator writes them", "{\"language\": \"cuda\", \"cache\": \"cold\", \"noise\": 0.05, "
		  "\"repeat\": 7, \"counters\": \"off\", \"energy\": true}", WL_LANG_CUDA, WL_CACHE_COLD, 0.05, 7, 0, 1 },
		{ "what no validator writes reads as absent", "{\"language\": \"fortran\", \"cache\": \"warm\", "
		  "\"noise\": -1}", WL_LANG_OPENCL, WL_CACHE_HOT, WL_NOISE_DEFAULT, WL_REPEAT_DEFAULT, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *stored = json_pack("{s:s, s:o}", "status", "done", "request", json_loads(rows[i].request, 0, NULL));
		struct wl_run run;
		struct wl_error err;

		if (!stored || wl_run_read(NULL, stored, &run, &err) < 0) {
			CHECK(0, "%s: read", rows[i].what);
			json_decref(stored);
			continue;
		}
		CHECK(run.settings.language == rows[i].language && run.settings.cache == rows[i].cache &&
			      run.settings.noise == rows[i].noise && run.settings.repeat == rows[i].repeat &&
			      run.settings.counters == rows[i].counters && run.settings.energy == rows[i].energy,
		      "%s: language %d, cache %d, noise %g, repeat %lld, counters %d, energy %d", rows[i].what,
		      run.settings.language, run.settings.cache, run.settings.noise, run.settings.repeat,
		      run.settings.counters, run.settings.energy);
		CHECK(run.status == WL_RUN_DONE && wl_run_is_settled(&run) && !run.has_results && run.lanes == 32,
		      "%s: done, settled, read without results, 32 lanes where the device says none", rows[i].what);
		wl_run_free(&run);
		json_decref(stored);
	}
}

void test_stored_run_reads_its_variants_and_figures(void)
{
	struct wl_catalog *cat = check_load_catalog();
	json_t *stored = json_loads(
		"{\"id\": 7, \"experiment\": \"transpose\", \"status\": \"running\", \"explain\": \"pending\","
		" \"device\": {\"id\": \"gpu-0\", \"warp_width\": 64, \"cache\": {\"bytes\": 1024}},"
		" \"request\": {\"variants\": [\"copy\", \"padded\"], \"kernels\": [{\"name\": \"mine\", \"like\": \"tiled\"}]},"
		" \"results\": [{\"variant\": \"naive\", \"params\": {\"rows\": 8, \"tile\": 32, \"n\": 256},"
		" \"median_ms\": 0.5, \"ci_low_ms\": null, \"bytes\": 524288, \"verified\": true,"
		" \"energy\": {\"error\": \"no energy counter\"}},"
		" {\"variant\": \"mine\", \"params\": {\"n\": 512}, \"median_ms\": null, \"verified\": false,"
		" \"extra\": {\"counters_pending\": true}}], \"traces\": []}",
		0, NULL);
	const struct wl_experiment *exp = cat ? wl_catalog_find(cat, "transpose") : NULL;
	struct wl_run run;
	struct wl_error err;

	if (!exp || !stored || wl_run_read(cat, stored, &run, &err) < 0) {
		CHECK(0, "read");
		goto out;
	}
	CHECK(run.exp == exp && run.id == 7 && run.status == WL_RUN_RUNNING && run.explain_pending &&
		      !wl_run_is_finished(&run) && strcmp(run.device_id, "gpu-0") == 0 && run.lanes == 64 &&
		      run.cache_bytes == 1024,
	      "the run: experiment, id, status, device");
	CHECK(run.nvariants == 3 && strcmp(run.variants[0].id, "copy") == 0 && !run.variants[0].custom &&
		      strcmp(run.variants[0].title, "tile copy") == 0,
	      "the built-ins first, titled from the catalog: %s", run.nvariants ? run.variants[0].title : "none");
	CHECK(run.nvariants == 3 && run.variants[2].custom && strcmp(run.variants[2].id, "mine") == 0 &&
		      run.nkernels == 1 && strcmp(run.kernels[0].like, "tiled") == 0,
	      "then the custom kernels, with their like");
	CHECK(run.nresults == 2 && run.results[0].median_ms == 0.5 && isnan(run.results[0].ci_low_ms) &&
		      isnan(run.results[0].ci_high_ms) && run.results[0].bytes == 524288 && run.results[0].verified &&
		      strcmp(run.results[0].energy_error, "no energy counter") == 0 && isnan(run.results[0].j_per_launch),
	      "a result's figures, null and absent as NAN, the device's reason for no energy");
	CHECK(run.results[0].values && run.results[0].values[0] == 256 && run.results[0].values[1] == 32 &&
		      run.results[0].values[2] == 8,
	      "its point in the catalog's order (n, tile, rows), whatever the stored order");
	CHECK(!run.results[1].values && isnan(run.results[1].median_ms) && run.results[1].counters_pending &&
		      !run.results[1].counters,
	      "a result lacking a param has no point; its counters are still coming");
	CHECK(isnan(run.results[0].slowdown) && !run.results[0].prediction && run.results[0].energy_per_work == -1,
	      "no finding before its step");
	wl_run_free(&run);
out:
	json_decref(stored);
	wl_catalog_free(cat);
}
