/* Occupancy from architecture limits (see occupancy.h). */
#include "occupancy.h"

#include <stdio.h>
#include <string.h>

static long long limit(const json_t *arch, const char *name)
{
	return json_integer_value(json_object_get(arch, name));
}

static long long round_up(long long x, long long unit)
{
	return (x + unit - 1) / unit * unit;
}

/* Groups the register file allows: each warp's registers are allocated in
 * units, from one of the register file's banks (an SM scheduler's), so a
 * bank holds a whole number of warps. -1 with *cannot when a group never fits. */
static long long by_registers(const json_t *arch, long long regs, long long warps_per_group,
			      const char **cannot)
{
	long long per_warp = round_up(regs * limit(arch, "warp"), limit(arch, "register_unit"));
	long long banks = limit(arch, "register_banks");
	long long warps;

	if (regs > limit(arch, "max_registers")) {
		*cannot = "more registers per work-item than the architecture has";
		return 0;
	}
	if (per_warp == 0)
		return -1;
	warps = limit(arch, "registers") / banks / per_warp * banks;
	if (warps < warps_per_group)
		*cannot = "the work-group needs more registers than a compute unit has";
	return warps / warps_per_group;
}

static long long by_local(const json_t *arch, long long bytes, const char **cannot)
{
	long long per_group = round_up(bytes + limit(arch, "local_reserved"), limit(arch, "local_unit"));

	if (bytes > limit(arch, "local_max_per_group")) {
		*cannot = "the work-group needs more local memory than a compute unit gives one group";
		return 0;
	}
	return per_group ? limit(arch, "local_bytes") / per_group : -1;
}

json_t *wl_occupancy(const json_t *arch, const char *why_unknown, const struct wl_group_use *use)
{
	const char *names[] = { "warps", "groups", "registers", "local_memory" };
	long long by[4], warps_per_group, groups = -1;
	const char *cannot = NULL;
	json_t *out, *by_json, *limited, *unknown;

	if (!arch)
		return json_pack("{s:s}", "unknown_why", why_unknown ? why_unknown : "no limits known");
	warps_per_group = (use->items + limit(arch, "warp") - 1) / limit(arch, "warp");
	by[0] = limit(arch, "warps") / warps_per_group;
	by[1] = limit(arch, "groups");
	by[2] = use->registers >= 0 ? by_registers(arch, use->registers, warps_per_group, &cannot) : -1;
	by[3] = use->local_bytes >= 0 ? by_local(arch, use->local_bytes, &cannot) : -1;
	if (by[0] == 0)
		cannot = "the work-group has more warps than a compute unit holds";
	out = json_object();
	by_json = json_object();
	limited = json_array();
	unknown = json_array();
	if (!out || !by_json || !limited || !unknown) {
		json_decref(out);
		json_decref(by_json);
		json_decref(limited);
		json_decref(unknown);
		return NULL;
	}
	for (int i = 0; i < 4; i++) {
		if (by[i] >= 0 && (groups < 0 || by[i] < groups))
			groups = by[i];
		json_object_set_new(by_json, names[i], by[i] >= 0 ? json_integer(by[i]) : json_null());
		if (by[i] < 0)
			json_array_append_new(unknown, json_string(names[i]));
	}
	for (int i = 0; i < 4; i++)
		if (by[i] == groups)
			json_array_append_new(limited, json_string(names[i]));
	json_object_set_new(out, "groups", json_integer(groups));
	json_object_set_new(out, "warps", json_integer(groups * warps_per_group));
	json_object_set_new(out, "max_warps", json_integer(limit(arch, "warps")));
	json_object_set_new(out, "fraction",
			    json_real((double)(groups * warps_per_group) / (double)limit(arch, "warps")));
	json_object_set_new(out, "limited_by", limited);
	json_object_set_new(out, "by", by_json);
	json_object_set_new(out, "unknown", unknown);
	if (cannot)
		json_object_set_new(out, "cannot_run", json_string(cannot));
	return out;
}
