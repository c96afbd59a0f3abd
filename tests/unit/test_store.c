/* The store on a real SQLite file: queueing, reading, claiming, results and
 * progress, cancelling, paging, the queue limit, and recovery of runs whose
 * runner died. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "store_check.h"
#include "store.h"
#include "wakeup.h"

/* The --db value of the last fresh store. */
static char target[512];

struct wl_store *check_fresh_store(const char *name)
{
	struct wl_store *st = NULL;
	struct wl_error err;

	if (check_store_target(name, target, sizeof(target)) < 0) {
		CHECK(0, "no store for %s", name);
		return NULL;
	}
	CHECK(wl_store_open(target, &st, &err) == 0, "open %s: %s", target, err.msg);
	return st;
}

long long check_queue_run(struct wl_store *st, const char *experiment, const char *device_id)
{
	struct wl_new_run run = {
		.experiment = experiment,
		.label = "a label",
		.request_json = "{\"experiment\":\"x\",\"variants\":[\"v\"],\"params\":{},\"repeat\":1,\"seed\":1}",
		.device_req = device_id ? device_id : "auto",
		.device_id = device_id,
		.total = 4,
		.queue_limit = 1000,
	};
	struct wl_error err;
	long long id = 0;

	CHECK(wl_store_insert_run(st, &run, &id, &err) == 0, "insert: %s", err.msg);
	return id;
}

long long check_add_runner(struct wl_store *st, long long pid, const char *device, const char *type)
{
	struct wl_error err;
	long long runner = 0;
	json_t *info = json_pack("{s:s, s:s, s:s}", "id", device, "type", type, "name", device);

	CHECK(wl_store_register_runner(st, "testhost", pid, "test", &runner, &err) == 0, "%s", err.msg);
	CHECK(wl_store_upsert_device(st, runner, 0, info, &err) == 0, "%s", err.msg);
	json_decref(info);
	return runner;
}

static const char *status_of(struct wl_store *st, long long id, char *buf, size_t len)
{
	json_t *run = NULL;
	struct wl_error err;

	if (wl_store_get_run(st, id, 0, &run, &err) < 0)
		return "missing";
	snprintf(buf, len, "%s", json_string_value(json_object_get(run, "status")));
	json_decref(run);
	return buf;
}

void test_store_queues_and_reads_runs(void)
{
	struct wl_store *st = check_fresh_store("queue");
	struct wl_error err;
	json_t *run = NULL;
	long long id;
	int version = 0;

	if (!st)
		return;
	CHECK(wl_store_schema_version(st, &version, &err) == 0 && version >= 1, "migrated: %d", version);
	id = check_queue_run(st, "transpose", NULL);
	CHECK(id == 1, "first id is 1, got %lld", id);
	CHECK(wl_store_get_run(st, id, 1, &run, &err) == 0, "%s", err.msg);
	if (run) {
		CHECK(strcmp(json_string_value(json_object_get(run, "status")), "queued") == 0, "queued");
		CHECK(strcmp(json_string_value(json_object_get(run, "label")), "a label") == 0, "label");
		CHECK(json_is_object(json_object_get(run, "request")), "request parsed back to JSON");
		CHECK(json_integer_value(json_object_get(json_object_get(run, "progress"), "total")) == 4,
		      "total");
		CHECK(json_array_size(json_object_get(run, "results")) == 0, "no results yet");
		CHECK(json_is_string(json_object_get(run, "created_at")), "created_at set");
		json_decref(run);
	}
	run = NULL;
	CHECK(wl_store_get_run(st, 99, 1, &run, &err) < 0 && err.kind == WL_ERR_NOT_FOUND,
	      "missing run is NOT_FOUND");
	wl_store_close(st);
	/* A second open of the same file sees the run and migrates nothing. */
	st = check_fresh_store("queue-reopen");
	wl_store_close(st);
}

