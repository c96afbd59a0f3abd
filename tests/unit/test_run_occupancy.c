/* Each result's resident warps (wl_run_add_occupancy): a run that built a
 * variant twice — a tuning run's configurations, each its own defines and
 * work-group — predicts each result at the occupancy of its own build, not
 * the variant's first; a result no build is known for takes the first; a
 * build launched with more local memory through its arguments (the banks'
 * sweep of c) is taken at the result's own. */
#include <string.h>

#include "analysis.h"
#include "catalog.h"
#include "check.h"
#include "store.h"
#include "store_check.h"

/* The padded transpose built with options, launched in groups of tile ×
 * rows, declaring tile × (tile + 1) floats of local memory. */
static int put_padded(struct wl_store *st, long long run, const char *options, int tile, int rows)
{
	char kernel[300];
	struct wl_build_row row = { "padded", options, "nvidia-h100-0", "580.1", "abcd", kernel, "", NULL };
	struct wl_error err;

	snprintf(kernel, sizeof(kernel),
		 "{\"kernel\": \"mtran_padded\", \"local_bytes\": %d, \"launches\": [{\"at\": \"tile=%d, rows=%d\", "
		 "\"work_group\": [%d, %d], \"local_arg_bytes\": 0}]}",
		 tile * (tile + 1) * 4, tile, rows, tile, rows);
	if (wl_store_put_build(st, run, &row, &err) < 0) {
		CHECK(0, "the build is stored: %s", err.msg);
		return -1;
	}
	return 0;
}

static json_t *padded_at(int tile, int rows)
{
	return json_pack("{s:s, s:{s:i, s:i, s:i}, s:f, s:b}", "variant", "padded", "params", "n", 4096, "tile", tile,
			 "rows", rows, "median_ms", 0.04, "verified", 1);
}

void test_each_result_takes_its_own_builds_occupancy(void)
{
	struct wl_catalog *cat = check_load_catalog();
	struct wl_store *st = check_fresh_store("run-occupancy");
	struct wl_run typed = { 0 };
	struct wl_error err;
	json_t *run = NULL;
	long long id;

	if (!cat || !st)
		goto out;
	id = check_queue_run(st, "transpose", NULL);
	if (put_padded(st, id, "-D TILE_DIM=32 -D BLOCK_ROWS=8", 32, 8) < 0 ||
	    put_padded(st, id, "-D TILE_DIM=64 -D BLOCK_ROWS=1", 64, 1) < 0)
		goto out;
	run = json_pack("{s:I, s:s, s:s, s:{s:s, s:s, s:s, s:i}, s:{s:[s]}, s:[o, o, o]}", "id", (json_int_t)id,
			"status", "done", "experiment", "transpose", "device", "id", "nvidia-h100-0", "vendor",
			"NVIDIA Corporation", "compute_capability", "9.0", "warp_width", 32, "request", "variants",
			"padded", "results", padded_at(32, 8), padded_at(64, 1), padded_at(16, 4));
	if (!run || wl_run_read(cat, run, &typed, &err) < 0) {
		CHECK(0, "the run reads: %s", run ? err.msg : "out of memory");
		goto out;
	}
	CHECK(wl_run_add_occupancy(&typed, st, &err) == 0, "%s", err.msg);
	/* 256 work-items of 4,224 bytes: 8 groups, 64 warps; 64 of 16,640
	 * bytes: the local memory holds 13 groups, 26 warps. */
	CHECK(typed.nresults == 3 && typed.results[0].resident_warps == 64, "tile 32, rows 8: %lld warps",
	      typed.results[0].resident_warps);
	CHECK(typed.results[1].resident_warps == 26, "tile 64, one row: its own build's 26 warps, got %lld",
	      typed.results[1].resident_warps);
	CHECK(typed.results[2].resident_warps == 64, "tile 16, not built: the variant's first build's, got %lld",
	      typed.results[2].resident_warps);
	CHECK(json_integer_value(json_object_get(json_object_get(json_object_get(run, "occupancy"), "padded"),
						 "warps")) == 64,
	      "the run's occupancy stays the variant's first launch's");
out:
	wl_run_free(&typed);
	json_decref(run);
	if (st)
		wl_store_close(st);
	if (cat)
		wl_catalog_free(cat);
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
	struct wl_build_row row = { "stride", "-D LOCAL_SIZE=256", "nvidia-h100-0", "580.1", "abcd", kernel, "", NULL };
	struct wl_catalog *cat = check_load_catalog();
	struct wl_store *st = check_fresh_store("run-occupancy-local");
	struct wl_run typed = { 0 };
	struct wl_error err;
	json_t *run = NULL;
	long long id;

	if (!cat || !st)
		goto out;
	id = check_queue_run(st, "banks", NULL);
	if (wl_store_put_build(st, id, &row, &err) < 0) {
		CHECK(0, "the build is stored: %s", err.msg);
		goto out;
	}
	run = json_pack("{s:I, s:s, s:s, s:{s:s, s:s, s:s, s:i}, s:{s:[s]}, s:["
			"{s:s, s:{s:i, s:i, s:i, s:i}, s:f, s:b}, {s:s, s:{s:i, s:i, s:i, s:i}, s:f, s:b}]}",
			"id", (json_int_t)id, "status", "done", "experiment", "banks", "device", "id", "nvidia-h100-0",
			"vendor", "NVIDIA Corporation", "compute_capability", "9.0", "warp_width", 32, "request",
			"variants", "stride", "results", "variant", "stride", "params", "c", 32, "local", 256, "groups",
			1056, "iters", 256, "median_ms", 0.01, "verified", 1, "variant", "stride", "params", "c", 1,
			"local", 256, "groups", 1056, "iters", 256, "median_ms", 0.01, "verified", 1);
	if (!run || wl_run_read(cat, run, &typed, &err) < 0) {
		CHECK(0, "the run reads: %s", run ? err.msg : "out of memory");
		goto out;
	}
	CHECK(wl_run_add_occupancy(&typed, st, &err) == 0, "%s", err.msg);
	/* 32,896 bytes a group: 6 groups of 8 warps; 1,152: 8 groups, 64. */
	CHECK(typed.nresults == 2 && typed.results[0].resident_warps == 48, "c = 32: its own 48 warps, got %lld",
	      typed.results[0].resident_warps);
	CHECK(typed.results[1].resident_warps == 64, "c = 1: 64 warps, got %lld", typed.results[1].resident_warps);
out:
	wl_run_free(&typed);
	json_decref(run);
	if (st)
		wl_store_close(st);
	if (cat)
		wl_catalog_free(cat);
}
