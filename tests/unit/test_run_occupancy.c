/* Each result's resident warps (wl_run_add_occupancy): a run that built a
 * variant twice — a tuning run's configurations, each its own defines and
 * work-group — predicts each result at the occupancy of its own build, not
 * the variant's first; a result no build is known for takes the first; a
 * build launched with more local memory through its arguments (the banks'
 * sweep of c) is taken at the result's own. */
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "catalog.h"
#include "catalog_experiment.h"
#include "check.h"
#include "exp_data.h"
#include "store.h"
#include "store_check.h"

#define RESULTS_MAX 4

/* A run of experiment on an H100 (compute capability 9.0) with results
 * (a JSON array, taken) whose variants were built as rows[0..nrows) say:
 * each result's resident warps into warps, and the run's "occupancy" of
 * variant into *variant_warps. -1 with a failed CHECK. */
static int occupancy_of(const char *experiment, const char *variant, json_t *results,
			const struct wl_build_row *rows, size_t nrows, long long *warps, long long *variant_warps)
{
	struct wl_catalog *cat = check_load_catalog();
	struct wl_store *st = check_fresh_store("run-occupancy");
	struct wl_run typed = { 0 };
	struct wl_error err;
	json_t *run = NULL;
	int rc = -1;
	long long id;

	if (!cat || !st)
		goto out;
	id = check_queue_run(st, experiment, NULL);
	for (size_t i = 0; i < nrows; i++)
		if (wl_store_put_build(st, id, &rows[i], &err) < 0) {
			CHECK(0, "the build is stored: %s", err.msg);
			goto out;
		}
	run = json_pack("{s:I, s:s, s:s, s:{s:s, s:s, s:s, s:i}, s:{s:[s]}, s:O}", "id", (json_int_t)id, "status",
			"done", "experiment", experiment, "device", "id", "nvidia-h100-0", "vendor", "NVIDIA Corporation",
			"compute_capability", "9.0", "warp_width", 32, "request", "variants", variant, "results", results);
	if (!run || wl_run_read(cat, run, &typed, &err) < 0 || wl_run_add_occupancy(&typed, st, &err) < 0) {
		CHECK(0, "the run reads, its occupancy added: %s", run ? err.msg : "out of memory");
		goto out;
	}
	for (size_t i = 0; i < typed.nresults && i < RESULTS_MAX; i++)
		warps[i] = typed.results[i].resident_warps;
	*variant_warps = json_integer_value(json_object_get(json_object_get(json_object_get(run, "occupancy"), variant),
							    "warps"));
	rc = 0;
out:
	wl_run_free(&typed);
	json_decref(run);
	json_decref(results);
	if (st)
		wl_store_close(st);
	if (cat)
		wl_catalog_free(cat);
	return rc;
}

/* The padded transpose's figures built for tile × rows groups, declaring
 * tile × (tile + 1) floats of local memory, into buf. */
static const char *padded_kernel(char *buf, size_t len, int tile, int rows)
{
	snprintf(buf, len,
		 "{\"kernel\": \"mtran_padded\", \"local_bytes\": %d, \"launches\": [{\"at\": \"tile=%d, rows=%d\", "
		 "\"work_group\": [%d, %d], \"local_arg_bytes\": 0}]}",
		 tile * (tile + 1) * 4, tile, rows, tile, rows);
	return buf;
}

static json_t *padded_at(int tile, int rows)
{
	return json_pack("{s:s, s:{s:i, s:i, s:i}, s:f, s:b}", "variant", "padded", "params", "n", 4096, "tile", tile,
			 "rows", rows, "median_ms", 0.04, "verified", 1);
}