void test_store_claims_oldest_run_for_its_devices(void)
{
	struct wl_store *st = check_fresh_store("claim");
	struct wl_error err;
	struct wl_claim c;
	const char *ids[] = { "cpu-0" };
	struct wl_claim_devices devs = { ids, 1, "cpu-0", NULL, "cpu-0", NULL, NULL };
	long long runner, a, b, other;

	if (!st)
		return;
	runner = check_add_runner(st, getpid(), "cpu-0", "cpu");
	other = check_queue_run(st, "transpose", "gpu-7");	/* not ours */
	a = check_queue_run(st, "transpose", NULL);		/* auto: ours */
	b = check_queue_run(st, "copy", "cpu-0");
	CHECK(wl_store_claim_run(st, runner, &devs, &c, &err) == 0, "%s", err.msg);
	CHECK(c.id == a, "claims the oldest run it can serve (%lld), got %lld", a, c.id);
	CHECK(c.device_id && strcmp(c.device_id, "cpu-0") == 0, "auto resolves to our device");
	CHECK(c.attempt == 1, "first attempt");
	wl_claim_free(&c);
	CHECK(wl_store_claim_run(st, runner, &devs, &c, &err) == 0 && c.id == b, "then %lld, got %lld", b, c.id);
	wl_claim_free(&c);
	CHECK(wl_store_claim_run(st, runner, &devs, &c, &err) == 0 && c.id == 0,
	      "nothing left for cpu-0 (run %lld is for another device), got %lld", other, c.id);
	{
		char s[32];
		json_t *run = NULL;

		CHECK(strcmp(status_of(st, a, s, sizeof(s)), "running") == 0, "claimed run is running");
		CHECK(strcmp(status_of(st, other, s, sizeof(s)), "queued") == 0, "other stays queued");
		wl_store_get_run(st, a, 0, &run, &err);
		CHECK(json_is_object(json_object_get(run, "device")), "the device is snapshotted");
		json_decref(run);
	}
	wl_store_close(st);
}

void test_store_records_progress_and_results(void)
{
	struct wl_store *st = check_fresh_store("results");
	const char *ids[] = { "cpu-0" };
	struct wl_claim_devices devs = { ids, 1, "cpu-0", NULL, "cpu-0", NULL, NULL };
	struct wl_result_row ok = { .variant = "naive", .params_json = "{\"n\":256}", .median_ms = 2.0,
				    .min_ms = 1.5, .max_ms = 3.0, .reps = 10, .bytes = 524288,
				    .verified = 1, .extra_json = "{\"predicted_degree\":2}" };
	struct wl_result_row bad = { .variant = "tiled", .params_json = "{\"n\":256}", .bytes = 524288,
				     .error = "verification failed" };
	struct wl_error err;
	struct wl_claim c;
	json_t *run = NULL, *r0, *r1;
	long long runner, id;

	if (!st)
		return;
	runner = check_add_runner(st, getpid(), "cpu-0", "cpu");
	id = check_queue_run(st, "transpose", "cpu-0");
	CHECK(wl_store_add_result(st, runner, id, &ok, &err) < 0 && err.kind == WL_ERR_CONFLICT,
	      "results only for running runs");
	wl_store_claim_run(st, runner, &devs, &c, &err);
	wl_claim_free(&c);
	CHECK(wl_store_add_result(st, runner + 1, id, &ok, &err) < 0 && err.kind == WL_ERR_CONFLICT,
	      "another runner cannot write into it");
	{
		/* A batch is written whole or not at all. */
		const struct wl_result_row both[2] = { ok, bad };

		CHECK(wl_store_add_results(st, runner + 1, id, both, 2, &err) < 0 &&
			      err.kind == WL_ERR_CONFLICT, "a batch of another runner's is refused");
		CHECK(wl_store_add_results(st, runner, id, both, 2, &err) == 0, "%s", err.msg);
	}
	CHECK(wl_store_set_run_provenance(st, id, "abcd", "9.9", &err) == 0, "%s", err.msg);
	CHECK(wl_store_finish_run(st, runner, id, "done", NULL, &err) == 0, "%s", err.msg);
	CHECK(wl_store_get_run(st, id, 1, &run, &err) == 0, "%s", err.msg);
	r0 = json_array_get(json_object_get(run, "results"), 0);
	r1 = json_array_get(json_object_get(run, "results"), 1);
	CHECK(json_integer_value(json_object_get(json_object_get(run, "progress"), "done")) == 2,
	      "progress counts results");
	CHECK(strcmp(json_string_value(json_object_get(run, "status")), "done") == 0, "done");
	CHECK(json_is_string(json_object_get(run, "finished_at")), "finished_at set");
	CHECK(strcmp(json_string_value(json_object_get(run, "source_hash")), "abcd") == 0, "provenance");
	/* 524288 bytes in 2 ms = 0.262144 GB/s */
	CHECK(json_real_value(json_object_get(r0, "gbps")) > 0.262 &&
		      json_real_value(json_object_get(r0, "gbps")) < 0.2622,
	      "gbps from bytes and median: %g", json_real_value(json_object_get(r0, "gbps")));
	CHECK(json_is_true(json_object_get(r0, "verified")), "verified kept");
	CHECK(json_integer_value(json_object_get(json_object_get(r0, "extra"), "predicted_degree")) == 2,
	      "extra figures kept as JSON");
	CHECK(json_is_null(json_object_get(r1, "extra")), "no extra: null");
	CHECK(json_integer_value(json_object_get(json_object_get(r0, "params"), "n")) == 256, "params");
	CHECK(json_is_null(json_object_get(r1, "median_ms")) && json_is_null(json_object_get(r1, "gbps")),
	      "a failed point has no time");
	CHECK(strcmp(json_string_value(json_object_get(r1, "error")), "verification failed") == 0,
	      "error kept");
	json_decref(run);
	wl_store_close(st);
}

