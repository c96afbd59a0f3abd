/* A claimed run made ready to execute (see run_plan.h): its experiment and
 * family, its device, its points, its variants with custom kernels in the
 * place of their like variants, its sampling and its provenance. */
#include "run_plan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cold_flush.h"
#include "backend.h"
#include "energy.h"
#include "device_fit.h"
#include "request.h"
#include "rng.h"
#include "tuning.h"

static struct wl_device *find_device(struct wl_devices *devs, const char *id)
{
	for (size_t i = 0; i < devs->count; i++)
		if (strcmp(devs->list[i].id, id) == 0)
			return &devs->list[i];
	return NULL;
}

void wl_run_plan_free(struct wl_run_plan *p)
{
	for (size_t k = 0; p->variants && k < p->nvariants; k++)
		wl_source_free(&p->variants[k].source);
	wl_run_request_free(&p->req);
	free(p->variants);
	free(p->defs);
	wl_source_free(&p->source);
	wl_build_records_clear(&p->builds);
	free(p->inputs_of);
}

/* A tuning run's inputs_of: each point's size's first point. -1 when out of
 * memory. */
static int plan_inputs(struct wl_run_plan *p, struct wl_error *why)
{
	const json_t *tune = json_object_get(p->req.json, "tune");
	const struct wl_points *pts = &p->req.pts;
	unsigned char tuned[WL_TUNED_MAX];

	if (!tune || wl_tuned_params(p->exp, tune, tuned) < 0 || pts->count == 0)
		return 0;
	if (!(p->inputs_of = calloc(pts->count, sizeof(*p->inputs_of)))) {
		wl_error_set(why, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < pts->count; i++) {
		size_t j = 0;

		while (j < i && !wl_tuned_agree(pts->values + i * pts->nparams, pts->values + j * pts->nparams,
						pts->nparams, tuned, 0))
			j++;
		p->inputs_of[i] = j;
	}
	return 0;
}

uint64_t wl_run_plan_point_seed(const struct wl_run_plan *p, size_t i)
{
	return wl_rng_derive(p->seed, p->inputs_of ? p->inputs_of[i] : i);
}

int wl_run_variant_make(const struct wl_experiment *exp, const json_t *request, size_t k,
			struct wl_run_variant *rv, struct wl_error *why)
{
	json_t *variants = json_object_get(request, "variants");
	json_t *kernels = json_object_get(request, "kernels");
	size_t nbuiltin = json_array_size(variants);
	const json_t *custom = k < nbuiltin ? NULL : json_array_get(kernels, k - nbuiltin);
	const char *id = custom ? json_string_value(json_object_get(custom, "like")) :
		json_string_value(json_array_get(variants, k));
	const struct wl_variant_def *def = id ? wl_experiment_variant(exp, id, NULL) : NULL;

	memset(rv, 0, sizeof(*rv));
	if (!def) {
		wl_error_set(why, WL_ERR_CONFIG, "variant '%s' is not in this runner's catalog",
			     id ? id : "?");
		return -1;
	}
	rv->def = *def;
	rv->name = def->id;
	if (!custom)
		return 0;
	rv->custom = 1;
	rv->name = json_string_value(json_object_get(custom, "name"));
	rv->def.kernel = (char *)json_string_value(json_object_get(custom, "entry"));
	if (!rv->name || !rv->def.kernel ||
	    wl_source_from_text(json_string_value(json_object_get(custom, "source")), &rv->source,
				why) < 0) {
		wl_error_set(why, WL_ERR_CONFIG, "custom kernel %zu of the request is malformed",
			     k - nbuiltin);
		return -1;
	}
	return 0;
}

/* The run's variants: the built-ins it names, then its custom kernels. */
static int plan_variants(struct wl_run_plan *p, struct wl_error *why)
{
	size_t total = p->req.nvariants;

	p->variants = calloc(total + 1, sizeof(*p->variants));
	p->defs = calloc(total + 1, sizeof(*p->defs));
	if (!p->variants || !p->defs) {
		wl_error_set(why, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < total; k++) {
		if (wl_run_variant_make(p->exp, p->req.json, k, &p->variants[k], why) < 0)
			return -1;
		p->nvariants++;
		p->defs[k] = &p->variants[k].def;
	}
	return 0;
}

/* An own experiment's variants are all someone else's code: each runs as
 * a custom kernel does (confined, its failures failing its point, its
 * crash said to be its own), with the experiment's source as its own, in
 * the place of nothing. */
static int own_variants(struct wl_run_plan *p, struct wl_error *why)
{
	for (size_t k = 0; p->exp->own && k < p->nvariants; k++) {
		struct wl_run_variant *rv = &p->variants[k];

		rv->custom = 1;
		rv->own = 1;
		if (wl_source_from_text(p->source.text, &rv->source, why) < 0)
			return -1;
	}
	return 0;
}

/* The run's provenance: the family source's hash, and when the run has custom
 * kernels "+" a hash over their names and sources, so the recorded hash
 * changes whenever any code that ran changes. */
static void plan_source_hash(struct wl_run_plan *p)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int any = 0;

	for (size_t k = 0; k < p->nvariants; k++) {
		const struct wl_run_variant *rv = &p->variants[k];

		if (!rv->custom)
			continue;
		any = 1;
		h ^= wl_fnv1a64(rv->name, strlen(rv->name) + 1);
		h *= 0x100000001b3ULL;
		h ^= wl_fnv1a64(rv->source.text, rv->source.len);
		h *= 0x100000001b3ULL;
	}
	if (any)
		snprintf(p->source_hash, sizeof(p->source_hash), "%s+%016llx", p->source.hash,
			 (unsigned long long)h);
	else
		snprintf(p->source_hash, sizeof(p->source_hash), "%s", p->source.hash);
}


/* The backend of the request's language (a run queued before the field
 * existed is OpenCL's), where the device runs it and the experiment has
 * kernels in it; else why says what the device said of it. */
static int plan_backend(struct wl_run_plan *p, struct wl_error *why)
{
	const char *reason = wl_device_cuda_reason(p->dev->info);

	p->backend = wl_backend_for(p->req.settings.language);
	if (!wl_device_runs(p->dev->info, p->req.settings.language)) {
		wl_error_set(why, WL_ERR_CONFIG, "%s does not run %s here: %s", p->dev->id,
			     wl_language_name(p->req.settings.language), reason ? reason : "no reason given");
		return -1;
	}
	if (!p->backend->family_source(p->exp)) {
		wl_error_set(why, WL_ERR_CONFIG, "%s has no %s kernels in the catalog", p->exp->id, p->backend->name);
		return -1;
	}
	return 0;
}

int wl_run_plan_make(const struct wl_catalog *cat, struct wl_devices *devs,
		     const char *kernels_dir, const char *unconfined, const struct wl_claim *claim,
		     struct wl_run_plan *p, struct wl_error *why)
{
	struct wl_device_limits limits;
	json_t *stored;
	char path[4096];
	int rc;

	memset(p, 0, sizeof(*p));
	p->dev = find_device(devs, claim->device_id);
	if (!p->dev) {
		wl_error_set(why, WL_ERR_CONFIG, "device '%s' is not available on this runner",
			     claim->device_id);
		return -1;
	}
	stored = json_loads(claim->request_json, 0, NULL);
	if (!stored) {
		wl_error_set(why, WL_ERR_INTERNAL, "the stored request is not valid JSON");
		return -1;
	}
	/* The experiment: the catalog's, or the request's own definition. */
	rc = wl_run_request_parse(cat, stored, &p->req, why);
	json_decref(stored);
	if (rc < 0 && why->kind == WL_ERR_UNKNOWN_EXPERIMENT)
		wl_error_set(why, WL_ERR_CONFIG, "experiment '%s' is not in this runner's catalog", claim->experiment);
	if (rc < 0)
		return -1;
	p->exp = p->req.exp;
	p->ops = wl_experiment_ops_find(p->exp);
	if (!p->ops) {
		wl_error_set(why, WL_ERR_CONFIG, "experiment '%s' is not in this runner's catalog", claim->experiment);
		return -1;
	}
	if (plan_backend(p, why) < 0)
		return -1;
	wl_device_limits(p->dev, &limits);
	if (wl_request_check_device(p->exp, p->req.json, &limits, why) < 0)
		return -1;
	if (plan_variants(p, why) < 0)
		return -1;
	for (size_t k = 0; unconfined && k < p->nvariants; k++)
		if (p->variants[k].custom) {
			wl_error_set(why, WL_ERR_CONFIG,
				     "custom kernel '%s' not run: this runner cannot confine the kernels it builds (%s), so it runs none but the catalog's; docs/operations.md, \"Other people's kernels\", says what to do",
				     p->variants[k].name, unconfined);
			return -1;
		}
	/* What an older request's absent fields mean is wl_run_settings_read's. */
	p->repeat = p->req.settings.repeat;
	p->seed = (unsigned long long)p->req.settings.seed;
	p->cold = p->req.settings.cache == WL_CACHE_COLD;
	p->noise_driven = p->req.settings.noise_given;
	p->counters = p->backend->counted && p->req.settings.counters;
	p->energy = p->req.settings.energy;
	p->sampling.max_samples = (size_t)p->repeat;
	p->sampling.min_samples = WL_MIN_SAMPLES < p->repeat ? WL_MIN_SAMPLES : (size_t)p->repeat;
	p->sampling.target = p->req.settings.noise;
	p->sampling.budget_ms = (double)p->req.settings.budget_ms;
	if (p->exp->own) {
		if (wl_source_from_text(p->backend->family_source(p->exp), &p->source, why) < 0)
			return -1;
	} else {
		snprintf(path, sizeof(path), "%s/%s", kernels_dir, p->backend->family_source(p->exp));
		if (wl_source_load(path, &p->source, why) < 0)
			return -1;
	}
	if (own_variants(p, why) < 0 || plan_inputs(p, why) < 0)
		return -1;
	plan_source_hash(p);
	return 0;
}

int wl_run_plan_defaults(const struct wl_catalog *cat, struct wl_devices *devs, const char *kernels_dir,
			 const struct wl_experiment *e, const char *device_id, struct wl_run_plan *p,
			 struct wl_error *why)
{
	json_t *body = json_pack("{s:s, s:s}", "experiment", e->id, "device", device_id), *req = NULL;
	struct wl_claim claim = { 0 };
	long long measurements;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (!body) {
		wl_error_set(why, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_request_validate(cat, body, &req, &measurements, why) == 0) {
		claim.experiment = (char *)e->id;
		claim.device_id = (char *)device_id;
		claim.request_json = json_dumps(req, JSON_COMPACT);
		if (!claim.request_json)
			wl_error_set(why, WL_ERR_INTERNAL, "out of memory");
		else
			rc = wl_run_plan_make(cat, devs, kernels_dir, NULL, &claim, p, why);
	}
	free(claim.request_json);
	json_decref(body);
	json_decref(req);
	return rc;
}

size_t wl_run_plan_flush_bytes(const struct wl_run_plan *p, size_t flush_max)
{
	return p->cold ? wl_cache_flush_bytes(p->dev, json_integer_value(json_object_get(
					      json_object_get(p->dev->info, "cache"), "bytes")), flush_max) : 0;
}

double wl_run_plan_extra_seconds(const struct wl_run_plan *p, long long warmup, size_t flush_max)
{
	double flush = (double)wl_run_plan_flush_bytes(p, flush_max);
	double budget = p->noise_driven ? p->sampling.budget_ms / 1000 : 0;

	return budget + (double)(p->repeat + warmup) * flush / WL_FLOOR_RATE + (p->energy ? WL_ENERGY_VARIANT_S : 0);
}
