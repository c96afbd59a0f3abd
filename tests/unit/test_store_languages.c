/* The claim and the run's language: a worker takes only runs in a language
 * its device runs, so that a CUDA run never fails on a device without CUDA
 * while another could run it; on a real store. */
#include <unistd.h>

#include "check.h"
#include "store.h"
#include "store_check.h"

/* A run in a language a worker's device does not run is not that worker's
 * to claim: it waits, in its place in the queue, for one that runs it. */
void test_store_claims_only_runs_in_its_languages(void)
{
	struct wl_store *st = check_fresh_store("claim_languages");
	struct wl_error err;
	struct wl_claim c;
	const char *ids[] = { "gpu-0" };
	struct wl_claim_devices opencl = { ids, 1, "gpu-0", "gpu-0", NULL, NULL, NULL };
	struct wl_claim_devices both = { ids, 1, "gpu-0", "gpu-0", NULL, ",opencl,cuda,", NULL };
	struct wl_new_run run = { .experiment = "copy", .request_json = "{\"language\":\"cuda\"}", .device_req = "gpu",
				  .language = "cuda", .total = 1, .queue_limit = 1000 };
	long long runner, cuda = 0, plain;
	int waiting = 1;

	if (!st)
		return;
	runner = check_add_runner(st, getpid(), "gpu-0", "gpu");
	CHECK(wl_store_insert_run(st, &run, &cuda, &err) == 0, "insert: %s", err.msg);
	CHECK(wl_store_run_waiting(st, &opencl, &waiting, &err) == 0 && !waiting, "nothing waits for OpenCL alone");
	plain = check_queue_run(st, "copy", NULL);
	CHECK(wl_store_claim_run(st, runner, &opencl, &c, &err) == 0 && c.id == plain,
	      "an OpenCL-only device passes the older CUDA run by: claimed %lld, not %lld", c.id, cuda);
	wl_claim_free(&c);
	CHECK(wl_store_claim_run(st, runner, &opencl, &c, &err) == 0 && c.id == 0, "and never takes it (%lld)", c.id);
	CHECK(wl_store_run_waiting(st, &both, &waiting, &err) == 0 && waiting, "it waits for a device that runs CUDA");
	CHECK(wl_store_claim_run(st, runner, &both, &c, &err) == 0 && c.id == cuda, "which claims it: %lld", c.id);
	wl_claim_free(&c);
	wl_store_close(st);
}
