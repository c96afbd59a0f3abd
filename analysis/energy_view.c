/* Energy figures of a run's results (see analysis.h, "energy"). */
#include "analysis.h"

#include <math.h>
#include <string.h>

/* Joules to picojoules and nanojoules. */
#define PJ_PER_J 1e12
#define NJ_PER_J 1e9

/* What the runner stores of a measured energy, copied as it is. */
static const char *const stored_keys[] = { "j_per_launch", "j_above_idle_per_launch", "avg_w", "idle_w",
					   "launches", "burst_ms", "window_ms", "throttled" };

/* joules × scale / amount, or null where amount is not above 0 or joules
 * not a number. */
static json_t *per(double joules, double scale, double amount)
{
	double v = joules * scale / amount;

	return !isnan(joules) && amount > 0 && isfinite(v) ? json_real(v) : json_null();
}

/* The DRAM bytes of one launch of r: the hardware's count where the run
 * profiled it (read and written), else the model's; *from says which
 * ("counters", "model"), NULL and -1 where neither is known. */
static double moved_bytes(const struct wl_result *r, const char **from)
{
	if (!isnan(r->counts.dram_read_bytes) && !isnan(r->counts.dram_write_bytes)) {
		*from = "counters";
		return r->counts.dram_read_bytes + r->counts.dram_write_bytes;
	}
	if (!isnan(r->dram_read_bytes) && !isnan(r->dram_write_bytes)) {
		*from = "model";
		return r->dram_read_bytes + r->dram_write_bytes;
	}
	*from = NULL;
	return -1;
}

int wl_result_energy(const struct wl_result *r, json_t **figures, const char **error)
{
	const char *from;
	double moved;
	json_t *o;

	*figures = NULL;
	*error = NULL;
	if (!r->energy || isnan(r->j_per_launch)) {
		*error = r->energy_error;
		return 0;
	}
	o = json_object();
	if (!o)
		return -1;
	for (size_t i = 0; i < sizeof(stored_keys) / sizeof(stored_keys[0]); i++) {
		json_t *v = json_object_get(r->energy, stored_keys[i]);

		if (json_object_set(o, stored_keys[i], v ? v : json_null()) < 0)
			goto fail;
	}
	moved = moved_bytes(r, &from);
	if (json_object_set_new(o, "pj_per_useful_byte", per(r->j_per_launch, PJ_PER_J, r->bytes)) < 0 ||
	    json_object_set_new(o, "pj_per_useful_byte_above_idle",
				per(r->j_above_idle_per_launch, PJ_PER_J, r->bytes)) < 0 ||
	    json_object_set_new(o, "nj_per_op", per(r->j_per_launch, NJ_PER_J, r->ops)) < 0 ||
	    json_object_set_new(o, "moved_bytes", from && moved > 0 ? json_real(moved) : json_null()) < 0 ||
	    json_object_set_new(o, "moved_bytes_from", from && moved > 0 ? json_string(from) : json_null()) < 0 ||
	    json_object_set_new(o, "pj_per_moved_byte", from ? per(r->j_per_launch, PJ_PER_J, moved) : json_null()) < 0)
		goto fail;
	*figures = o;
	return 0;
fail:
	json_decref(o);
	return -1;
}

/* What a point's variants are compared on (they do the same work there):
 * the energy's "pj_per_useful_byte", else "nj_per_op", else
 * "j_per_launch", its name into *key; -1 (and *key NULL) where figures has
 * none. */
static double per_work(const json_t *figures, const char **key)
{
	static const char *const keys[] = { "pj_per_useful_byte", "nj_per_op", "j_per_launch" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_is_number(json_object_get(figures, keys[i]))) {
			*key = keys[i];
			return json_number_value(json_object_get(figures, keys[i]));
		}
	*key = NULL;
	return -1;
}

int wl_run_add_energy(struct wl_run *run)
{
	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		const char *error;
		json_t *figures, *why = NULL;

		if (wl_result_energy(r, &figures, &error) < 0)
			return -1;
		if (error && !(why = json_string(error))) {
			json_decref(figures);
			return -1;
		}
		r->energy_per_work = per_work(figures, &r->energy_key);
		if (json_object_set_new(r->json, "energy", figures ? figures : json_null()) < 0) {
			json_decref(why);
			return -1;
		}
		r->energy_figures = figures;
		if (why && json_object_set_new(r->json, "energy_error", why) < 0)
			return -1;
	}
	return 0;
}
