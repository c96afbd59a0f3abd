/* The copy ceiling (wl_store_copy_ceiling): the best verified built-in copy
 * over the device's last copy runs in the run's cache mode, as of the run's
 * end, on both engines. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "store.h"

static const char *const copies[] = { "float", "float2", "float4" };

/* A store with a runner and devices gpu-0 and gpu-1 for test name; NULL with
 * a failed CHECK. *runner is the runner's id. */
static struct wl_store *ceiling_store(const char *name, long long *runner)
{
	char path[300];
	struct wl_store *st = NULL;
	struct wl_error err;

	if (check_store_target(name, path, sizeof(path)) < 0 || wl_store_open(path, &st, &err) < 0) {
		CHECK(0, "%s", err.msg);
		return NULL;
	}
	wl_store_register_runner(st, "h", getpid(), "t", runner, &err);
	for (int d = 0; d < 2; d++) {
		json_t *info = json_pack("{s:s, s:s}", "id", d ? "gpu-1" : "gpu-0", "type", "gpu");

		wl_store_upsert_device(st, *runner, d, info, &err);
		json_decref(info);
	}
	return st;
}

/* A copy run on device of request (its cache mode in it) with rows, claimed,
 * measured and done; its id, or -1 with a failed CHECK. */
static long long copy_run(struct wl_store *st, long long runner, const char *device, const char *request,
			  const struct wl_result_row *rows, size_t n)
{
	const char *ids[] = { device };
	struct wl_claim_devices devs = { ids, 1, device, device, NULL, NULL, NULL };
	struct wl_new_run run = { "copy", NULL, request, device, device, (long long)n, 100, NULL, 0 };
	struct wl_error err;
	struct wl_claim c;
	long long id = -1;

	if (wl_store_insert_run(st, &run, &id, &err) < 0 || wl_store_claim_run(st, runner, &devs, &c, &err) < 0) {
		CHECK(0, "queue a copy run: %s", err.msg);
		return -1;
	}
	wl_claim_free(&c);
	for (size_t i = 0; i < n; i++)
		CHECK(wl_store_add_result(st, runner, id, &rows[i], &err) == 0, "%s", err.msg);
	CHECK(wl_store_finish_run(st, runner, id, "done", NULL, &err) == 0, "%s", err.msg);
	return id;
}

/* The ceiling's GB/s, run and mode into *gbps, *run and mode (0, 0 and ""
 * where there is none). */
static void ceiling_upto(struct wl_store *st, const char *device, const char *before, long long upto,
			 const char *cache, double *gbps, long long *run, char *mode, size_t len)
{
	struct wl_error err;
	json_t *c = NULL;

	CHECK(wl_store_copy_ceiling(st, device, before, upto, cache, copies, 3, &c, &err) == 0, "%s", err.msg);
	*gbps = json_real_value(json_object_get(c, "gbps"));
	*run = json_integer_value(json_object_get(c, "run"));
	snprintf(mode, len, "%s", c ? json_string_value(json_object_get(c, "cache")) : "");
	json_decref(c);
}

/* The same for any run's id. */
static void ceiling_of(struct wl_store *st, const char *device, const char *before, const char *cache, double *gbps,
		       long long *run, char *mode, size_t len)
{
	ceiling_upto(st, device, before, 0, cache, gbps, run, mode, len);
}

/* The time a run finished, as the store keeps it, into out. */
static void finished_at(struct wl_store *st, long long id, char *out, size_t len)
{
	struct wl_error err;
	json_t *run = NULL;

	CHECK(wl_store_get_run(st, id, 0, &run, &err) == 0, "%s", err.msg);
	snprintf(out, len, "%s", json_string_value(json_object_get(run, "finished_at")));
	json_decref(run);
}

static struct wl_result_row row(const char *variant, double ms, int verified)
{
	return (struct wl_result_row){ .variant = variant, .params_json = "{}", .median_ms = ms, .min_ms = ms,
				       .max_ms = ms, .reps = 1, .bytes = 2e9, .verified = verified };
}

