/* Counters profiled later (issue 35): a CUDA run's launches wait for one
 * profiling session, the buffers they read are kept when their owner lets
 * go, and the points' results are written only once their counters are
 * there (or given up, saying why). No GPU is needed: the waiting list and
 * the held points are plain memory and a real store. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuda_api.h"
#include "cuda_counts.h"
#include "held_points.h"
#include "store_check.h"

void test_waiting_launches_keep_the_buffers_they_read(void)
{
	struct wl_cuda_device cd = { 0 };
	struct wl_cuda_call call = { .nparams = 3, .nbuffers = 2, .buffers = { 0x1000, 0x2000 } };
	struct wl_launch l = { .cuda = &call, .dims = 1, .global = { 1024 }, .local = { 256 } };
	char extra[2][256] = { "", "" };
	struct wl_error err;

	CHECK(wl_cuda_counts_waiting(&cd) == 0 && !wl_cuda_counts_due(&cd, 0), "nothing waits at first");
	CHECK(wl_cuda_counts_keep(&cd, 0x1000, 4096) == 0, "with nothing waiting, the owner frees its buffer");
	CHECK(wl_cuda_count_later(&cd, &l, NULL, 0.5, extra[0], sizeof(extra[0]), &err) == 0, "%s", err.msg);
	call.buffers[1] = 0x3000;
	CHECK(wl_cuda_count_later(&cd, &l, NULL, 9.0, extra[1], sizeof(extra[1]), &err) == 0, "%s", err.msg);
	CHECK(wl_cuda_counts_waiting(&cd) == 2, "two wait");
	CHECK(wl_cuda_counts_keep(&cd, 0x2000, 4096) == 1 && wl_cuda_counts_keep(&cd, 0x3000, 8192) == 1,
	      "a buffer a waiting launch reads is kept (the first call's, as it was when it was left)");
	CHECK(wl_cuda_counts_keep(&cd, 0x4000, 4096) == 0, "one no launch reads is the owner's to free");
	CHECK(wl_cuda_counts_held(&cd) == 12288, "12288 bytes kept, got %zu", wl_cuda_counts_held(&cd));
	CHECK(wl_cuda_counts_due(&cd, 12287), "due when the kept bytes pass the limit");
	CHECK(wl_cuda_counts_seconds(&cd) >= 10, "a deadline with room");
	wl_cuda_counts_drop(&cd, "not profiled: a test", 1);
	CHECK(strcmp(extra[0], "{\"counters_error\":\"not profiled: a test\"}") == 0 &&
		      strcmp(extra[0], extra[1]) == 0, "each result says why: %s / %s", extra[0], extra[1]);
	CHECK(wl_cuda_counts_waiting(&cd) == 0 && wl_cuda_counts_held(&cd) == 0, "nothing waits or is kept after");
	/* A hot launch is warmed by one of its own only where the launch
	 * before it used other buffers: 100 of 4.9 ms on the same buffers
	 * replay 101 launches a pass, not 200 (10 s + 8 passes' room). */
	for (int i = 0; i < 100; i++)
		wl_cuda_count_later(&cd, &l, NULL, 4.9, extra[0], sizeof(extra[0]), &err);
	CHECK(wl_cuda_counts_seconds(&cd) == 10 + (long long)(8 * 101 * 4.9 / 1000),
	      "one warm-up for the lot, got a deadline of %lld s", wl_cuda_counts_seconds(&cd));
	wl_cuda_counts_drop(&cd, "x", 1);
	for (int i = 0; i < WL_COUNTS_MAX; i++)
		wl_cuda_count_later(&cd, &l, NULL, 0.5, extra[0], sizeof(extra[0]), &err);
	CHECK(wl_cuda_counts_due(&cd, (size_t)-1), "due at %d launches", WL_COUNTS_MAX);
	wl_cuda_counts_drop(&cd, "x", 1);
	wl_cuda_counts_free(cd.counts);
}

void test_held_points_are_written_when_their_counters_are(void)
{
	struct wl_store *st = check_fresh_store("held");
	const char *ids[] = { "gpu-0" };
	struct wl_claim_devices devs = { ids, 1, "gpu-0", NULL, "gpu-0" };
	struct wl_experiment exp = { .metric = WL_METRIC_BANDWIDTH };
	struct wl_run_variant variants[2] = { { .name = "a" }, { .name = "b" } };
	struct wl_cuda_device cd = { 0 };
	struct wl_cuda_call call = { .nbuffers = 1, .buffers = { 0x1000 } };
	struct wl_launch l = { .cuda = &call, .dims = 1, .global = { 256 }, .local = { 256 } };
	struct wl_held_points held = { 0 };
	struct wl_error err;
	struct wl_claim c;
	json_t *run = NULL, *results;
	long long runner = 0, id;

	if (!st)
		return;
	wl_store_register_runner(st, "h", getpid(), "t", &runner, &err);
	id = check_queue_run(st, "copy", "gpu-0");
	wl_store_claim_run(st, runner, &devs, &c, &err);
	wl_claim_free(&c);
	for (int p = 0; p < 2; p++) {
		struct wl_point pt = { .exp = &exp };
		struct wl_point_results pr = { .ms = calloc(2, sizeof(*pr.ms)), .failures = calloc(2, sizeof(char *)) };
		char *params = strdup(p ? "{\"n\":2}" : "{\"n\":1}");

		for (int k = 0; k < 2; k++) {
			pr.ms[k] = (struct wl_measurement){ .reps = 1, .verified = 1, .bytes = 8 };
			pr.ms[k].stats.median = 1 + k;
			wl_cuda_count_later(&cd, &l, NULL, 1, pr.ms[k].extra, sizeof(pr.ms[k].extra), &err);
		}
		CHECK(wl_held_points_add(&held, &pt, &params, &pr, 2, 2, &err) == 0, "%s", err.msg);
		CHECK(!params && !pr.ms && !pr.failures, "the held point takes what it holds");
	}
	wl_store_get_run(st, id, 1, &run, &err);
	CHECK(json_array_size(json_object_get(run, "results")) == 0, "nothing is written while counters wait");
	json_decref(run);
	/* The profile failed (no GPU here): every result says so, and then
	 * they are written, in the order they were measured. */
	wl_cuda_counts_drop(&cd, "not profiled: no GPU", 1);
	CHECK(wl_held_points_record(&held, st, runner, id, variants, &err) == 0, "%s", err.msg);
	CHECK(held.n == 0, "nothing is held after");
	wl_store_get_run(st, id, 1, &run, &err);
	results = json_object_get(run, "results");
	CHECK(json_array_size(results) == 4, "four results, got %zu", json_array_size(results));
	for (size_t i = 0; i < json_array_size(results); i++) {
		json_t *r = json_array_get(results, i);

		CHECK(strcmp(json_string_value(json_object_get(r, "variant")), i % 2 ? "b" : "a") == 0 &&
			      json_integer_value(json_object_get(json_object_get(r, "params"), "n")) == (json_int_t)(i / 2 + 1),
		      "result %zu in measuring order", i);
		CHECK(json_is_string(json_object_get(r, "counters_error")) ||
			      json_is_string(json_object_get(json_object_get(r, "extra"), "counters_error")),
		      "result %zu says why it has no counters", i);
	}
	json_decref(run);
	wl_held_points_free(&held);
	wl_cuda_counts_free(cd.counts);
	wl_store_close(st);
}
