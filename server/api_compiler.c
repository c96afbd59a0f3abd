/* GET /api/runs/{id}/compiler: what the device's compiler made of each
 * variant of a run, as the runner recorded it when it built them (store.h,
 * wl_store_get_builds): registers, local and private memory, spills and
 * barriers; occupancy for the run's work-group size against the device's
 * architecture limits (kernels/gpu_limits.json); and, on NVIDIA, the
 * kernel's PTX with each instruction's source line and its memory
 * accesses. The server reads the stored texts; it never builds anything. */
#include <stdio.h>
#include <string.h>

#include "build_view.h"
#include "compiler_account.h"
#include "gpu_limits.h"
#include "occupancy.h"
#include "server.h"
#include "store.h"

/* One stored build row as the API shows it. */
static json_t *build_entry(const json_t *row, const json_t *arch, const char *why_no_arch)
{
	const json_t *kernel = json_object_get(row, "kernel");
	const json_t *first = json_array_get(json_object_get(kernel, "launches"), 0);
	const char *name = json_string_value(json_object_get(kernel, "kernel"));
	const char *log = json_string_value(json_object_get(row, "log"));
	const char *ptx = json_string_value(json_object_get(row, "ptx"));
	json_t *all = wl_ptxas_figures(log ? log : ""), *ptxas = name ? json_object_get(all, name) : NULL;
	json_t *launches = wl_build_launches(kernel, ptxas, arch, why_no_arch);
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
				  wl_build_figures(kernel, ptxas, first), "occupancy",
				  json_object_get(json_array_get(launches, 0), "occupancy"), "launches", launches,
				  "ptx", view ? view : json_null(), "ptx_why", ptx_why, "log",
				  log && *log ? log : NULL);

	json_decref(all);
	return entry;
}

/* The run's variants' names in the request's order: built-ins, then custom
 * kernels. */
static json_t *variant_names(const json_t *request)
{
	json_t *names = json_array(), *v;
	size_t i;

	json_array_foreach(json_object_get(request, "variants"), i, v)
		json_array_append(names, v);
	json_array_foreach(json_object_get(request, "kernels"), i, v)
		json_array_append(names, json_object_get(v, "name"));
	return names;
}

static json_t *compiler_view(struct wl_server *srv, const json_t *run, const json_t *rows)
{
	const json_t *device = json_object_get(run, "device"), *arch;
	const char *why = NULL, *status = json_string_value(json_object_get(run, "status"));
	json_t *names = variant_names(json_object_get(run, "request")), *variants = json_array(), *name;
	size_t i, r;

	arch = srv->catalog->gpu_limits ? wl_gpu_limits_for(srv->catalog->gpu_limits, device, &why) : NULL;
	if (!srv->catalog->gpu_limits)
		why = "this server has no architecture limits (gpu_limits.json beside the catalog)";
	json_array_foreach(names, i, name) {
		json_t *builds = json_array(), *row;

		json_array_foreach(rows, r, row)
			if (json_equal(json_object_get(row, "variant"), name))
				json_array_append_new(builds, build_entry(row, arch, why));
		json_array_append_new(variants, json_pack("{s:O, s:o}", "id", name, "builds", builds));
	}
	json_decref(names);
	return json_pack("{s:O, s:b, s:s?, s:{s:O?, s:O?, s:O?}, s:o, s:s?, s:o}", "run", json_object_get(run, "id"),
			 "recorded", json_array_size(rows) > 0, "note",
			 json_array_size(rows) ? NULL
			 : status && (!strcmp(status, "queued") || !strcmp(status, "running"))
			 ? "not recorded yet: the runner records each variant's build as it measures it"
			 : "not recorded: this run did not keep what the compiler made of its variants "
			   "(it ran before warplab kept it, or built nothing)",
			 "device", "id", json_object_get(device, "id"), "name", json_object_get(device, "name"),
			 "compute_capability", json_object_get(device, "compute_capability"), "architecture",
			 arch ? json_pack("{s:O, s:O}", "name", json_object_get(arch, "name"), "max_warps",
					  json_object_get(arch, "warps"))
			      : json_null(),
			 "architecture_why", arch ? NULL : why, "variants", variants);
}

void wl_api_run_compiler(struct wl_server *srv, const struct wl_request *req, long long id,
			 struct wl_response *resp)
{
	struct wl_store *st = NULL;
	struct wl_error err;
	json_t *run = NULL, *rows = NULL, *body;

	(void)req;
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 || wl_store_get_run(st, id, 0, &run, &err) < 0 ||
	    wl_store_get_builds(st, id, 1, &rows, &err) < 0) {
		wl_response_from_error(resp, &err);
		goto out;
	}
	body = compiler_view(srv, run, rows);
	if (body)
		wl_response_json(resp, 200, body);
	else
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
out:
	json_decref(rows);
	json_decref(run);
	if (st)
		wl_store_pool_put(srv->pool, st);
}