/* A pid that is certainly not running: a child that has exited and been reaped. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

void test_store_recovers_runs_of_dead_runners(void)
{
	struct wl_store *st = check_fresh_store("recover");
	const char *ids[] = { "cpu-0" };
	struct wl_claim_devices devs = { ids, 1, "cpu-0", NULL, "cpu-0", NULL, NULL };
	struct wl_result_row row = { .variant = "naive", .params_json = "{\"n\":256}", .median_ms = 2.0,
				     .min_ms = 1.5, .max_ms = 3.0, .reps = 10, .bytes = 524288, .verified = 1 };
	struct wl_error err;
	struct wl_claim c;
	long long dead, alive, me, id, id_alive;
	int requeued = 0, failed = 0;
	char s[32];
	json_t *run = NULL;

	if (!st)
		return;
	dead = check_add_runner(st, dead_pid(), "cpu-0", "cpu");
	id = check_queue_run(st, "transpose", "cpu-0");
	CHECK(wl_store_claim_run(st, dead, &devs, &c, &err) == 0 && c.id == id, "dead runner claimed");
	wl_claim_free(&c);
	CHECK(wl_store_add_result(st, dead, id, &row, &err) == 0, "%s", err.msg);
	alive = check_add_runner(st, getpid(), "cpu-0", "cpu");	/* this process: alive */
	id_alive = check_queue_run(st, "copy", "cpu-0");
	CHECK(wl_store_claim_run(st, alive, &devs, &c, &err) == 0 && c.id == id_alive, "live runner claimed");
	wl_claim_free(&c);

	me = check_add_runner(st, getpid(), "cpu-0", "cpu");
	CHECK(wl_store_recover(st, me, "testhost", 3600, 3, &requeued, &failed, &err) == 0, "%s", err.msg);
	CHECK(requeued == 1 && failed == 0, "one requeued (got %d), none failed (got %d)", requeued, failed);
	CHECK(strcmp(status_of(st, id, s, sizeof(s)), "queued") == 0, "dead runner's run queued again");
	CHECK(strcmp(status_of(st, id_alive, s, sizeof(s)), "running") == 0, "live runner's run untouched");
	wl_store_get_run(st, id, 1, &run, &err);
	CHECK(json_array_size(json_object_get(run, "results")) == 0, "partial results dropped");
	CHECK(json_integer_value(json_object_get(run, "requeues")) == 1, "requeue counted");
	json_decref(run);

	/* Each death counts an attempt; at the limit the run fails with the reason. */
	for (int attempt = 2; attempt <= 3; attempt++) {
		long long r = check_add_runner(st, dead_pid(), "cpu-0", "cpu");

		wl_store_claim_run(st, r, &devs, &c, &err);
		CHECK(c.id == id && c.attempt == attempt, "attempt %d claims run %lld (got %lld, %lld)",
		      attempt, id, c.id, c.attempt);
		wl_claim_free(&c);
		wl_store_recover(st, me, "testhost", 3600, 3, &requeued, &failed, &err);
	}
	CHECK(failed == 1, "failed after 3 attempts");
	run = NULL;
	wl_store_get_run(st, id, 0, &run, &err);
	CHECK(strcmp(json_string_value(json_object_get(run, "status")), "failed") == 0, "failed");
	CHECK(strstr(json_string_value(json_object_get(run, "error")), "gave up after 3 attempts") != NULL,
	      "reason given: %s", json_string_value(json_object_get(run, "error")));
	json_decref(run);

	/* A runner on another host is judged by its heartbeat alone. */
	{
		long long far;
		long long id3 = check_queue_run(st, "copy", "cpu-0");

		CHECK(wl_store_register_runner(st, "elsewhere", 1, "test", &far, &err) == 0, "%s", err.msg);
		wl_store_claim_run(st, far, &devs, &c, &err);
		CHECK(c.id == id3, "far runner claimed");
		wl_claim_free(&c);
		wl_store_recover(st, me, "testhost", 3600, 3, &requeued, &failed, &err);
		CHECK(strcmp(status_of(st, id3, s, sizeof(s)), "running") == 0, "fresh heartbeat: alive");
		CHECK(wl_store_runner_stopped(st, far, &err) == 0, "%s", err.msg);
		wl_store_recover(st, me, "testhost", 3600, 3, &requeued, &failed, &err);
		CHECK(strcmp(status_of(st, id3, s, sizeof(s)), "queued") == 0, "stopped runner: requeued");
	}
	wl_store_close(st);
}

