/* Settled counters into the store (see counts_write.h). */
#include "counts_write.h"

#include <stdlib.h>

#include "backend.h"
#include "device.h"
#include "log.h"

/* Runs written in one call: each its profiling time. */
struct run_share {
	long long run_id;
	double ms;
};

/* Add ms to run_id's share in shares (n of them, room for one more). */
static void add_share(struct run_share *shares, size_t *n, long long run_id, double ms)
{
	for (size_t i = 0; i < *n; i++)
		if (shares[i].run_id == run_id) {
			shares[i].ms += ms;
			return;
		}
	shares[(*n)++] = (struct run_share){ run_id, ms };
}

int wl_counts_write(struct wl_store *st, struct wl_device *dev, long long current_run, int traces_follow,
		    struct wl_error *err)
{
	const struct wl_backend *be = dev ? wl_device_deferring(dev) : NULL;
	const struct wl_counted *settled = NULL;
	size_t n = be ? be->deferred->settled(dev, &settled) : 0, nruns = 0;
	struct wl_result_extra *rows;
	struct run_share *runs;
	int rc = -1;

	if (n == 0)
		return 0;
	rows = calloc(n, sizeof(*rows));
	runs = calloc(n, sizeof(*runs));
	if (!rows || !runs) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i] = (struct wl_result_extra){ settled[i].run_id, settled[i].seq, settled[i].extra };
		add_share(runs, &nruns, settled[i].run_id, settled[i].ms);
	}
	if (wl_store_set_result_extras(st, rows, n, err) < 0)
		goto out;
	be->deferred->forget(dev, n);
	rc = 0;
	/* The run being measured says what is coming when it finishes. */
	for (size_t i = 0; i < nruns && rc == 0; i++) {
		const char *state = be->deferred->waiting(dev, runs[i].run_id) || traces_follow ? "pending" : "done";

		if (runs[i].run_id == current_run)
			continue;
		rc = wl_store_set_explain(st, runs[i].run_id, state, runs[i].ms, err);
		if (rc == 0 && state[0] == 'd')
			wl_log_info("run %lld: counters written", runs[i].run_id);
	}
out:
	free(rows);
	free(runs);
	return rc;
}
