/* Importing into a store that already holds runs (store.h, wl_store_import_*
 * with merge): the import map of ids (id_map.h) row by row, and a merge of
 * the recorded H100 runs into a store holding the compare fixture's, on
 * SQLite and on PostgreSQL: new ids, every run reading as it does restored
 * alone, what was there kept once, and a bad record leaving nothing. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "id_map.h"
#include "store.h"
#include "store_check.h"

/* One step on a map: put (from -> to) expecting its return, or get from
 * expecting found (and to when found). */
struct map_step {
	char op;	/* 'p' put, 'g' get */
	long long from, to;
	int expect;
};

void test_id_map_maps_each_id_once(void)
{
	static const struct map_step steps[] = {
		{ 'g', 1, 0, 0 },		/* empty: nothing found */
		{ 'p', 1, 4, 0 },
		{ 'p', 2, 5, 0 },
		{ 'g', 1, 4, 1 },
		{ 'g', 2, 5, 1 },
		{ 'g', 3, 0, 0 },
		{ 'p', 1, 9, 1 },		/* twice: refused, the first stands */
		{ 'g', 1, 4, 1 },
		{ 'p', 0, 7, 0 },		/* zero and negatives are ids like any */
		{ 'p', -1, 8, 0 },
		{ 'g', 0, 7, 1 },
		{ 'g', -1, 8, 1 },
		{ 'p', LLONG_MAX, 1, 0 },
		{ 'p', LLONG_MIN, 2, 0 },
		{ 'g', LLONG_MAX, 1, 1 },
		{ 'g', LLONG_MIN, 2, 1 },
	};
	struct wl_id_map m = { 0 };
	long long to;
	int ok = 1;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		const struct map_step *s = &steps[i];

		to = -12345;
		if (s->op == 'p') {
			int got = wl_id_map_put(&m, s->from, s->to);

			CHECK(got == s->expect, "row %zu: put %lld -> %lld returned %d, expected %d", i, s->from,
			      s->to, got, s->expect);
		} else {
			int got = wl_id_map_get(&m, s->from, &to);

			CHECK(got == s->expect && (!got || to == s->to), "row %zu: get %lld: %d (%lld), expected %d (%lld)",
			      i, s->from, got, to, s->expect, s->to);
		}
	}
	/* Many ids, in an order that is neither rising nor falling: the table
	 * grows and keeps every one. */
	for (long long k = 0; k < 100000 && ok; k++)
		ok = wl_id_map_put(&m, (k * 7919) % 100003 + 1000, k) == 0;
	CHECK(ok, "100000 puts");
	for (long long k = 0; k < 100000 && ok; k++)
		ok = wl_id_map_get(&m, (k * 7919) % 100003 + 1000, &to) == 1 && to == k;
	CHECK(ok, "every one of 100000 found again");
	CHECK(m.count == 100006, "count %zu", m.count);
	wl_id_map_free(&m);
	CHECK(wl_id_map_get(&m, 1, &to) == 0 && m.count == 0, "freed: empty");
	CHECK(wl_id_map_put(&m, 1, 2) == 0 && wl_id_map_get(&m, 1, &to) == 1 && to == 2, "usable again");
	wl_id_map_free(&m);
}

/* Import one record, given as JSON text. */
static int import_line(struct wl_store_import *im, const char *text, struct wl_error *err)
{
	json_t *record = json_loads(text, 0, NULL);
	int rc = record ? wl_store_import_row(im, record, err) : -1;

	if (!record)
		wl_error_set(err, WL_ERR_BAD_JSON, "not JSON: %.60s", text);
	json_decref(record);
	return rc;
}

/* Import the JSON lines of path into st (merge as asked), then a last record
 * when extra is not NULL; end or abort as the records allow. 0, or -1 with
 * err set (nothing kept). */
static int import_file(struct wl_store *st, const char *path, int merge, const char *extra,
		       struct wl_store_import_summary *sum, struct wl_error *err)
{
	FILE *f = fopen(path, "r");
	struct wl_store_import *im = NULL;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!f) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot open %s", path);
		return -1;
	}
	if (wl_store_import_begin(st, merge, &im, err) < 0) {
		fclose(f);
		return -1;
	}
	while (rc == 0 && getline(&line, &cap, f) > 0)
		rc = import_line(im, line, err);
	if (rc == 0 && extra)
		rc = import_line(im, extra, err);
	free(line);
	fclose(f);
	if (rc < 0) {
		wl_store_import_abort(im);
		return -1;
	}
	return wl_store_import_end(im, sum, err);
}

