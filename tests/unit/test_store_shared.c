/* A shared run on a real store: the device that claims a tuning run opens
 * its points, an idle device of the same model joins it, each point is
 * taken once, only a device holding a point writes beside the run's own,
 * and a device that dies or a runner that is gone gives its points back. */
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "store.h"
#include "store_check.h"

/* A result of one variant at point p, measured on device. */
static int add_point_result(struct wl_store *st, long long runner, long long run, long long p, const char *device,
			    struct wl_error *err)
{
	struct wl_result_row row = { .variant = "v", .params_json = "{}", .median_ms = 1, .min_ms = 1, .max_ms = 1,
				     .reps = 1, .verified = 1, .seq = p + 1, .device_id = device };

	return wl_store_add_result(st, runner, run, &row, err);
}

/* Who measured each result of run, in its order, as "runner@seq,...", and
 * the run's progress. */
static void measured_by(struct wl_store *st, long long run, long long a, char *out, size_t len, long long *done)
{
	json_t *got = NULL, *r;
	struct wl_error err;
	size_t i, used = 0;

	out[0] = '\0';
	*done = -1;
	if (wl_store_get_run(st, run, 1, &got, &err) < 0)
		return;
	*done = (long long)json_integer_value(json_object_get(json_object_get(got, "progress"), "done"));
	json_array_foreach(json_object_get(got, "results"), i, r)
		used += (size_t)snprintf(out + used, len - used, "%s%s@%lld", i ? "," : "",
					 json_integer_value(json_object_get(r, "runner_id")) == a ? "a" : "b",
					 (long long)json_integer_value(json_object_get(r, "seq")));
	json_decref(got);
}

