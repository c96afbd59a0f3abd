/* The warps each result of a run kept resident on a compute unit, from the
 * builds the runner recorded (build_launches.h) and the catalog's
 * architecture limits — what the model's latency and barrier ceilings take
 * (analysis.h, "occupancy"). A result ran the build of its variant whose
 * options are its point's (exp_data.h), in groups of its own size, with
 * the local memory its own arguments give: a tuning run's configurations
 * differ in all three, and a sweep of local memory through the arguments
 * (the banks') in the last, so neither a variant's first build nor a
 * recorded launch (the runner keeps a few shapes of each) speaks for them. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "build_launches.h"
#include "catalog_experiment.h"
#include "compiler_account.h"
#include "exp_data.h"
#include "gpu_limits.h"
#include "launch_decl.h"
#include "occupancy.h"

/* One stored build: its variant, its options, its figures, ptxas's. */
struct build_figures {
	const char *variant, *options;
	const json_t *kernel;
	json_t *ptxas_all;	/* owned: ptxas's figures of every kernel in the log */
};

/* ptxas's figures of b's kernel, or NULL where its log has none. */
static const json_t *ptxas_of(const struct build_figures *b)
{
	const char *name = json_string_value(json_object_get(b->kernel, "kernel"));

	return name ? json_object_get(b->ptxas_all, name) : NULL;
}

/* The warps the occupancy calculator gives use under arch; 0 where
 * unknown. */
static long long warps_of(const json_t *arch, const struct wl_group_use *use)
{
	json_t *occupancy = use->items > 0 ? wl_occupancy(arch, NULL, use) : NULL;
	long long warps = json_integer_value(json_object_get(occupancy, "warps"));

	json_decref(occupancy);
	return warps;
}

/* The warps result r kept resident: its variant's build for its point's
 * options, in its groups, with its arguments' local memory; 0 where no
 * build is known to be its (an experiment that left the catalog, a custom
 * kernel, a point without values, a driver's choice of group size). */
static long long result_warps(const struct wl_run *run, const struct wl_result *r, const struct build_figures *b,
			      size_t nb, const json_t *arch)
{
	const struct wl_variant_def *def;
	struct wl_launch_size size;
	struct wl_group_use use;
	struct wl_error err;
	long long items = 1;

	if (!run->exp || !r->values || !r->variant || !(def = wl_experiment_variant(run->exp, r->variant, NULL)) ||
	    wl_launch_decl_driver_chooses(&def->host) || wl_launch_decl_size(&def->host, r->values, &size, &err) < 0)
		return 0;
	for (int d = 0; d < size.dims; d++)
		items *= size.local[d] > 0 ? size.local[d] : 1;
	for (size_t i = 0; i < nb; i++) {
		if (strcmp(b[i].variant, r->variant) != 0 ||
		    !wl_exp_data_options_are(run->exp->data, r->values, b[i].options))
			continue;
		wl_build_group_use(b[i].kernel, ptxas_of(&b[i]), items, wl_launch_decl_local_arg_bytes(&def->host, r->values),
				   &use);
		return warps_of(arch, &use);
	}
	return 0;
}

/* The run's "occupancy": each variant's build first in the store's order
 * (by options) at its first launch; NULL only when out of memory. */
static json_t *variant_occupancy(const struct build_figures *b, size_t nb, const json_t *arch)
{
	json_t *out = json_object();

	for (size_t i = 0; out && i < nb; i++) {
		const json_t *first = json_array_get(json_object_get(b[i].kernel, "launches"), 0);
		struct wl_group_use use;
		json_t *occupancy;

		if (json_object_get(out, b[i].variant) || !wl_build_launch_use(b[i].kernel, ptxas_of(&b[i]), first, &use))
			continue;
		occupancy = wl_occupancy(arch, NULL, &use);
		if (json_integer_value(json_object_get(occupancy, "warps")) > 0)
			json_object_set_new(out, b[i].variant,
					    json_pack("{s:O, s:O}", "warps", json_object_get(occupancy, "warps"), "groups",
						      json_object_get(occupancy, "groups")));
		json_decref(occupancy);
	}
	return out;
}

int wl_run_add_occupancy(struct wl_run *run, struct wl_store *st, struct wl_error *err)
{
	const json_t *limits = run->cat ? run->cat->gpu_limits : NULL;
	const char *why = NULL;
	const json_t *arch = limits ? wl_gpu_limits_for(limits, run->device, &why) : NULL;
	struct build_figures *b = NULL;
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
		const char *variant = json_string_value(json_object_get(row, "variant"));
		const char *options = json_string_value(json_object_get(row, "options"));
		const char *log = json_string_value(json_object_get(row, "log"));

		if (!variant)
			continue;
		b[nb] = (struct build_figures){ variant, options ? options : "", json_object_get(row, "kernel"),
						wl_ptxas_figures(log ? log : "") };
		if (!b[nb++].ptxas_all)
			goto out;
	}
	if (!(occupancy = variant_occupancy(b, nb, arch)) || json_object_set(run->json, "occupancy", occupancy) < 0)
		goto out;
	for (i = 0; i < run->nresults; i++) {
		struct wl_result *r = &run->results[i];
		long long warps = result_warps(run, r, b, nb, arch);

		if (warps <= 0 && r->variant)
			warps = json_integer_value(json_object_get(json_object_get(occupancy, r->variant), "warps"));
		r->resident_warps = warps > 0 ? warps : 0;
	}
	rc = 0;
out:
	if (rc < 0)
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
	for (i = 0; i < nb; i++)
		json_decref(b[i].ptxas_all);
	free(b);
	json_decref(occupancy);
	json_decref(rows);
	return rc;
}
