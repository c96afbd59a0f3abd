/* Counters profiled later, so that no run waits on a profile: a CUDA run's launches wait, across
 * runs, for one profiling session; the buffers they read are kept when
 * their owner lets go; the results are written at once, saying their
 * counters are coming, and the counters (or why there are none) are
 * written into them afterwards, the run then explained. No GPU is needed:
 * the waiting list is plain memory, the store a real one. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "check.h"
#include "counts_write.h"
#include "cuda_api.h"
#include "cuda_counts.h"
#include "cuda_device.h"
#include "explain.h"
#include "store_check.h"

void test_waiting_launches_keep_the_buffers_they_read(void)
{
	struct wl_cuda_device cd = { 0 };
	struct wl_cuda_call call = { .nparams = 3, .nbuffers = 2, .buffers = { 0x1000, 0x2000 } };
	struct wl_launch l = { .backend = &wl_backend_cuda, .handle = &call, .dims = 1, .global = { 1024 }, .local = { 256 } };
	const struct wl_counted *settled;
	struct wl_error err;

	CHECK(wl_cuda_counts_waiting(&cd, 0) == 0 && !wl_cuda_counts_due(&cd, 0), "nothing waits at first");
	CHECK(wl_cuda_counts_keep(&cd, 0x1000, 4096) == 0, "with nothing waiting, the owner frees its buffer");
	CHECK(wl_cuda_count_later(&cd, &l, NULL, 0.5, 7, 1, &err) == 0, "%s", err.msg);
	call.buffers[1] = 0x3000;
	CHECK(wl_cuda_count_later(&cd, &l, NULL, 9.0, 8, 1, &err) == 0, "%s", err.msg);
	CHECK(wl_cuda_counts_waiting(&cd, 0) == 2 && wl_cuda_counts_waiting(&cd, 7) == 1, "two wait, one of run 7");
	CHECK(wl_cuda_counts_keep(&cd, 0x2000, 4096) == 1 && wl_cuda_counts_keep(&cd, 0x3000, 8192) == 1,
	      "a buffer a waiting launch reads is kept (the first call's, as it was when it was left)");
	CHECK(wl_cuda_counts_keep(&cd, 0x4000, 4096) == 0, "one no launch reads is the owner's to free");
	CHECK(wl_cuda_counts_held(&cd) == 12288, "12288 bytes kept, got %zu", wl_cuda_counts_held(&cd));
	CHECK(!wl_cuda_counts_due(&cd, 12288), "two launches on little memory wait for the runner's idle time");
	CHECK(wl_cuda_counts_due(&cd, 12287), "due when the kept bytes pass the limit");
	CHECK(wl_cuda_counts_seconds(&cd, (size_t)-1) >= 10, "a deadline with room");
	/* Run 8 was requeued: its launch is forgotten, and the buffer only it
	 * read is freed; run 7's waits on, with what it reads. */
	wl_cuda_counts_drop(&cd, NULL, 0, 8);
	CHECK(wl_cuda_counts_waiting(&cd, 0) == 1 && wl_cuda_counts_waiting(&cd, 7) == 1, "run 7's launch waits on");
	CHECK(wl_cuda_counts_held(&cd) == 4096, "the buffer run 8 alone read is freed, %zu bytes kept",
	      wl_cuda_counts_held(&cd));
	CHECK(wl_cuda_counts_settled(&cd, &settled) == 0, "a forgotten launch is not settled");
	wl_cuda_counts_drop(&cd, "not profiled: a test", 1, 0);
	CHECK(wl_cuda_counts_settled(&cd, &settled) == 1 && settled[0].run_id == 7 && settled[0].seq == 1 &&
		      strcmp(settled[0].extra, "{\"counters_error\":\"not profiled: a test\"}") == 0,
	      "the result says why: %s", settled[0].extra);
	CHECK(wl_cuda_counts_waiting(&cd, 0) == 0 && wl_cuda_counts_held(&cd) == 0, "nothing waits or is kept after");
	wl_cuda_counts_forget(&cd, 1);
	CHECK(wl_cuda_counts_settled(&cd, &settled) == 0, "written, forgotten");
	/* A hot launch is warmed by one of its own only where the launch
	 * before it used other buffers: 100 of 4.9 ms on the same buffers
	 * replay 101 launches a pass, not 200 (9 s + a session + 8 passes'
	 * room). */
	for (int i = 0; i < 100; i++)
		wl_cuda_count_later(&cd, &l, NULL, 4.9, 1, i + 1, &err);
	CHECK(wl_cuda_counts_seconds(&cd, (size_t)-1) == 10 + (long long)(8 * 101 * 4.9 / 1000),
	      "one warm-up for the lot, got a deadline of %lld s", wl_cuda_counts_seconds(&cd, (size_t)-1));
	wl_cuda_counts_drop(&cd, NULL, 1, 0);
	for (int i = 0; i < WL_COUNTS_PILE; i++)
		wl_cuda_count_later(&cd, &l, NULL, 0.5, 1, i + 1, &err);
	CHECK(wl_cuda_counts_due(&cd, (size_t)-1), "due at %d launches", WL_COUNTS_PILE);
	wl_cuda_counts_drop(&cd, NULL, 1, 0);
	wl_cuda_counts_free(cd.counts);
}