void test_store_refuses_when_queue_full(void)
{
	struct wl_store *st = check_fresh_store("full");
	struct wl_new_run run = { "copy", NULL, "{}", "auto", NULL, 3, 2, NULL, 0 };
	struct wl_error err;
	long long id;

	if (!st)
		return;
	CHECK(wl_store_insert_run(st, &run, &id, &err) == 0, "1st: %s", err.msg);
	CHECK(wl_store_insert_run(st, &run, &id, &err) == 0, "2nd: %s", err.msg);
	CHECK(wl_store_insert_run(st, &run, &id, &err) < 0 && err.kind == WL_ERR_QUEUE_FULL,
	      "3rd over the limit of 2");
	CHECK(strstr(err.msg, "2 runs queued"), "message: %s", err.msg);
	wl_store_close(st);
}

void test_store_lists_runs_newest_first_with_paging(void)
{
	struct wl_store *st = check_fresh_store("list");
	struct wl_run_filter f = { 0 };
	struct wl_error err;
	json_t *runs = NULL;
	int more = 0;

	if (!st)
		return;
	for (int i = 0; i < 5; i++)
		check_queue_run(st, i % 2 ? "copy" : "transpose", NULL);
	f.limit = 2;
	CHECK(wl_store_list_runs(st, &f, &runs, &more, &err) == 0, "%s", err.msg);
	CHECK(json_array_size(runs) == 2 && more, "a page of 2 with more");
	CHECK(json_integer_value(json_object_get(json_array_get(runs, 0), "id")) == 5, "newest first");
	json_decref(runs);
	f.before = 4;
	wl_store_list_runs(st, &f, &runs, &more, &err);
	CHECK(json_integer_value(json_object_get(json_array_get(runs, 0), "id")) == 3, "before=4 starts at 3");
	json_decref(runs);
	f.before = 2;
	wl_store_list_runs(st, &f, &runs, &more, &err);
	CHECK(json_array_size(runs) == 1 && !more, "last page");
	json_decref(runs);
	f.before = 0;
	f.limit = 10;
	f.experiment = "copy";
	wl_store_list_runs(st, &f, &runs, &more, &err);
	CHECK(json_array_size(runs) == 2, "filter by experiment: %zu", json_array_size(runs));
	json_decref(runs);
	f.experiment = NULL;
	f.status = "done";
	wl_store_list_runs(st, &f, &runs, &more, &err);
	CHECK(json_array_size(runs) == 0, "filter by status");
	json_decref(runs);
	wl_store_close(st);
}

