/* Counted beside predicted (see counted_view.h). */
#include "counted_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* The per-request figure of the prediction's accesses in space and op:
 * requests-weighted mean of field, or -1 where none makes requests. */
static double predicted(const json_t *accesses, const char *space, const char *op, const char *field)
{
	double requests = 0, sum = 0;
	size_t i;
	json_t *a;

	json_array_foreach(accesses, i, a) {
		double r = num(a, "requests");

		if (strcmp(json_string_value(json_object_get(a, "space")) ?: "", space) != 0 ||
		    strcmp(json_string_value(json_object_get(a, "op")) ?: "", op) != 0 || r <= 0 ||
		    !json_is_number(json_object_get(a, field)))
			continue;
		requests += r;
		sum += r * num(a, field);
	}
	return requests > 0 ? sum / requests : -1;
}

static json_t *real_or_null(double v)
{
	return v >= 0 && isfinite(v) ? json_real(v) : json_null();
}

/* counted against predicted for what, into differs where they disagree. */
static void compare(json_t *differs, const char *what, double counted, double want)
{
	char text[200];

	if (counted < 0 || want <= 0 || (counted <= want * WL_COUNTED_AGREE && counted * WL_COUNTED_AGREE >= want))
		return;
	snprintf(text, sizeof(text), "%s: counted %.3g, predicted %.3g — the model's error, not the hardware's", what,
		 counted, want);
	json_array_append_new(differs, json_string(text));
}

/* Traffic counted against predicted (bytes) into differs where they are
 * more than WL_COUNTED_TRAFFIC apart — unless by less than floor, what the
 * counters' own noise can be: a kernel that moves next to nothing through
 * DRAM. */
static void compare_traffic(json_t *differs, const char *what, double counted, double want, double floor)
{
	char text[200];
	double hi = counted > want ? counted : want, lo = counted > want ? want : counted;

	if (counted < 0 || want < 0 || lo * WL_COUNTED_TRAFFIC >= hi || hi - lo <= floor)
		return;
	snprintf(text, sizeof(text), "%s: counted %.3g, predicted %.3g — the model's error, not the hardware's", what,
		 counted, want);
	json_array_append_new(differs, json_string(text));
}

static json_t *counted_json(const json_t *counters, const json_t *prediction)
{
	const json_t *traffic = json_object_get(prediction, "traffic");
	double p_read = traffic ? num(traffic, "dram_read_bytes") : -1;
	double p_write = traffic ? num(traffic, "dram_write_bytes") : -1;
	double p_hit = traffic ? num(traffic, "l2_hit_pct") : -1;
	double floor = traffic ? (num(traffic, "l2_read_bytes") + num(traffic, "l2_write_bytes")) / 100 : 0;
	double lr = num(counters, "global_load_requests"), sr = num(counters, "global_store_requests");
	/* A warp whose lanes are all masked off still executes the
	 * instruction but asks nothing: the ideal wavefronts (one per request,
	 * the wavefronts less the conflicts' extra ones) count the requests. */
	double waves = num(counters, "shared_load_wavefronts"), ideal = waves - num(counters, "shared_load_bank_conflicts");
	double load = lr > 0 ? num(counters, "global_load_sectors") / lr : -1;
	double store = sr > 0 ? num(counters, "global_store_sectors") / sr : -1;
	double degree = ideal > 0 && json_object_get(counters, "shared_load_bank_conflicts") ? waves / ideal : -1;
	const json_t *acc = json_object_get(prediction, "accesses");
	double p_load = predicted(acc, "global", "load", "sectors_per_request");
	double p_store = predicted(acc, "global", "store", "sectors_per_request");
	double p_degree = predicted(acc, "local", "load", "conflict_degree");
	json_t *differs = json_array(), *o;

	if (!differs)
		return NULL;
	compare(differs, "sectors per global load request", load, p_load);
	compare(differs, "sectors per global store request", store, p_store);
	compare(differs, "local-memory conflict degree of loads", degree, p_degree);
	/* The total: a cold run's flush leaves the last level dirty, and what
	 * the launch evicts of it DRAM writes as the launch's own — reads and
	 * writes are shown apart, and judged together. */
	if (p_read >= 0 && p_write >= 0)
		compare_traffic(differs, "DRAM bytes read and written",
				num(counters, "dram_read_bytes") + num(counters, "dram_write_bytes"), p_read + p_write,
				floor);
	o = json_pack("{s:O, s:o, s:o, s:o, s:f, s:f, s:f, s:f, s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o}, s:o}",
		      "counters", counters,
		      "load_sectors_per_request", real_or_null(load), "store_sectors_per_request", real_or_null(store),
		      "local_conflict_degree", real_or_null(degree),
		      "dram_bytes", num(counters, "dram_read_bytes") + num(counters, "dram_write_bytes"),
		      "dram_read_bytes", num(counters, "dram_read_bytes"), "dram_write_bytes",
		      num(counters, "dram_write_bytes"), "l2_hit_pct", num(counters, "l2_hit_pct"), "predicted",
		      "load_sectors_per_request", real_or_null(p_load), "store_sectors_per_request",
		      real_or_null(p_store), "local_conflict_degree", real_or_null(p_degree),
		      "dram_read_bytes", real_or_null(p_read), "dram_write_bytes", real_or_null(p_write),
		      "dram_bytes", real_or_null(p_read >= 0 && p_write >= 0 ? p_read + p_write : -1),
		      "l2_hit_pct", real_or_null(p_hit), "model_differs", differs);
	return o;
}

int wl_run_add_counted(json_t *run)
{
	size_t i;
	json_t *r;
	long long pending = 0;

	json_array_foreach(json_object_get(run, "results"), i, r) {
		const json_t *extra = json_object_get(r, "extra");
		const json_t *counters = json_object_get(extra, "counters");
		const char *error = json_string_value(json_object_get(extra, "counters_error"));
		json_t *c;

		if (counters)
			c = counted_json(counters, json_object_get(r, "prediction"));
		else if (error)
			c = json_pack("{s:s}", "error", error);
		else if (json_is_true(json_object_get(extra, "counters_pending")) && ++pending)
			c = json_pack("{s:b}", "pending", 1);
		else
			continue;
		if (!c || json_object_set_new(r, "counted", c) < 0)
			return -1;
	}
	return pending && json_object_set_new(run, "counters_pending", json_integer(pending)) < 0 ? -1 : 0;
}