/* A done run with two results whose counters wait on dev's CUDA side; its id. */
static long long run_with_pending_counters(struct wl_store *st, long long runner, struct wl_device *dev)
{
	struct wl_cuda_device *cd = wl_cuda_of(dev)->cd;
	const char *ids[] = { "gpu-0" };
	struct wl_claim_devices devs = { ids, 1, "gpu-0", NULL, "gpu-0", NULL, NULL };
	struct wl_cuda_call call = { .nbuffers = 1, .buffers = { 0x1000 } };
	struct wl_launch l = { .backend = &wl_backend_cuda, .handle = &call, .dims = 1, .global = { 256 }, .local = { 256 } };
	struct wl_result_row rows[2] = {
		{ .variant = "a", .params_json = "{\"n\":1}", .reps = 1, .median_ms = 1, .verified = 1,
		  .extra_json = WL_COUNTS_PENDING },
		{ .variant = "b", .params_json = "{\"n\":1}", .reps = 1, .median_ms = 2, .verified = 1,
		  .extra_json = WL_COUNTS_PENDING },
	};
	struct wl_error err;
	struct wl_claim c;
	long long id = check_queue_run(st, "copy", "gpu-0");

	wl_store_claim_run(st, runner, &devs, &c, &err);
	wl_claim_free(&c);
	CHECK(wl_store_add_results(st, runner, id, rows, 2, &err) == 0, "%s", err.msg);
	for (int k = 0; k < 2; k++)
		wl_cuda_count_later(cd, &l, NULL, 1, id, k + 1, &err);
	/* The run being measured: its state is its own to set. */
	CHECK(wl_counts_write(st, dev, id, 0, &err) == 0, "%s", err.msg);
	CHECK(wl_store_finish_run(st, runner, id, "done", NULL, &err) == 0 &&
		      wl_store_set_explain(st, id, "pending", 0, &err) == 0, "%s", err.msg);
	return id;
}

/* Result k's extra key, of run id. */
static json_t *result_extra(struct wl_store *st, long long id, size_t k, const char *key)
{
	json_t *run = NULL, *v;
	struct wl_error err;

	wl_store_get_run(st, id, 1, &run, &err);
	v = json_object_get(json_object_get(json_array_get(json_object_get(run, "results"), k), "extra"), key);
	json_incref(v);
	json_decref(run);
	return v;
}

void test_counters_are_written_into_their_results_later(void)
{
	struct wl_store *st = check_fresh_store("counted");
	struct wl_cuda_device cd = { 0 };
	/* A device whose CUDA side holds cd, as the worker attaches one. */
	struct wl_cuda_side side = { .ordinal = -1, .cd = &cd };
	struct wl_device dev = { .api[WL_LANG_CUDA] = &side };
	struct wl_devices none = { 0 };
	const char *ids[] = { "gpu-0" };
	struct wl_claim_devices devs = { ids, 1, "gpu-0", NULL, "gpu-0", NULL, NULL };
	struct wl_catalog *cat = check_load_catalog();
	struct wl_executor ex = { .store = st, .cat = cat, .devs = &none,
				  .trace_off = "no tracing in this test" };
	struct wl_error err;
	json_t *run = NULL, *v;
	long long runner = 0, id;

	if (!st || !cat)
		return;
	wl_store_register_runner(st, "h", getpid(), "t", &runner, &err);
	id = run_with_pending_counters(st, runner, &dev);
	v = result_extra(st, id, 1, "counters_pending");
	CHECK(json_is_true(v), "the results are written at once, saying their counters are coming");
	json_decref(v);
	/* The profile failed (no GPU here): each result says so, and the run
	 * has nothing more coming. */
	wl_cuda_counts_drop(&cd, "not profiled: no GPU", 0, 0);
	CHECK(wl_counts_write(st, &dev, 0, 0, &err) == 0, "%s", err.msg);
	for (size_t k = 0; k < 2; k++) {
		v = result_extra(st, id, k, "counters_error");
		CHECK(v && strcmp(json_string_value(v), "not profiled: no GPU") == 0, "result %zu says why", k);
		json_decref(v);
	}
	wl_store_get_run(st, id, 0, &run, &err);
	CHECK(strcmp(json_string_value(json_object_get(run, "explain")), "done") == 0, "the run is explained");
	json_decref(run);
	/* Where the runner traces CUDA runs, counters in leave the run
	 * pending for its traces. */
	id = run_with_pending_counters(st, runner, &dev);
	wl_cuda_counts_drop(&cd, "not profiled: no GPU", 0, 0);
	CHECK(wl_counts_write(st, &dev, 0, 1, &err) == 0, "%s", err.msg);
	wl_store_get_run(st, id, 0, &run, &err);
	CHECK(strcmp(json_string_value(json_object_get(run, "explain")), "pending") == 0,
	      "the run waits for its traces: %s", json_string_value(json_object_get(run, "explain")));
	json_decref(run);
	run = NULL;
	wl_store_set_explain(st, id, "done", 0, &err);
	/* A runner stopped with a run's counters waiting: what it left says so
	 * when the next one finds them. */
	id = run_with_pending_counters(st, runner, &dev);
	wl_cuda_counts_drop(&cd, NULL, 0, 0);
	CHECK(wl_explain_next(&ex, &devs, &err) == 1, "the pending run is taken up: %s", err.msg);
	for (size_t k = 0; k < 2; k++) {
		v = result_extra(st, id, k, "counters_error");
		CHECK(v && strstr(json_string_value(v), "runner stopped"), "result %zu says its counters were lost", k);
		json_decref(v);
	}
	wl_store_get_run(st, id, 0, &run, &err);
	CHECK(strcmp(json_string_value(json_object_get(run, "explain")), "pending") != 0, "nothing more is coming");
	json_decref(run);
	wl_cuda_counts_free(cd.counts);
	wl_catalog_free(cat);
	wl_store_close(st);
}
