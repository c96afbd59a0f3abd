/* The prediction memo and an experiment of the run's own: the asker's
 * reading of the definition ends with its request, while the memo's thread
 * predicts later; the memo reads its own copy of the definition again, so
 * the jobs never touch what the asker freed (the sanitizers would say), and
 * two definitions under one id do not share predictions. */
#include <string.h>

#include "catalog_load.h"
#include "check.h"
#include "prediction_memo.h"

#define POINTS 96

/* A naive transpose of one's own whose one variant declares its accesses;
 * its store's index is as given. */
static json_t *definition(const char *store_index)
{
	return json_pack("{s:s, s:s, s:s, s:[{s:s, s:s, s:i, s:i, s:i}], s:[{s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, s:b}],"
			 " s:{s:[s, s], s:[s, s], s:[s, s, s]}, s:s, s:[{s:s, s:s, s:{s:[{s:s, s:s, s:s, s:i, s:s}, {s:s, s:s, s:s, s:i, s:s}]}}]}",
			 "id", "mine", "title", "a transpose of one's own", "source", "__kernel void t(uint n, __global const float *a, __global float *b) { }",
			 "params", "name", "n", "type", "int", "min", 16, "max", 65536, "default", 256,
			 "buffers", "name", "a", "type", "float", "count", "n*n", "init", "random", "name", "b", "type",
			 "float", "count", "n*n", "output", 1,
			 "host", "global", "n", "n", "local", "16", "16", "args", "n", "a", "b",
			 "check", "none", "variants", "id", "naive", "kernel", "t", "model", "accesses", "array", "a", "space", "global", "op",
			 "load", "bytes", 4, "index", "gid1*n + gid0", "array", "b", "space", "global", "op", "store", "bytes",
			 4, "index", store_index);
}

/* Ask the memo for the naive variant of def at n = 16, 32, ... (POINTS of
 * them), waiting wait_ms; the experiment read for asking is freed before
 * the return. How many came back done, and the first's sectors. */
static size_t ask_all(json_t *def, long wait_ms, double *sectors, struct wl_error *err)
{
	struct wl_experiment own;
	struct wl_memo_ask asks[POINTS];
	long long values[POINTS];
	size_t done = 0;

	memset(asks, 0, sizeof(asks));
	if (wl_experiment_load_own(def, &own, err) < 0)
		return 0;
	for (size_t i = 0; i < POINTS; i++) {
		values[i] = 16 * (long long)(i + 1);
		asks[i] = (struct wl_memo_ask){ .exp = &own, .model = own.variants[0].model, .variant = "naive",
						.definition = def, .values = &values[i], .lanes = 32 };
		wl_memo_ask_set(&asks[i]);
	}
	wl_memo_lookup(asks, POINTS, wait_ms);
	wl_experiment_clear(&own);
	for (size_t i = 0; i < POINTS; i++)
		done += asks[i].state == WL_MEMO_DONE;
	*sectors = asks[0].state == WL_MEMO_DONE ? asks[0].p.sectors_per_request : -1;
	return done;
}

void test_memo_reads_an_own_experiment_again(void)
{
	json_t *strided = definition("gid0*n + gid1"), *coalesced = definition("gid1*n + gid0");
	struct wl_error err;
	double sectors = 0, again = 0;
	size_t done;

	wl_error_clear(&err);
	/* Asked without waiting: the asker's experiment is freed while the
	 * jobs are still queued. */
	ask_all(strided, 0, &sectors, &err);
	done = ask_all(strided, 20000, &sectors, &err);
	CHECK(done == POINTS, "every prediction made from the memo's own copy: %zu of %d (%s)", done, POINTS, err.msg);
	/* The same id and variant, another store index: its own predictions. */
	ask_all(coalesced, 20000, &again, &err);
	CHECK(sectors > again && again > 0, "a store down the columns moves more sectors than one along the rows: %g against %g",
	      sectors, again);
	wl_memo_stop();
	json_decref(strided);
	json_decref(coalesced);
}
