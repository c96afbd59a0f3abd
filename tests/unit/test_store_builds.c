/* The store's record of builds (store.h, wl_store_put_build): the
 * compiler's account kept once per device, driver, source and options, and
 * each run's variants pointing at theirs. */
#include <string.h>

#include "check.h"
#include "store.h"
#include "store_check.h"

/* Count each record of a store walk by its table into ctx (a JSON object). */
static int count_rows(void *ctx, json_t *record, struct wl_error *err)
{
	const char *table = json_string_value(json_object_get(record, "table"));

	(void)err;
	json_object_set_new(ctx, table, json_integer(json_integer_value(json_object_get(ctx, table)) + 1));
	return 0;
}

/* The compiler's account is kept once per (device, driver, source, options):
 * two runs that built the same program share its log and PTX; each run's
 * variants name theirs with their own figures, and a variant recorded again
 * replaces its row; a run that recorded nothing reads as an empty list. */
void test_store_keeps_each_build_once(void)
{
	struct wl_store *st = check_fresh_store("builds");
	struct wl_build_row row = { "tiled", "-D TILE_DIM=32", "gpu-0", "580.1", "abcd", "{\"kernel\":\"mtran\"}",
				    "ptxas info    : Used 28 registers", ".entry mtran(" };
	struct wl_error err;
	json_t *builds = NULL, *counts = json_object(), *rec;
	long long a, b, c;

	if (!st) {
		json_decref(counts);
		return;
	}
	a = check_queue_run(st, "transpose", NULL);
	b = check_queue_run(st, "transpose", NULL);
	c = check_queue_run(st, "transpose", NULL);
	CHECK(wl_store_put_build(st, a, &row, &err) == 0, "%s", err.msg);
	row.kernel_json = "{\"kernel\":\"mtran\",\"launches\":[1]}";
	CHECK(wl_store_put_build(st, a, &row, &err) == 0, "again: %s", err.msg);
	/* Another run, the same program: its texts are not stored twice, and a
	 * later log for the same key does not replace the first. */
	row.log = "another log";
	CHECK(wl_store_put_build(st, b, &row, &err) == 0, "%s", err.msg);
	row.options = "-D TILE_DIM=16";
	row.ptx = NULL;
	CHECK(wl_store_put_build(st, b, &row, &err) == 0, "%s", err.msg);
	CHECK(wl_store_get_builds(st, a, 1, &builds, &err) == 0 && json_array_size(builds) == 1, "run a: one build");
	rec = json_array_get(builds, 0);
	CHECK(json_array_size(json_object_get(json_object_get(rec, "kernel"), "launches")) == 1,
	      "the variant's second record replaced its first");
	CHECK(strcmp(json_string_value(json_object_get(rec, "log")), "ptxas info    : Used 28 registers") == 0 &&
	      strcmp(json_string_value(json_object_get(rec, "ptx")), ".entry mtran(") == 0, "its texts");
	json_decref(builds);
	CHECK(wl_store_get_builds(st, b, 1, &builds, &err) == 0 && json_array_size(builds) == 2, "run b: two builds");
	CHECK(strcmp(json_string_value(json_object_get(json_array_get(builds, 1), "log")),
		     "ptxas info    : Used 28 registers") == 0, "the first log of a key stands");
	CHECK(json_is_null(json_object_get(json_array_get(builds, 0), "ptx")), "no PTX: null");
	json_decref(builds);
	CHECK(wl_store_get_builds(st, a, 0, &builds, &err) == 0 && json_is_null(json_object_get(json_array_get(builds, 0), "ptx")) &&
	      json_is_string(json_object_get(json_array_get(builds, 0), "log")), "without the PTX: the log only");
	json_decref(builds);
	CHECK(wl_store_get_builds(st, c, 1, &builds, &err) == 0 && json_array_size(builds) == 0, "run c: none");
	json_decref(builds);
	/* Kept once: the store holds two builds for three variant rows. */
	CHECK(wl_store_each_row(st, count_rows, counts, &err) == 0, "%s", err.msg);
	CHECK(json_integer_value(json_object_get(counts, "builds")) == 2 &&
	      json_integer_value(json_object_get(counts, "run_builds")) == 3,
	      "2 builds, 3 variant rows: got %lld, %lld", json_integer_value(json_object_get(counts, "builds")),
	      json_integer_value(json_object_get(counts, "run_builds")));
	json_decref(counts);
	wl_store_close(st);
}
