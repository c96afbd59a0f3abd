/* A stored build (store.h, wl_store_get_builds) read for people and for the
 * model (see analysis.h, "builds"): its figures (ptxas's where NVIDIA's
 * compiler reported, the driver's otherwise) and its launches with their
 * local memory and occupancy (occupancy.h) — what GET
 * /api/runs/{id}/compiler shows of each — and a launch's use of a compute
 * unit, from which run_occupancy.c takes each result's occupancy. The
 * server reads the stored texts; it never builds anything. */
#include "analysis.h"

#include <stdio.h>
#include <string.h>

#include "build_launches.h"
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

/* The local memory a launch gives its kernel through its arguments. */
static long long arg_bytes(const json_t *launch)
{
	return figure(launch, "local_arg_bytes") > 0 ? figure(launch, "local_arg_bytes") : 0;
}

/* Local memory the kernel declares: ptxas's count where it reported one,
 * else the driver's total less what the arguments of the launch it was
 * counted at (args) gave. */
static long long declared_local(const json_t *kernel, const json_t *ptxas, long long args)
{
	long long total = figure(kernel, "local_bytes");

	if (ptxas)
		return figure(ptxas, "shared_bytes");
	return total < 0 ? -1 : total > args ? total - args : 0;
}

/* The figures of one build (kernel: its stored figures; ptxas: ptxas's for
 * the kernel, or NULL) at its first launch: ptxas's where it reported them,
 * the driver's (clGetKernelWorkGroupInfo) for the rest. NULL only when out
 * of memory. */
