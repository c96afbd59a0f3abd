/* The warps each result of a run kept resident on a compute unit, from the
 * builds the runner recorded (build_launches.h) and the catalog's
 * architecture limits — what the model's latency and barrier ceilings take
 * (analysis.h, "occupancy"). A result ran the build of its variant whose
 * options are its point's defines, at the launch of its work-group and
 * local memory: a tuning run's configurations differ in both, and a sweep
 * of local memory through the arguments (the banks') in the latter, so a
 * variant's first launch does not speak for them. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "build_launches.h"
#include "catalog_experiment.h"
#include "compiler_account.h"
#include "exp_data.h"
#include "gpu_limits.h"
#include "launch_decl.h"

/* One stored build: its variant, its options, its launches as recorded
 * (kernel's "launches") and their occupancy, in the same order. */
struct build_occupancy {
	const char *variant, *options;
	const json_t *recorded;
	json_t *launches;	/* owned */
};

/* Whether a build's options are defines (an experiment's -D text at a
 * point), alone or with the runner's -D WL_FP64 after them. */
static int same_defines(const char *options, const char *defines)
{
	size_t n = strlen(defines);

	if (strncmp(options, defines, n) != 0)
		return 0;
	options += n;
	if (n > 0 && *options == ' ')
		options++;
	return *options == '\0' || strcmp(options, "-D WL_FP64") == 0;
}

/* The warps b's launch with items work-items a group and arg_bytes of
 * local memory through its arguments keeps resident (else its first with
 * as many work-items, else its first launch's), 0 where unknown. */
static long long launch_warps(const struct build_occupancy *b, long long items, long long arg_bytes)
{
	const json_t *launch, *chosen = NULL;
	size_t i;

	json_array_foreach(b->launches, i, launch) {
		long long args = json_integer_value(json_object_get(json_array_get(b->recorded, i), "local_arg_bytes"));

		if (json_integer_value(json_object_get(launch, "items")) != items)
			continue;
		if (args == arg_bytes) {
			chosen = launch;
			break;
		}
		chosen = chosen ? chosen : launch;
	}
	chosen = chosen ? chosen : json_array_get(b->launches, 0);
	return json_integer_value(json_object_get(json_object_get(chosen, "occupancy"), "warps"));
}

/* The local memory def's launch at values passes through its arguments. */
static long long local_arg_bytes(const struct wl_variant_def *def, const long long *values)
{
	long long total = 0, v;
	const char *why;

	for (int i = 0; i < def->host.nargs; i++)
		if (def->host.args[i].kind == WL_ARG_LOCAL && wl_expr_eval(&def->host.args[i].value, values, &v, &why) == 0)
			total += v;
	return total;
}

/* The warps result r kept resident: those of its variant's build for its
 * point's defines, at its work-group; 0 where no build is known to be its
 * (an experiment that left the catalog, a custom kernel, a point without
 * values). */
static long long result_warps(const struct wl_run *run, const struct wl_result *r, const struct build_occupancy *b,
			      size_t nb)
{
	const struct wl_variant_def *def;
	struct wl_launch_size size;
	struct wl_error err;
	char defines[2048] = "";
	long long items = 1;

	if (!run->exp || !r->values || !r->variant || !(def = wl_experiment_variant(run->exp, r->variant, NULL)))
		return 0;
	wl_exp_data_options(run->exp->data, r->values, defines, sizeof(defines));
	if (wl_launch_decl_size(&def->host, r->values, &size, &err) < 0)
		return 0;
	for (int d = 0; d < size.dims; d++)
		items *= size.local[d] > 0 ? size.local[d] : 1;
	for (size_t i = 0; i < nb; i++)
		if (strcmp(b[i].variant, r->variant) == 0 && same_defines(b[i].options, defines))
			return launch_warps(&b[i], items, local_arg_bytes(def, r->values));
	return 0;
}

/* The variants' first launches' occupancy, as the run's "occupancy"; NULL
 * only when out of memory. */
static json_t *variant_occupancy(const struct build_occupancy *b, size_t nb)
{
	json_t *out = json_object();

	for (size_t i = 0; out && i < nb; i++) {
		const json_t *first = json_object_get(json_array_get(b[i].launches, 0), "occupancy");

		if (json_object_get(out, b[i].variant) || json_integer_value(json_object_get(first, "warps")) <= 0)
			continue;
		json_object_set_new(out, b[i].variant,
				    json_pack("{s:O, s:O}", "warps", json_object_get(first, "warps"), "groups",
					      json_object_get(first, "groups")));
	}
	return out;
}

/* Each result's resident warps from b: its own build's where found, else
 * its variant's first launch's (occupancy), else 0. */
static void results_warps(struct wl_run *run, const struct build_occupancy *b, size_t nb, const json_t *occupancy)
{
	for (size_t i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		long long warps = result_warps(run, r, b, nb);

		if (warps <= 0 && r->variant)
			warps = json_integer_value(json_object_get(json_object_get(occupancy, r->variant), "warps"));
		r->resident_warps = warps > 0 ? warps : 0;
	}
}

int wl_run_add_occupancy(struct wl_run *run, struct wl_store *st, struct wl_error *err)
{
	const json_t *limits = run->cat ? run->cat->gpu_limits : NULL;
	const char *why = NULL;
	const json_t *arch = limits ? wl_gpu_limits_for(limits, run->device, &why) : NULL;
	struct build_occupancy *b = NULL;
	json_t *rows = NULL, *occupancy = NULL, *row;
	size_t i, nb = 0;
	int rc = -1;

	if (!arch)
		return 0;
	if (wl_store_get_builds(st, run->id, 0, &rows, err) < 0)
		return -1;
	if (json_array_size(rows) && !(b = calloc(json_array_size(rows), sizeof(*b))))
		goto out;
	json_array_foreach(rows, i, row) {
		const json_t *kernel = json_object_get(row, "kernel");
		const char *variant = json_string_value(json_object_get(row, "variant"));
		const char *options = json_string_value(json_object_get(row, "options"));
		const char *name = json_string_value(json_object_get(kernel, "kernel"));
		const char *log = json_string_value(json_object_get(row, "log"));
		json_t *all;

		if (!variant || !name)
			continue;
		all = wl_ptxas_figures(log ? log : "");
		b[nb] = (struct build_occupancy){ variant, options ? options : "", json_object_get(kernel, "launches"),
						  wl_build_launches(kernel, json_object_get(all, name), arch, why) };
		json_decref(all);
		if (!b[nb++].launches)
			goto out;
	}
	if (!(occupancy = variant_occupancy(b, nb)) || json_object_set(run->json, "occupancy", occupancy) < 0)
		goto out;
	results_warps(run, b, nb, occupancy);
	rc = 0;
out:
	if (rc < 0)
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
	for (i = 0; i < nb; i++)
		json_decref(b[i].launches);
	free(b);
	json_decref(occupancy);
	json_decref(rows);
	return rc;
}
