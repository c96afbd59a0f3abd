/* Energy figures of a run's results (see energy_view.h). */
#include "energy_view.h"

#include <math.h>
#include <string.h>

/* Joules to picojoules and nanojoules. */
#define PJ_PER_J 1e12
#define NJ_PER_J 1e9

/* What the runner stores of a measured energy, copied as it is. */
static const char *const stored_keys[] = { "j_per_launch", "j_above_idle_per_launch", "avg_w", "idle_w",
					   "launches", "burst_ms", "window_ms", "throttled" };

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* joules × scale / amount, or null where amount is not above 0 or joules not
 * a number. */
static json_t *per(const json_t *joules, double scale, double amount)
{
	double v = json_number_value(joules) * scale / amount;

	return json_is_number(joules) && amount > 0 && isfinite(v) ? json_real(v) : json_null();
}

/* The DRAM bytes of one launch of r: the hardware's count where the run
 * profiled it (read and written), else the model's; *from says which
 * ("counters", "model"), NULL and -1 where neither is known. */
static double moved_bytes(const json_t *r, const char **from)
{
	const json_t *counters = json_object_get(json_object_get(r, "extra"), "counters");
	const json_t *traffic = json_object_get(json_object_get(r, "prediction"), "traffic");

	if (json_is_number(json_object_get(counters, "dram_read_bytes")) &&
	    json_is_number(json_object_get(counters, "dram_write_bytes"))) {
		*from = "counters";
		return num(counters, "dram_read_bytes") + num(counters, "dram_write_bytes");
	}
	if (json_is_number(json_object_get(traffic, "dram_read_bytes")) &&
	    json_is_number(json_object_get(traffic, "dram_write_bytes"))) {
		*from = "model";
		return num(traffic, "dram_read_bytes") + num(traffic, "dram_write_bytes");
	}
	*from = NULL;
	return -1;
}

int wl_result_energy(const json_t *r, json_t **figures, const char **error)
{
	const json_t *stored = json_object_get(r, "energy");
	const json_t *j = json_object_get(stored, "j_per_launch");
	const char *from;
	double bytes = num(r, "bytes"), moved;
	json_t *o;

	*figures = NULL;
	*error = NULL;
	if (!json_is_object(stored) || !json_is_number(j)) {
		/* The stored error, or the one this module set beside a null. */
		*error = json_string_value(json_object_get(stored, "error")) ?: json_string_value(json_object_get(r, "energy_error"));
		return 0;
	}
	o = json_object();
	if (!o)
		return -1;
	for (size_t i = 0; i < sizeof(stored_keys) / sizeof(stored_keys[0]); i++) {
		const json_t *v = json_object_get(stored, stored_keys[i]);

		if (json_object_set(o, stored_keys[i], v ? (json_t *)v : json_null()) < 0)
			goto fail;
	}
	moved = moved_bytes(r, &from);
	if (json_object_set_new(o, "pj_per_useful_byte", per(j, PJ_PER_J, bytes)) < 0 ||
	    json_object_set_new(o, "pj_per_useful_byte_above_idle",
				per(json_object_get(stored, "j_above_idle_per_launch"), PJ_PER_J, bytes)) < 0 ||
	    json_object_set_new(o, "nj_per_op", per(j, NJ_PER_J, num(r, "ops"))) < 0 ||
	    json_object_set_new(o, "moved_bytes", from && moved > 0 ? json_real(moved) : json_null()) < 0 ||
	    json_object_set_new(o, "moved_bytes_from", from && moved > 0 ? json_string(from) : json_null()) < 0 ||
	    json_object_set_new(o, "pj_per_moved_byte", from ? per(j, PJ_PER_J, moved) : json_null()) < 0)
		goto fail;
	*figures = o;
	return 0;
fail:
	json_decref(o);
	return -1;
}

int wl_run_add_energy(json_t *run)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(run, "results"), i, r) {
		const char *error;
		json_t *figures, *why = NULL;

		if (wl_result_energy(r, &figures, &error) < 0)
			return -1;
		/* The reason is copied before the object it points into goes. */
		if (error && !(why = json_string(error))) {
			json_decref(figures);
			return -1;
		}
		if (json_object_set_new(r, "energy", figures ? figures : json_null()) < 0) {
			json_decref(why);
			return -1;
		}
		if (why && json_object_set_new(r, "energy_error", why) < 0)
			return -1;
	}
	return 0;
}

double wl_energy_per_work(const json_t *energy, const char **key)
{
	static const char *const keys[] = { "pj_per_useful_byte", "nj_per_op", "j_per_launch" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_is_number(json_object_get(energy, keys[i]))) {
			*key = keys[i];
			return num(energy, keys[i]);
		}
	*key = NULL;
	return -1;
}