void test_store_cancels_queued_and_running_runs(void)
{
	struct wl_store *st = check_fresh_store("cancel");
	const char *ids[] = { "cpu-0" };
	struct wl_claim_devices devs = { ids, 1, "cpu-0", NULL, "cpu-0", NULL, NULL };
	struct wl_error err;
	struct wl_claim c;
	long long runner, queued, running;
	int requested = 0;
	char s[32];

	if (!st)
		return;
	runner = check_add_runner(st, getpid(), "cpu-0", "cpu");
	running = check_queue_run(st, "copy", "cpu-0");
	queued = check_queue_run(st, "copy", "cpu-0");
	wl_store_claim_run(st, runner, &devs, &c, &err);
	wl_claim_free(&c);
	CHECK(wl_store_cancel_run(st, queued, &err) == 0, "%s", err.msg);
	CHECK(strcmp(status_of(st, queued, s, sizeof(s)), "cancelled") == 0, "queued: cancelled at once");
	CHECK(wl_store_cancel_run(st, running, &err) == 0, "%s", err.msg);
	CHECK(strcmp(status_of(st, running, s, sizeof(s)), "running") == 0, "running: still running");
	CHECK(wl_store_cancel_requested(st, running, &requested, &err) == 0 && requested,
	      "running: the runner is asked to stop");
	wl_store_finish_run(st, runner, running, "cancelled", "cancelled while running", &err);
	CHECK(wl_store_cancel_run(st, running, &err) < 0 && err.kind == WL_ERR_CONFLICT,
	      "finished: conflict");
	CHECK(wl_store_cancel_run(st, 1234, &err) < 0 && err.kind == WL_ERR_NOT_FOUND, "missing");
	wl_store_close(st);
}

void test_store_releases_a_run_whose_worker_died(void)
{
	struct wl_store *st = check_fresh_store("release");
	const char *ids[] = { "cpu-0" };
	struct wl_claim_devices devs = { ids, 1, "cpu-0", NULL, "cpu-0", NULL, NULL };
	struct wl_error err;
	struct wl_claim c;
	long long runner, id;
	int requeued = -1;
	char s[32];
	json_t *run = NULL;

	if (!st)
		return;
	runner = check_add_runner(st, getpid(), "cpu-0", "cpu");
	id = check_queue_run(st, "copy", "cpu-0");
	for (int attempt = 1; attempt <= 2; attempt++) {
		wl_store_claim_run(st, runner, &devs, &c, &err);
		CHECK(c.id == id && c.attempt == attempt, "attempt %d", attempt);
		wl_claim_free(&c);
		CHECK(wl_store_release_run(st, id, 2, "the worker died", &requeued, &err) == 0, "%s", err.msg);
		CHECK(requeued == (attempt < 2), "attempt %d: requeued %d", attempt, requeued);
	}
	CHECK(strcmp(status_of(st, id, s, sizeof(s)), "failed") == 0, "failed after 2 attempts");
	wl_store_get_run(st, id, 0, &run, &err);
	CHECK(strstr(json_string_value(json_object_get(run, "error")), "the worker died") != NULL,
	      "the reason: %s", json_string_value(json_object_get(run, "error")));
	json_decref(run);
	CHECK(wl_store_release_run(st, id, 2, "again", &requeued, &err) == 0 && !requeued,
	      "a run no longer running is left alone");
	/* A run that did not name its device goes back to any device, not the
	 * one it had (in a lab, that one's host may be the one that died). */
	{
		struct wl_new_run any = { "copy", NULL, "{}", "auto", NULL, 1, 100, NULL, 0 };
		long long free_run = 0;

		wl_store_insert_run(st, &any, &free_run, &err);
		wl_store_claim_run(st, runner, &devs, &c, &err);
		CHECK(c.id == free_run && c.device_id && strcmp(c.device_id, "cpu-0") == 0, "claimed on cpu-0");
		wl_claim_free(&c);
		wl_store_release_run(st, free_run, 2, "the host died", &requeued, &err);
		wl_store_get_run(st, free_run, 0, &run, &err);
		CHECK(requeued && json_is_null(json_object_get(run, "device")),
		      "requeued without its device: %s", json_dumps(json_object_get(run, "device"), JSON_ENCODE_ANY));
		json_decref(run);
	}
	wl_store_close(st);
}

/* The change numbers of the feed's rows after `after`, as "id:change,...". */
static void feed_text(struct wl_store *st, long long after, char *buf, size_t len, long long *last)
{
	struct wl_error err;
	json_t *rows = NULL, *row;
	size_t i, used = 0;

	buf[0] = '\0';
	CHECK(wl_store_changes(st, after, 100, &rows, last, &err) == 0, "%s", err.msg);
	json_array_foreach(rows, i, row)
		used += (size_t)snprintf(buf + used, len - used, "%s%lld:%s", i ? "," : "",
					 (long long)json_integer_value(json_object_get(row, "id")),
					 json_string_value(json_object_get(row, "status")));
	json_decref(rows);
}

