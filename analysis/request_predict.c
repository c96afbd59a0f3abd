/* A request's kernels predicted on a device before anything runs (see
 * request_predict.h): the device's measured model, a variant's predicted
 * time from its declared accesses, and the kernel seconds a run's sampling
 * would spend at those times. */
#include "request_predict.h"

#include <string.h>

#include "catalog_cost.h"
#include "ceilings.h"
#include "clock.h"
#include "gpu_limits.h"
#include "occupancy.h"
#include "points.h"
#include "predict.h"
#include "request.h"
#include "request_own.h"
#include "warp_model.h"

int wl_request_model_init(const struct wl_catalog *cat, const json_t *normalized, const json_t *device,
			  double copy_gbps, struct wl_request_model *m)
{
	const char *why = NULL;
	const json_t *facts = json_object_get(device, "facts");
	double lane = json_number_value(json_object_get(json_object_get(facts, "dram_lane_gbps"), "value"));
	int lanes = (int)json_integer_value(json_object_get(device, "warp_width"));

	memset(m, 0, sizeof(*m));
	if (!device || !wl_device_model_from_json(device, copy_gbps > 0 ? copy_gbps : lane, 0, &m->dm) ||
	    m->dm.dram_gbps <= 0)
		return -1;
	m->lanes = lanes > 0 ? lanes : 32;
	m->arch = cat && cat->gpu_limits ? wl_gpu_limits_for(cat->gpu_limits, device, &why) : NULL;
	m->hot = wl_request_cache(normalized) == WL_CACHE_HOT;
	return 0;
}

/* dm's resident warps for def at values on m's architecture: a group of
 * items work-items with the variant's declared local memory (unknown where
 * it declares none), registers unknown. Left as they are where the
 * architecture is not known, the driver chooses the work-group size or the
 * calculator gives none. */
static void resident_warps(const struct wl_request_model *m, const struct wl_experiment *exp,
			   const struct wl_variant_def *def, const long long *values, double items,
			   struct wl_device_model *dm)
{
	struct wl_group_use use = { (long long)items, -1, -1 };
	json_t *occupancy;
	long long warps;

	if (!m->arch || items <= 0 || wl_launch_decl_driver_chooses(&def->host))
		return;
	if (wl_variant_has_cost(exp, def, WL_COST_LOCAL))
		use.local_bytes = (long long)wl_variant_cost(exp, def, WL_COST_LOCAL, values);
	occupancy = wl_occupancy(m->arch, NULL, &use);
	warps = json_integer_value(json_object_get(occupancy, "warps"));
	if (warps > 0)
		dm->resident_warps = (double)warps;
	json_decref(occupancy);
}

double wl_request_model_ms(const struct wl_request_model *m, const struct wl_experiment *exp,
			   const struct wl_variant_def *def, const long long *values, double deadline,
			   struct wl_error *err)
{
	struct wl_prediction p;
	struct wl_device_model dm = m->dm;
	struct wl_point_in in = { .exp = exp, .copy_gbps = m->dm.dram_gbps, .device = &dm, .hot = m->hot,
				  .groups_chosen = wl_launch_decl_driver_chooses(&def->host), .declared = def->model,
				  .p = &p };
	json_t *o;
	double ms;

	if (wl_model_predict(def->model, values, (int)exp->nparams, m->lanes, deadline, &p, err) < 0)
		return -1;
	resident_warps(m, exp, def, values, p.items, &dm);
	in.footprint = wl_variant_cost(exp, def, WL_COST_MEMORY, values);
	in.work = wl_variant_cost(exp, def, exp->metric == WL_METRIC_BANDWIDTH ? WL_COST_BYTES : WL_COST_OPS, values);
	o = wl_predict_point(&in);
	ms = json_is_number(json_object_get(o, "ms")) ? json_number_value(json_object_get(o, "ms")) : -1;
	json_decref(o);
	if (ms <= 0)
		wl_error_set(err, WL_ERR_INTERNAL, "the model gives no time for %s", def->id);
	return ms;
}

/* The seconds one measurement's sampling spends on kernels of ms each, by
 * stats.c's rule: it stops once the noise target is met (judged first at
 * WL_MIN_SAMPLES launches), at repeat launches, or once the budget is
 * spent, whichever comes first. At least: the first of those if the target
 * is met at its first judgement; at most: if it is never met. */
static void sampling_s(double ms, const struct wl_run_settings *s, double *least, double *most)
{
	double all = (double)s->repeat * ms, cut = (double)s->budget_ms + ms;
	double first = (double)(s->repeat < WL_MIN_SAMPLES ? s->repeat : WL_MIN_SAMPLES) * ms;
	double longest = s->noise_given && cut < all ? cut : all;

	*most += longest / 1000;
	*least += (s->noise_given && first < longest ? first : longest) / 1000;
}

int wl_request_kernel_seconds(const struct wl_catalog *cat, const json_t *normalized, const json_t *device,
			      double max_s, double *least, double *most)
{
	const json_t *variants = json_object_get(normalized, "variants");
	const struct wl_experiment *exp;
	struct wl_experiment own = { 0 };
	struct wl_request_model m;
	struct wl_run_settings s;
	struct wl_points pts = { 0 };
	struct wl_error err;
	double deadline = wl_monotonic_s() + max_s, low = 0, high = 0;
	int rc = 0;

	*least = *most = 0;
	wl_error_clear(&err);
	if (json_array_size(json_object_get(normalized, "kernels")) || !json_array_size(variants) ||
	    wl_request_model_init(cat, normalized, device, 0, &m) < 0 ||
	    wl_request_experiment(cat, normalized, &own, &exp, &err) < 0)
		return 0;
	/* normalized was written by the validator, whose fields it reads as
	 * they are: *s is complete either way. */
	(void)wl_run_settings_read(normalized, &s, &err);
	if (wl_request_points(exp, normalized, &pts, &err) < 0) {
		rc = err.kind == WL_ERR_INTERNAL ? -1 : 0;
		goto out;
	}
	for (size_t i = 0; i < pts.count; i++) {
		for (size_t v = 0; v < json_array_size(variants); v++) {
			const struct wl_variant_def *def =
				wl_experiment_variant(exp, json_string_value(json_array_get(variants, v)), NULL);
			double ms;

			if (!def || !def->model || wl_monotonic_s() > deadline)
				goto out;
			if ((ms = wl_request_model_ms(&m, exp, def, pts.values + i * pts.nparams, deadline, &err)) < 0)
				goto out;
			sampling_s(ms, &s, &low, &high);
		}
	}
	*least = low;
	*most = high;
	rc = 1;
out:
	wl_points_free(&pts);
	if (own.own)
		wl_experiment_clear(&own);
	return rc;
}