/* Count each record of a store walk by its table into ctx (a JSON object). */
static int count_rows(void *ctx, json_t *record, struct wl_error *err)
{
	const char *table = json_string_value(json_object_get(record, "table"));

	(void)err;
	json_object_set_new(ctx, table, json_integer(json_integer_value(json_object_get(ctx, table)) + 1));
	return 0;
}

/* Run id as the API reads it from st, with its builds and samples, less its
 * id and URL (which a merge changes); NULL with a failed CHECK. */
static json_t *read_run(struct wl_store *st, long long id)
{
	json_t *run = NULL, *builds = NULL, *samples = NULL;
	struct wl_error err;

	CHECK(wl_store_get_run(st, id, 1, &run, &err) == 0, "run %lld: %s", id, err.msg);
	CHECK(wl_store_get_builds(st, id, 1, &builds, &err) == 0, "run %lld's builds: %s", id, err.msg);
	CHECK(wl_store_get_samples(st, id, &samples, &err) == 0, "run %lld's samples: %s", id, err.msg);
	if (!run || !builds || !samples) {
		json_decref(run);
		json_decref(builds);
		json_decref(samples);
		return NULL;
	}
	json_object_del(run, "id");
	json_object_del(run, "url");
	json_object_del(samples, "run");
	json_object_set_new(run, "builds", builds);
	json_object_set_new(run, "samples", samples);
	return run;
}

/* Whether run id_a of a reads as run id_b of b does. */
static int reads_alike(struct wl_store *a, long long id_a, struct wl_store *b, long long id_b)
{
	json_t *x = read_run(a, id_a), *y = read_run(b, id_b);
	int same = x && y && json_equal(x, y);

	if (x && y && !same) {
		char *tx = json_dumps(x, JSON_COMPACT | JSON_SORT_KEYS), *ty = json_dumps(y, JSON_COMPACT | JSON_SORT_KEYS);

		fprintf(stderr, "    run %lld: %s\n    run %lld: %s\n", id_a, tx, id_b, ty);
		free(tx);
		free(ty);
	}
	json_decref(x);
	json_decref(y);
	return same;
}

#define COMPARE "tests/fixtures/compare-runs.jsonl"
#define H100 "tests/fixtures/h100-compiler-runs.jsonl"

/* A restore of each fixture alone, as the runs should read after the merge. */
static void check_merged_runs(struct wl_store *st)
{
	struct wl_store *compare = check_fresh_store("merge-compare"), *h100 = check_fresh_store("merge-h100");
	struct wl_error err;
	json_t *changed = NULL;
	long long last = 0;

	if (compare && h100) {
		CHECK(import_file(compare, COMPARE, 0, NULL, NULL, &err) == 0, "%s", err.msg);
		CHECK(import_file(h100, H100, 0, NULL, NULL, &err) == 0, "%s", err.msg);
		for (long long id = 1; id <= 3; id++)
			CHECK(reads_alike(st, id, compare, id), "run %lld there before reads as it did", id);
		for (long long id = 1; id <= 2; id++)
			CHECK(reads_alike(st, id + 3, h100, id), "imported run %lld reads as run %lld restored", id + 3,
			      id);
	}
	/* Live streams see the imported runs as changes after the last one. */
	CHECK(wl_store_changes(st, 3, 10, &changed, &last, &err) == 0, "%s", err.msg);
	CHECK(json_array_size(changed) == 2 &&
	      json_integer_value(json_object_get(json_array_get(changed, 0), "id")) == 4 &&
	      json_integer_value(json_object_get(json_array_get(changed, 1), "id")) == 5 && last == 5,
	      "changes after 3: %zu runs, last %lld", json_array_size(changed), last);
	json_decref(changed);
	wl_store_close(compare);
	wl_store_close(h100);
}

/* A record that ends a merge of the H100 file, the field it is refused by,
 * and what the message says. */
struct refusal {
	const char *record, *field, *says;
};