void test_store_numbers_every_visible_change(void)
{
	struct wl_store *st = check_fresh_store("changes");
	const char *ids[] = { "cpu-0" };
	struct wl_claim_devices devs = { ids, 1, "cpu-0", NULL, "cpu-0", NULL, NULL };
	struct wl_result_row ok = { .variant = "naive", .params_json = "{\"n\":256}", .median_ms = 2.0,
				    .reps = 1, .bytes = 1024, .verified = 1 };
	struct wl_wakeup *watch = NULL;
	struct wl_error err;
	struct wl_claim c;
	long long runner, a, b, last = -1, before;
	char text[256];

	if (!st)
		return;
	CHECK(wl_wakeup_listen(target, WL_WAKE_WATCHERS, &watch, &err) == 0 && watch,
	      "a watcher can listen beside the store");
	feed_text(st, 0, text, sizeof(text), &last);
	CHECK(last == 0 && text[0] == '\0', "an empty store has no changes (last %lld)", last);
	runner = check_add_runner(st, getpid(), "cpu-0", "cpu");
	CHECK(wl_wakeup_wait(watch, CHECK_NO_WAKE_MS) == 0, "registering a runner changes no run: no wake-up");
	a = check_queue_run(st, "copy", "cpu-0");
	CHECK(wl_wakeup_wait(watch, CHECK_WAKE_MS) == 1, "a committed run wakes the watcher");
	b = check_queue_run(st, "copy", "cpu-0");
	feed_text(st, 0, text, sizeof(text), &last);
	CHECK(strcmp(text, "1:queued,2:queued") == 0 && last == 2, "two queued runs: %s (last %lld)", text, last);
	before = last;
	wl_store_claim_run(st, runner, &devs, &c, &err);
	wl_claim_free(&c);
	CHECK(wl_store_add_result(st, runner, a, &ok, &err) == 0, "%s", err.msg);
	CHECK(wl_wakeup_wait(watch, CHECK_WAKE_MS) == 1, "a result wakes the watcher");
	feed_text(st, before, text, sizeof(text), &last);
	CHECK(strcmp(text, "1:running") == 0 && last == 4,
	      "claimed and one result: run 1 once, at its latest change: %s (last %lld)", text, last);
	CHECK(wl_store_cancel_run(st, b, &err) == 0, "%s", err.msg);
	CHECK(wl_store_finish_run(st, runner, a, "done", NULL, &err) == 0, "%s", err.msg);
	feed_text(st, before, text, sizeof(text), &last);
	CHECK(strcmp(text, "2:cancelled,1:done") == 0, "in the order of their latest change: %s", text);
	feed_text(st, last, text, sizeof(text), &last);
	CHECK(text[0] == '\0', "nothing after the last change: %s", text);
	/* A change rolled back is not announced. */
	while (wl_wakeup_wait(watch, CHECK_NO_WAKE_MS))
		;	/* those of the changes above still on their way */
	CHECK(wl_store_cancel_run(st, a, &err) < 0 && err.kind == WL_ERR_CONFLICT, "finished");
	CHECK(wl_wakeup_wait(watch, CHECK_NO_WAKE_MS) == 0, "a refused cancel changes nothing and wakes no one");
	wl_wakeup_close(watch);
	wl_store_close(st);
}

/* The run's count per status, as wl_store_count_runs keeps it, against the
 * runs listed with that status. */
static void check_counts(struct wl_store *st, const char *when)
{
	static const char *const statuses[] = { "queued", "running", "done", "failed", "cancelled" };
	struct wl_error err;
	json_t *counts = NULL;

	CHECK(wl_store_count_runs(st, &counts, &err) == 0, "%s", err.msg);
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
		struct wl_run_filter f = { .limit = 200, .status = statuses[i] };
		json_t *runs = NULL;
		int more;

		CHECK(wl_store_list_runs(st, &f, &runs, &more, &err) == 0, "%s", err.msg);
		CHECK(json_integer_value(json_object_get(counts, statuses[i])) == (json_int_t)json_array_size(runs),
		      "%s: %s kept as %lld, listed %zu", when, statuses[i],
		      (long long)json_integer_value(json_object_get(counts, statuses[i])), json_array_size(runs));
		json_decref(runs);
	}
	json_decref(counts);
}

