/* A stored build (store.h, wl_store_get_builds) read into figures and
 * occupancy (see build_view.h): what GET /api/runs/{id}/compiler shows of
 * each, and the resident warps the model's latency and barrier ceilings
 * take from it. */
#include "build_view.h"

#include <stdio.h>
#include <string.h>

#include "compiler_account.h"
#include "gpu_limits.h"
#include "occupancy.h"

static long long figure(const json_t *obj, const char *name)
{
	const json_t *v = json_object_get(obj, name);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

static json_t *figure_json(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* Work-items in one work-group of a launch (its "work_group"), or -1 where
 * the driver chose. */
static long long group_items(const json_t *launch)
{
	const json_t *group = json_object_get(launch, "work_group");
	long long items = 1;
	size_t i;
	json_t *d;

	if (!json_array_size(group))
		return -1;
	json_array_foreach(group, i, d)
		items *= json_integer_value(d) > 0 ? json_integer_value(d) : 1;
	return items;
}

/* Local memory the kernel declares: ptxas's count where it reported one,
 * else the driver's total less what the launch's arguments gave. */
static long long declared_local(const json_t *kernel, const json_t *ptxas, long long args)
{
	long long total = figure(kernel, "local_bytes");

	if (ptxas)
		return figure(ptxas, "shared_bytes");
	return total < 0 ? -1 : total > args ? total - args : 0;
}

/* (build_view.h) The figures of one build at its first launch: ptxas's where it reported
 * them, the driver's (clGetKernelWorkGroupInfo) for the rest. */
json_t *wl_build_figures(const json_t *kernel, const json_t *ptxas, const json_t *first)
{
	long long args = figure(first, "local_arg_bytes") > 0 ? figure(first, "local_arg_bytes") : 0;
	long long local = declared_local(kernel, ptxas, args);
	const json_t *target = ptxas ? json_object_get(ptxas, "target") : NULL;

	return json_pack("{s:s, s:O?, s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "reported_by", ptxas ? "ptxas" : "opencl", "target", target, "registers",
			 figure_json(ptxas ? figure(ptxas, "registers") : -1), "barriers",
			 figure_json(ptxas ? figure(ptxas, "barriers") : -1), "local_bytes",
			 figure_json(local >= 0 ? local + args : -1), "local_static_bytes", figure_json(local),
			 "local_dynamic_bytes", (json_int_t)args, "private_bytes",
			 figure_json(figure(kernel, "private_bytes")), "stack_bytes",
			 figure_json(ptxas ? figure(ptxas, "stack_bytes") : -1), "spill_store_bytes",
			 figure_json(ptxas ? figure(ptxas, "spill_store_bytes") : -1), "spill_load_bytes",
			 figure_json(ptxas ? figure(ptxas, "spill_load_bytes") : -1), "max_work_group",
			 figure_json(figure(kernel, "max_work_group")), "preferred_multiple",
			 figure_json(figure(kernel, "preferred_multiple")), "work_group_items",
			 figure_json(group_items(first)));
}

/* Each launch of the build with its local memory and occupancy. */
json_t *wl_build_launches(const json_t *kernel, const json_t *ptxas, const json_t *arch, const char *why)
{
	json_t *out = json_array(), *launch;
	size_t i;

	json_array_foreach(json_object_get(kernel, "launches"), i, launch) {
		long long args = figure(launch, "local_arg_bytes") > 0 ? figure(launch, "local_arg_bytes") : 0;
		long long local = declared_local(kernel, ptxas, args);
		struct wl_group_use use = { group_items(launch), ptxas ? figure(ptxas, "registers") : -1,
					    local >= 0 ? local + args : -1 };
		json_t *occupancy = use.items > 0 ? wl_occupancy(arch, why, &use)
			: json_pack("{s:s}", "unknown_why", "the driver chose the work-group size");

		json_array_append_new(out, json_pack("{s:O, s:O, s:o, s:o, s:o}", "at", json_object_get(launch, "at"),
						     "work_group", json_object_get(launch, "work_group"), "items",
						     figure_json(use.items), "local_bytes",
						     figure_json(use.local_bytes), "occupancy",
						     occupancy ? occupancy : json_null()));
	}
	return out;
}

int wl_run_add_occupancy(const json_t *limits, struct wl_store *st, json_t *run, struct wl_error *err)
{
	const char *why = NULL;
	const json_t *arch = limits ? wl_gpu_limits_for(limits, json_object_get(run, "device"), &why) : NULL;
	json_t *rows = NULL, *occupancy, *row;
	size_t i;

	if (!arch)
		return 0;
	if (wl_store_get_builds(st, json_integer_value(json_object_get(run, "id")), 0, &rows, err) < 0)
		return -1;
	occupancy = json_object();
	json_array_foreach(rows, i, row) {
		const char *variant = json_string_value(json_object_get(row, "variant"));
		const json_t *kernel = json_object_get(row, "kernel");
		const char *name = json_string_value(json_object_get(kernel, "kernel"));
		const char *log = json_string_value(json_object_get(row, "log"));
		json_t *all, *launches, *first;

		if (!occupancy || !variant || !name || json_object_get(occupancy, variant))
			continue;
		all = wl_ptxas_figures(log ? log : "");
		launches = wl_build_launches(kernel, json_object_get(all, name), arch, why);
		first = json_object_get(json_array_get(launches, 0), "occupancy");
		if (json_integer_value(json_object_get(first, "warps")) > 0)
			json_object_set_new(occupancy, variant,
					    json_pack("{s:O, s:O}", "warps", json_object_get(first, "warps"), "groups",
						      json_object_get(first, "groups")));
		json_decref(launches);
		json_decref(all);
	}
	json_decref(rows);
	if (!occupancy || json_object_set_new(run, "occupancy", occupancy) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return 0;
}