static const struct refusal refusals[] = {
	{ "{\"table\":\"runz\",\"row\":{}}", "table",
	  "one of runners, devices, sources, runs, results, traces, builds, run_builds" },
	{ "{\"table\":\"runs\"}", "table", "got table runs without a row" },
	{ "{\"table\":\"runs\",\"row\":{\"colour\":1}}", "colour", "table runs has no column colour" },
	{ "{\"table\":\"runs\",\"row\":{\"id\":\"seven\"}}", "id",
	  "each run needs its id, a number, for the records that name it (got \"seven\")" },
	{ "{\"table\":\"runs\",\"row\":{\"id\":2}}", "id", "run 2 is in this import twice" },
	{ "{\"table\":\"traces\",\"row\":{\"run_id\":42,\"variant\":\"v\"}}", "run_id",
	  "run 42 is not among the runs this import has read so far" },
	{ "{\"table\":\"devices\",\"row\":{\"id\":\"d\",\"runner_id\":9}}", "runner_id",
	  "runner 9 is not among the runners this import has read so far" },
	{ "{\"table\":\"results\",\"row\":{\"run_id\":1,\"seq\":99,\"reps\":\"three\"}}", "reps",
	  "column reps: not a number (got \"three\")" },
	{ "{\"table\":\"results\",\"row\":{\"run_id\":1,\"samples\":[0.5,\"a\"]}}", "samples",
	  "column samples: not a list of numbers (got \"a\")" },
};

void test_store_merges_an_import_under_new_ids(void)
{
	struct wl_store *st = check_fresh_store("merge");
	struct wl_store_import_summary sum = { 0 };
	struct wl_error err;
	json_t *before = json_object(), *after = json_object();
	long long id = 0;

	if (!st) {
		json_decref(before);
		json_decref(after);
		return;
	}
	/* Into an empty store a merge is a restore: the ids are kept. */
	CHECK(import_file(st, COMPARE, 1, NULL, &sum, &err) == 0, "%s", err.msg);
	CHECK(!sum.merged && sum.runs == 3 && sum.first_id == 1 && sum.last_id == 3, "restored 1..3: %d %lld %lld..%lld",
	      sum.merged, sum.runs, sum.first_id, sum.last_id);
	CHECK(import_file(st, H100, 0, NULL, NULL, &err) < 0 && err.kind == WL_ERR_CONFLICT &&
	      strstr(err.msg, "not empty"), "without merge a store with runs is refused: %s", err.msg);
	memset(&sum, 0, sizeof(sum));
	CHECK(import_file(st, H100, 1, NULL, &sum, &err) == 0, "%s", err.msg);
	CHECK(sum.merged && sum.runs_before == 3 && sum.runs == 2 && sum.first_id == 4 && sum.last_id == 5 &&
	      sum.first_old == 1 && sum.last_old == 2 && sum.in_order,
	      "runs 1..2 as 4..5: %d %lld %lld %lld..%lld from %lld..%lld", sum.merged, sum.runs_before,
	      sum.runs, sum.first_id, sum.last_id, sum.first_old, sum.last_old);
	/* The kernel source both labs built is kept once; the rest is new. */
	CHECK(sum.kept_runners == 0 && sum.kept_devices == 0 && sum.kept_sources == 1 && sum.kept_builds == 0,
	      "kept %lld runners, %lld devices, %lld sources, %lld builds", sum.kept_runners, sum.kept_devices,
	      sum.kept_sources, sum.kept_builds);
	check_merged_runs(st);

	/* The same file again: its runs again, under new ids, and nothing else
	 * twice (the same runner process, device, sources and builds). */
	memset(&sum, 0, sizeof(sum));
	CHECK(import_file(st, H100, 1, NULL, &sum, &err) == 0, "%s", err.msg);
	CHECK(sum.first_id == 6 && sum.last_id == 7 && sum.kept_runners == 1 && sum.kept_devices == 1 &&
	      sum.kept_sources == 2 && sum.kept_builds == 3, "again as 6..7, all else kept: %lld..%lld, %lld %lld %lld %lld",
	      sum.first_id, sum.last_id, sum.kept_runners, sum.kept_devices, sum.kept_sources, sum.kept_builds);

	/* A bad record after good ones: refused by name, nothing kept. */
	CHECK(wl_store_each_row(st, count_rows, before, &err) == 0, "%s", err.msg);
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];

		wl_error_clear(&err);
		CHECK(import_file(st, H100, 1, r->record, NULL, &err) < 0 && err.kind == WL_ERR_INVALID_FIELD &&
		      strcmp(err.field, r->field) == 0 && strstr(err.msg, r->says),
		      "%s: expected field %s saying \"%s\", got field %s: %s", r->record, r->field, r->says,
		      err.field, err.msg);
	}
	CHECK(wl_store_each_row(st, count_rows, after, &err) == 0 && json_equal(before, after),
	      "the store is as it was");
	/* And the next run queued takes an id no run has (PostgreSQL's sequence
	 * keeps those the failed import took, so it may skip some). */
	id = check_queue_run(st, "copy", NULL);
	CHECK(check_store_pg ? id >= 8 : id == 8, "next id 8 or above, got %lld", id);
	json_decref(before);
	json_decref(after);
	wl_store_close(st);
}