static json_t *build_figures(const json_t *kernel, const json_t *ptxas, const json_t *first)
{
	long long args = arg_bytes(first);
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

void wl_build_group_use(const json_t *kernel, const json_t *ptxas, long long items, long long args,
			struct wl_group_use *use)
{
	/* The driver counted the first launch's arguments in its total. */
	long long local = declared_local(kernel, ptxas, arg_bytes(json_array_get(json_object_get(kernel, "launches"), 0)));

	use->items = items;
	use->registers = ptxas ? figure(ptxas, "registers") : -1;
	use->local_bytes = local >= 0 ? local + args : -1;
}

int wl_build_launch_use(const json_t *kernel, const json_t *ptxas, const json_t *launch, struct wl_group_use *use)
{
	wl_build_group_use(kernel, ptxas, group_items(launch), arg_bytes(launch), use);
	return use->items > 0;
}

/* Each launch of the build with its local memory and occupancy under arch
 * (or unknown, why). NULL only when out of memory. */
static json_t *build_launches(const json_t *kernel, const json_t *ptxas, const json_t *arch, const char *why)
{
	json_t *out = json_array(), *launch;
	size_t i;

	json_array_foreach(json_object_get(kernel, "launches"), i, launch) {
		struct wl_group_use use;
		json_t *occupancy = wl_build_launch_use(kernel, ptxas, launch, &use) ? wl_occupancy(arch, why, &use)
					    : json_pack("{s:s}", "unknown_why", "the driver chose the work-group size");

		json_array_append_new(out, json_pack("{s:O, s:O, s:o, s:o, s:o}", "at", json_object_get(launch, "at"),
						     "work_group", json_object_get(launch, "work_group"), "items",
						     figure_json(use.items), "local_bytes",
						     figure_json(use.local_bytes), "occupancy",
						     occupancy ? occupancy : json_null()));
	}
	return out;
}

/* One stored build row as GET /api/runs/{id}/compiler shows it. */
static json_t *build_entry(const json_t *row, const json_t *arch, const char *why_no_arch)
{
	const json_t *kernel = json_object_get(row, "kernel");
	const json_t *first = json_array_get(json_object_get(kernel, "launches"), 0);
	const char *name = json_string_value(json_object_get(kernel, "kernel"));
	const char *log = json_string_value(json_object_get(row, "log"));
	const char *ptx = json_string_value(json_object_get(row, "ptx"));
	json_t *all = wl_ptxas_figures(log ? log : ""), *ptxas = name ? json_object_get(all, name) : NULL;
	json_t *launches = build_launches(kernel, ptxas, arch, why_no_arch);
	json_t *view = ptx && name ? wl_ptx_kernel_view(ptx, name) : NULL;
	char dropped[160];
	const char *ptx_why = view ? NULL : ptx ? "the PTX holds no entry function of this kernel"
		: "no PTX: only NVIDIA's OpenCL gives a program as PTX text; this device's compiler "
		  "makes its own machine code";

	if (!view && json_integer_value(json_object_get(kernel, "ptx_dropped_bytes")) > 0) {
		snprintf(dropped, sizeof(dropped), "no PTX kept: the program's PTX is %lld bytes, more than the %lld kept",
			 (long long)json_integer_value(json_object_get(kernel, "ptx_dropped_bytes")),
			 (long long)json_integer_value(json_object_get(kernel, "ptx_kept_max")));
		ptx_why = dropped;
	}
	json_t *entry = json_pack("{s:O, s:s?, s:O, s:O?, s:o, s:O?, s:o, s:o, s:s?, s:s?}", "options",
				  json_object_get(row, "options"), "kernel", name, "source_hash",
				  json_object_get(row, "source_hash"), "work_group",
				  json_object_get(first, "work_group"), "figures",
				  build_figures(kernel, ptxas, first), "occupancy",
				  json_object_get(json_array_get(launches, 0), "occupancy"), "launches", launches,
				  "ptx", view ? view : json_null(), "ptx_why", ptx_why, "log",
				  log && *log ? log : NULL);

	json_decref(all);
	return entry;
}

/* The builds of the variant named name (a JSON string) among rows. */
static json_t *variant_builds(const json_t *name, const json_t *rows, const json_t *arch, const char *why)
{
	json_t *builds = json_array(), *row;
	size_t r;

	json_array_foreach(rows, r, row)
		if (json_equal(json_object_get(row, "variant"), name))
			json_array_append_new(builds, build_entry(row, arch, why));
	return json_pack("{s:O, s:o}", "id", name, "builds", builds);
}

json_t *wl_compiler_view(const struct wl_run *run, const json_t *rows, const json_t *limits)
{
	const char *why = NULL;
	const json_t *arch = limits ? wl_gpu_limits_for(limits, run->device, &why) : NULL;
	json_t *variants = json_array();
	size_t i;

	if (!limits)
		why = "this server has no architecture limits (gpu_limits.json beside the catalog)";
	/* The run's variants in the request's order: built-ins, then custom
	 * kernels. */
	for (i = 0; i < run->nbuiltins; i++) {
		json_t *name = run->builtins[i] ? json_string(run->builtins[i]) : NULL;

		if (name)
			json_array_append_new(variants, variant_builds(name, rows, arch, why));
		json_decref(name);
	}
	for (i = 0; i < run->nkernels; i++)
		if (run->kernels[i].name_json)
			json_array_append_new(variants, variant_builds(run->kernels[i].name_json, rows, arch, why));
	return json_pack("{s:I, s:b, s:s?, s:{s:O?, s:O?, s:O?}, s:o, s:s?, s:o}", "run", (json_int_t)run->id,
			 "recorded", json_array_size(rows) > 0, "note",
			 json_array_size(rows) ? NULL
			 : run->status == WL_RUN_QUEUED || run->status == WL_RUN_RUNNING
			 ? "not recorded yet: the runner records each variant's build as it measures it"
			 : "not recorded: this run did not keep what the compiler made of its variants "
			   "(it ran before warplab kept it, or built nothing)",
			 "device", "id", json_object_get(run->device, "id"), "name", json_object_get(run->device, "name"),
			 "compute_capability", json_object_get(run->device, "compute_capability"), "architecture",
			 arch ? json_pack("{s:O, s:O}", "name", json_object_get(arch, "name"), "max_warps",
					  json_object_get(arch, "warps"))
			      : json_null(),
			 "architecture_why", arch ? NULL : why, "variants", variants);
}