void test_store_shares_a_run_point_by_point(void)
{
	struct wl_store *st = check_fresh_store("shared");
	struct wl_error err;
	struct wl_claim c, joined, none;
	const char *a_ids[] = { "gpu-a" }, *b_ids[] = { "gpu-b" }, *c_ids[] = { "gpu-c" };
	struct wl_claim_devices a_devs = { .ids = a_ids, .nids = 1, .gpu_id = "gpu-a", .model = "H200" };
	struct wl_claim_devices b_devs = { .ids = b_ids, .nids = 1, .gpu_id = "gpu-b", .model = "H200" };
	struct wl_claim_devices other = { .ids = c_ids, .nids = 1, .gpu_id = "gpu-c", .model = "H100" };
	struct wl_new_run run = { .experiment = "transpose", .request_json = "{}", .device_req = "gpu", .total = 3,
				  .queue_limit = 1000, .shared = 1 };
	long long a, b, id = 0, p = -1, q = -1, none_left = 0, free_points = -1, busy = -1, done = -1;
	int running = 0, helper = -1, requeued = 0, failed = 0;
	char who[128];

	if (!st)
		return;
	a = check_add_runner(st, getpid(), "gpu-a", "gpu");
	b = check_add_runner(st, getpid(), "gpu-b", "gpu");
	CHECK(wl_store_insert_run(st, &run, &id, &err) == 0, "insert: %s", err.msg);
	CHECK(wl_store_claim_run(st, a, &a_devs, &c, &err) == 0 && c.id == id && c.shared && !c.helper,
	      "the first device claims the run as shared: %lld", c.id);
	CHECK(wl_store_join_run(st, "gpu-b", &b_devs, &joined, &err) == 0 && joined.id == 0,
	      "nothing to join before its points are open: %lld", joined.id);
	CHECK(wl_store_open_points(st, id, 3, 1, &err) == 0, "open: %s", err.msg);
	CHECK(wl_store_join_run(st, "gpu-a", &a_devs, &none, &err) == 0 && none.id == 0, "its own device does not join it");
	CHECK(wl_store_join_run(st, "gpu-c", &other, &none, &err) == 0 && none.id == 0, "nor a device of another model");
	CHECK(wl_store_join_run(st, "gpu-b", &b_devs, &joined, &err) == 0 && joined.id == id && joined.helper &&
		      strcmp(joined.device_id, "gpu-b") == 0,
	      "an idle device of its model joins it: %lld", joined.id);

	/* Each point once, to whoever asks first: the run's own device from
	 * the start, one that joined from the end. */
	CHECK(wl_store_take_point(st, a, id, "gpu-a", 0, &p, &err) == 0 && p == 0, "a takes point 0: %lld", p);
	CHECK(wl_store_take_point(st, b, id, "gpu-b", 1, &q, &err) == 0 && q == 2, "b takes point 2: %lld", q);
	CHECK(add_point_result(st, b, id, q, "gpu-b", &err) == 0, "b writes its point: %s", err.msg);
	CHECK(wl_store_point_measured(st, id, q, "gpu-b", &err) == 0, "%s", err.msg);
	CHECK(add_point_result(st, b, id, 1, "gpu-b", &err) < 0 && err.kind == WL_ERR_CONFLICT,
	      "and nothing more once it holds no point: %s", err.msg);

	/* b takes the point left and dies: it goes back, and a takes it. */
	CHECK(wl_store_take_point(st, b, id, "gpu-b", 1, &q, &err) == 0 && q == 1, "b takes point 1: %lld", q);
	CHECK(wl_store_take_point(st, a, id, "gpu-a", 0, &none_left, &err) == 0 && none_left == -1,
	      "none is left for a: %lld", none_left);
	CHECK(wl_store_points_left(st, id, &free_points, &busy, &running, &err) == 0 && free_points == 0 && busy == 2 &&
		      running,
	      "0 free and 2 being measured: %lld, %lld", free_points, busy);
	CHECK(add_point_result(st, b, id, q, "gpu-b", &err) == 0, "b writes part of point 1: %s", err.msg);
	CHECK(wl_store_release_points(st, id, "gpu-b", &helper, &err) == 0 && helper == 1,
	      "b's points go back, and the run is not b's to settle: %d", helper);
	CHECK(wl_store_take_point(st, a, id, "gpu-a", 0, &q, &err) == 0 && q == 1, "a takes point 1 back: %lld", q);
	CHECK(add_point_result(st, a, id, q, "gpu-a", &err) == 0, "what b wrote of it is gone: %s", err.msg);
	CHECK(add_point_result(st, a, id, p, "gpu-a", &err) == 0, "%s", err.msg);
	CHECK(wl_store_point_measured(st, id, p, "gpu-a", &err) == 0 && wl_store_point_measured(st, id, q, "gpu-a", &err) == 0,
	      "%s", err.msg);
	CHECK(wl_store_release_points(st, id, "gpu-a", &helper, &err) == 0 && helper == 0, "a holds the run itself");
	measured_by(st, id, a, who, sizeof(who), &done);
	CHECK(strcmp(who, "a@1,a@2,b@3") == 0, "the results in the points' order, each with who measured it: %s", who);
	CHECK(done == 3, "progress counts each once: %lld", done);

	/* A runner gone while it measures a point gives it back too. */
	CHECK(wl_store_open_points(st, id, 2, 1, &err) == 0, "open again: %s", err.msg);
	CHECK(wl_store_take_point(st, b, id, "gpu-b", 0, &q, &err) == 0 && q == 0, "b takes point 0: %lld", q);
	CHECK(wl_store_runner_stopped(st, b, &err) == 0, "%s", err.msg);
	CHECK(wl_store_recover(st, a, "testhost", 3600, 3, &requeued, &failed, &err) == 0 && !requeued && !failed,
	      "the run stays a's: %s", err.msg);
	CHECK(wl_store_take_point(st, a, id, "gpu-a", 0, &q, &err) == 0 && q == 0, "a takes the point b left: %lld", q);

	/* A requeue drops the points with the results. */
	CHECK(wl_store_requeue_run(st, a, id, &err) == 0, "%s", err.msg);
	CHECK(wl_store_points_left(st, id, &free_points, &busy, &running, &err) == 0 && free_points == 0 && busy == 0 &&
		      !running,
	      "no points left after a requeue: %lld, %lld", free_points, busy);
	wl_claim_free(&c);
	wl_claim_free(&joined);
	wl_store_close(st);
}