void test_store_keeps_run_totals_as_runs_change(void)
{
	struct wl_store *st = check_fresh_store("totals");
	const char *ids[] = { "cpu-0" };
	struct wl_claim_devices devs = { ids, 1, "cpu-0", NULL, "cpu-0", NULL, NULL };
	long long counts[WL_STORE_DURATION_BUCKETS], total = -1, runner, a, b;
	double sum = -1;
	struct wl_error err;
	struct wl_claim c;
	int requeued;

	if (!st)
		return;
	runner = check_add_runner(st, getpid(), "cpu-0", "cpu");
	CHECK(wl_store_run_durations(st, counts, &total, &sum, &err) == 0 && total == 0 && sum == 0,
	      "no finished run yet: %lld, %g", total, sum);
	a = check_queue_run(st, "copy", "cpu-0");
	b = check_queue_run(st, "copy", "cpu-0");
	check_queue_run(st, "copy", "cpu-0");
	check_counts(st, "three queued");
	wl_store_claim_run(st, runner, &devs, &c, &err);
	wl_claim_free(&c);
	check_counts(st, "one claimed");
	CHECK(wl_store_finish_run(st, runner, a, "done", NULL, &err) == 0, "%s", err.msg);
	CHECK(wl_store_cancel_run(st, b, &err) == 0, "%s", err.msg);
	check_counts(st, "one done, one cancelled");
	wl_store_claim_run(st, runner, &devs, &c, &err);
	CHECK(wl_store_release_run(st, c.id, 3, "died", &requeued, &err) == 0 && requeued, "%s", err.msg);
	wl_claim_free(&c);
	check_counts(st, "one requeued");
	CHECK(wl_store_run_durations(st, counts, &total, &sum, &err) == 0, "%s", err.msg);
	CHECK(total == 1 && sum >= 0 && sum < 60, "the done run, and only it, timed: %lld runs, %g s", total, sum);
	CHECK(counts[0] == 1 && counts[WL_STORE_DURATION_BUCKETS - 1] == 1,
	      "it took under a second: cumulative %lld .. %lld", counts[0], counts[WL_STORE_DURATION_BUCKETS - 1]);
	wl_store_close(st);
}

void test_store_finds_runs_by_any_part_of_their_label(void)
{
	static const char *const labels[] = { "Partition Camping 50%", "camping_2", "a \"quoted\" run",
					      "短い標签", NULL };
	static const struct {
		const char *text;
		const char *ids;	/* the runs found, newest first */
	} cases[] = {
		{ "camp", "2,1" },		/* through the trigram index */
		{ "CAMPING", "2,1" },		/* any case */
		{ "50%", "1" },			/* % is a character, not a wildcard */
		{ "g_2", "2" },			/* and so is _ */
		{ "_", "2" },			/* short: by reading the runs */
		{ "ng", "2,1" },
		{ "\"quoted\"", "3" },		/* quotes are characters too */
		{ "標签", "4" },		/* two characters, six bytes */
		{ "い標签", "4" },
		{ "xyz", "" },
	};
	struct wl_store *st = check_fresh_store("labels");
	struct wl_error err;

	if (!st)
		return;
	for (int i = 0; i <= 4; i++) {
		struct wl_new_run run = { "copy", labels[i], "{}", "auto", NULL, 1, 100, NULL, 0 };
		long long id;

		CHECK(wl_store_insert_run(st, &run, &id, &err) == 0, "%s", err.msg);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct wl_run_filter f = { .limit = 50, .label = cases[i].text };
		json_t *runs = NULL, *run;
		char seen[64] = "";
		size_t k, used = 0;
		int more;

		CHECK(wl_store_list_runs(st, &f, &runs, &more, &err) == 0, "%s: %s", cases[i].text, err.msg);
		json_array_foreach(runs, k, run)
			used += (size_t)snprintf(seen + used, sizeof(seen) - used, "%s%lld", k ? "," : "",
						 (long long)json_integer_value(json_object_get(run, "id")));
		CHECK(strcmp(seen, cases[i].ids) == 0, "label %s: runs %s, expected %s", cases[i].text, seen,
		      cases[i].ids);
		json_decref(runs);
	}
	wl_store_close(st);
}
