/* Counted beside predicted (see analysis.h, "counted beside predicted"). */
#include "analysis.h"

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

/* A counted figure, 0 where the hardware did not count it. */
static double zero(double v)
{
	return isnan(v) ? 0 : v;
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

static json_t *counted_json(const struct wl_result *r)
{
	const struct wl_counts *n = &r->counts;
	const json_t *prediction = r->prediction;
	const json_t *traffic = json_object_get(prediction, "traffic");
	double p_read = traffic ? num(traffic, "dram_read_bytes") : -1;
	double p_write = traffic ? num(traffic, "dram_write_bytes") : -1;
	double p_hit = traffic ? num(traffic, "l2_hit_pct") : -1;
	double floor = traffic ? (num(traffic, "l2_read_bytes") + num(traffic, "l2_write_bytes")) / 100 : 0;
	double lr = zero(n->global_load_requests), sr = zero(n->global_store_requests);
	/* A warp whose lanes are all masked off still executes the
	 * instruction but asks nothing: the ideal wavefronts (one per request,
	 * the wavefronts less the conflicts' extra ones) count the requests. */
	double waves = zero(n->shared_load_wavefronts), ideal = waves - zero(n->shared_load_bank_conflicts);
	double load = lr > 0 ? zero(n->global_load_sectors) / lr : -1;
	double store = sr > 0 ? zero(n->global_store_sectors) / sr : -1;
	double degree = ideal > 0 && !isnan(n->shared_load_bank_conflicts) ? waves / ideal : -1;
	double dram_read = zero(n->dram_read_bytes), dram_write = zero(n->dram_write_bytes);
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
				dram_read + dram_write, p_read + p_write, floor);
	o = json_pack("{s:O, s:o, s:o, s:o, s:f, s:f, s:f, s:f, s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o}, s:o}",
		      "counters", r->counters,
		      "load_sectors_per_request", real_or_null(load), "store_sectors_per_request", real_or_null(store),
		      "local_conflict_degree", real_or_null(degree),
		      "dram_bytes", dram_read + dram_write, "dram_read_bytes", dram_read, "dram_write_bytes", dram_write,
		      "l2_hit_pct", zero(n->l2_hit_pct), "predicted",
		      "load_sectors_per_request", real_or_null(p_load), "store_sectors_per_request",
		      real_or_null(p_store), "local_conflict_degree", real_or_null(p_degree),
		      "dram_read_bytes", real_or_null(p_read), "dram_write_bytes", real_or_null(p_write),
		      "dram_bytes", real_or_null(p_read >= 0 && p_write >= 0 ? p_read + p_write : -1),
		      "l2_hit_pct", real_or_null(p_hit), "model_differs", differs);
	return o;
}

int wl_run_add_counted(struct wl_run *run)
{
	long long pending = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		json_t *c;

		if (r->counters)
			c = counted_json(r);
		else if (r->counters_error)
			c = json_pack("{s:s}", "error", r->counters_error);
		else if (r->counters_pending && ++pending)
			c = json_pack("{s:b}", "pending", 1);
		else
			continue;
		if (!c || json_object_set_new(r->json, "counted", c) < 0)
			return -1;
	}
	return pending && json_object_set_new(run->json, "counters_pending", json_integer(pending)) < 0 ? -1 : 0;
}