void test_each_result_takes_its_own_builds_occupancy(void)
{
	char a[300], b[300];
	const struct wl_build_row rows[] = {
		{ "padded", "-D TILE_DIM=32 -D BLOCK_ROWS=8", "nvidia-h100-0", "580.1", "abcd",
		  padded_kernel(a, sizeof(a), 32, 8), "", NULL },
		{ "padded", "-D TILE_DIM=64 -D BLOCK_ROWS=1", "nvidia-h100-0", "580.1", "abcd",
		  padded_kernel(b, sizeof(b), 64, 1), "", NULL },
	};
	long long warps[RESULTS_MAX] = { 0 }, variant = 0;

	if (occupancy_of("transpose", "padded", json_pack("[o, o, o]", padded_at(32, 8), padded_at(64, 1), padded_at(16, 4)),
			 rows, 2, warps, &variant) < 0)
		return;
	/* 256 work-items of 4,224 bytes: 8 groups, 64 warps; 64 of 16,640
	 * bytes: the local memory holds 13 groups, 26 warps. */
	CHECK(warps[0] == 64, "tile 32, rows 8: %lld warps", warps[0]);
	CHECK(warps[1] == 26, "tile 64, one row: its own build's 26 warps, got %lld", warps[1]);
	CHECK(warps[2] == 64, "tile 16, not built: the variant's first build's, got %lld", warps[2]);
	CHECK(variant == 64, "the run's occupancy stays the variant's first build's, got %lld", variant);
}

/* The banks' stride variant, built once for groups of 256 and launched
 * with 4 × (256c + 32) bytes of local memory: at c = 32 too, though the
 * runner recorded only the launch of c = 1 (it keeps a few shapes a
 * build). */
void test_each_result_takes_its_launchs_local_memory(void)
{
	static const char kernel[] =
		"{\"kernel\": \"bank_stride\", \"local_bytes\": 1152, \"launches\": ["
		"{\"at\": \"c=1\", \"work_group\": [256], \"local_arg_bytes\": 1152}]}";
	const struct wl_build_row row = { "stride", "-D LOCAL_SIZE=256", "nvidia-h100-0", "580.1", "abcd", kernel, "",
					  NULL };
	long long warps[RESULTS_MAX] = { 0 }, variant = 0;
	json_t *results = json_pack("[{s:s, s:{s:i, s:i, s:i, s:i}, s:f, s:b}, {s:s, s:{s:i, s:i, s:i, s:i}, s:f, s:b}]",
				    "variant", "stride", "params", "c", 32, "local", 256, "groups", 1056, "iters", 256,
				    "median_ms", 0.01, "verified", 1, "variant", "stride", "params", "c", 1, "local",
				    256, "groups", 1056, "iters", 256, "median_ms", 0.01, "verified", 1);

	if (occupancy_of("banks", "stride", results, &row, 1, warps, &variant) < 0)
		return;
	/* 32,896 bytes a group: 6 groups of 8 warps; 1,152: 8 groups, 64. */
	CHECK(warps[0] == 48, "c = 32: its own 48 warps, got %lld", warps[0]);
	CHECK(warps[1] == 64 && variant == 64, "c = 1: 64 warps, got %lld (the variant %lld)", warps[1], variant);
}

/* A build's options are a result's where they are its point's defines,
 * alone or with the runner's WL_FP64_OPTION after them; nothing else. */
void test_a_builds_options_are_its_points(void)
{
	static const struct {
		const char *options;
		int are;
	} cases[] = {
		{ "-D TILE_DIM=32 -D BLOCK_ROWS=8", 1 },
		{ "-D TILE_DIM=32 -D BLOCK_ROWS=8 " WL_FP64_OPTION, 1 },
		{ "-D TILE_DIM=32 -D BLOCK_ROWS=80", 0 },
		{ "-D TILE_DIM=32 -D BLOCK_ROWS=8 -D X=1", 0 },
		{ "-D TILE_DIM=3", 0 },
		{ "", 0 },
	};
	const long long values[] = { 4096, 32, 8 };	/* n, tile, rows: the catalog's order */
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *exp = cat ? wl_catalog_find(cat, "transpose") : NULL;

	CHECK(exp && exp->nparams == 3, "the transpose's three params");
	for (size_t i = 0; exp && exp->nparams == 3 && i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(wl_exp_data_options_are(exp->data, values, cases[i].options) == cases[i].are, "'%s': %s",
		      cases[i].options, cases[i].are ? "its point's" : "not its point's");
	if (cat)
		wl_catalog_free(cat);
}