void test_copy_ceiling_is_as_of_the_runs_end(void)
{
	long long runner, first;
	struct wl_store *st = ceiling_store("ceiling", &runner);
	/* 2e9 bytes in 1 ms is 2000 GB/s: the best verified built-in; the
	 * unverified float2 and the custom kernel "mine", both faster, never
	 * count. */
	const struct wl_result_row rows[] = { row("float", 2.0, 1), row("float4", 1.0, 1), row("float2", 0.1, 0),
					      row("mine", 0.5, 1) };
	const struct wl_result_row mine = row("mine", 0.5, 1);
	char mode[8], end[40];
	double gbps;
	long long run;

	if (!st)
		return;
	ceiling_of(st, "gpu-0", NULL, "hot", &gbps, &run, mode, sizeof(mode));
	CHECK(run == 0, "no copy run yet");
	first = copy_run(st, runner, "gpu-0", "{}", rows, 4);
	ceiling_of(st, "gpu-0", NULL, "hot", &gbps, &run, mode, sizeof(mode));
	CHECK(gbps == 2000.0 && run == first && strcmp(mode, "hot") == 0,
	      "the best verified built-in of run %lld: %g GB/s of run %lld (%s)", first, gbps, run, mode);
	/* A run that finished before any copy run has no ceiling, now or later. */
	ceiling_of(st, "gpu-0", "2000-01-01T00:00:00.000Z", "hot", &gbps, &run, mode, sizeof(mode));
	CHECK(run == 0, "nothing before 2000");
	finished_at(st, first, end, sizeof(end));
	/* A copy run of custom kernels alone is no copy ceiling. */
	copy_run(st, runner, "gpu-0", "{}", &mine, 1);
	ceiling_of(st, "gpu-0", NULL, "hot", &gbps, &run, mode, sizeof(mode));
	CHECK(run == first, "a run of custom kernels alone is no copy ceiling: run %lld", run);
	ceiling_of(st, "gpu-0", end, "hot", &gbps, &run, mode, sizeof(mode));
	CHECK(run == first, "as of the first run's end: run %lld", run);
	ceiling_of(st, "gpu-1", NULL, "hot", &gbps, &run, mode, sizeof(mode));
	CHECK(run == 0, "another device has its own ceiling");
	/* A faster copy of a later id — as runs merged in from another store
	 * take, whatever their end — is not the first run's. */
	{
		const struct wl_result_row faster = row("float4", 0.5, 1);
		long long later = copy_run(st, runner, "gpu-0", "{}", &faster, 1);

		ceiling_of(st, "gpu-0", NULL, "hot", &gbps, &run, mode, sizeof(mode));
		CHECK(run == later && gbps == 4000.0, "the faster one is the ceiling now: run %lld", run);
		ceiling_upto(st, "gpu-0", NULL, first, "hot", &gbps, &run, mode, sizeof(mode));
		CHECK(run == first && gbps == 2000.0, "but not of run %lld, whose id is before it: run %lld", first, run);
	}
	wl_store_close(st);
}

/* Each step queues a copy run (its request, a variant and its ms; none
 * where variant is NULL) on gpu-0, then asks the ceiling in mode ask, now or
 * as of the end of step as_of's run: the run it comes from (by step, 0 for
 * none), its GB/s and its mode. */
struct ceiling_step {
	const char *request, *variant;
	double ms;
	const char *ask;
	int from;
	double gbps;
	const char *mode;
	int as_of;
	const char *what;
};

void test_copy_ceiling_is_the_best_recent_copy_of_the_runs_cache_mode(void)
{
	static const char hot[] = "{\"cache\":\"hot\"}", cold[] = "{\"cache\":\"cold\"}";
	static const struct ceiling_step steps[] = {
		{ hot, "float4", 1.0, "hot", 1, 2000, "hot", 0, "a fast hot copy" },
		{ hot, "float", 4.0, "hot", 1, 2000, "hot", 0, "a slow copy after a fast one does not lower it" },
		{ "{}", "float", 8.0, "hot", 1, 2000, "hot", 0, "a request without cache timed hot" },
		{ hot, NULL, 0, "cold", 1, 2000, "hot", 0, "a cold run without cold copies takes the hot ones" },
		{ cold, "float2", 0.25, "hot", 1, 2000, "hot", 0, "a faster cold copy does not set the hot ceiling" },
		{ cold, NULL, 0, "cold", 5, 8000, "cold", 0, "it sets the cold one" },
		{ cold, NULL, 0, "cold", 1, 2000, "hot", 3, "a cold run that ended before it kept the hot one" },
		{ hot, "float", 2.0, "hot", 1, 2000, "hot", 0, "three hot copies since the fast one: among the last five" },
		{ hot, "float", 2.0, "hot", 1, 2000, "hot", 0, "four since: the oldest of the last five" },
		{ hot, "float", 2.0, "hot", 10, 1000, "hot", 0,
		  "five since: past the window; the best of the last five, the latest of equals" },
		{ hot, NULL, 0, "hot", 1, 2000, "hot", 2, "a run that ended before them still sees the fast one" },
	};
	const size_t n = sizeof(steps) / sizeof(steps[0]);
	long long runner, ids[16] = { 0 };
	char ends[16][40], mode[8];
	struct wl_store *st = ceiling_store("ceiling_recent", &runner);
	double gbps;
	long long run;

	if (!st)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct ceiling_step *s = &steps[i];
		const struct wl_result_row r = row(s->variant ? s->variant : "", s->ms, 1);

		ends[i + 1][0] = '\0';
		if (s->variant) {
			ids[i + 1] = copy_run(st, runner, "gpu-0", s->request, &r, 1);
			finished_at(st, ids[i + 1], ends[i + 1], sizeof(ends[i + 1]));
		}
		ceiling_of(st, "gpu-0", s->as_of ? ends[s->as_of] : NULL, s->ask, &gbps, &run, mode, sizeof(mode));
		CHECK(run == ids[s->from] && gbps == s->gbps && strcmp(mode, s->mode) == 0,
		      "step %zu (%s): expected run %lld, %g GB/s, %s; got run %lld, %g GB/s, %s", i + 1, s->what,
		      ids[s->from], s->gbps, s->mode, run, gbps, mode);
	}
	ceiling_of(st, "gpu-1", NULL, "cold", &gbps, &run, mode, sizeof(mode));
	CHECK(run == 0, "another device has its own ceiling");
	wl_store_close(st);
}
