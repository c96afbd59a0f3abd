/* A stored run read into its typed form (see analysis.h): the one place the
 * analysis reads the run's JSON field by field. The request's settings are
 * wl_run_settings_read's, so what an absent field means is said in
 * catalog/request.h and nowhere here. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_load.h"
#include "points.h"
#include "request_own.h"

static const char *text(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A figure: its value where o holds a number under key, NAN otherwise. */
static double figure(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static enum wl_run_status status_of(const char *s)
{
	static const char *const names[] = { "queued", "running", "done", "failed", "cancelled" };

	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0)
			return (enum wl_run_status)i;
	return WL_RUN_UNKNOWN;
}

static void read_counts(const json_t *c, struct wl_counts *out)
{
	out->global_load_requests = figure(c, "global_load_requests");
	out->global_load_sectors = figure(c, "global_load_sectors");
	out->global_store_requests = figure(c, "global_store_requests");
	out->global_store_sectors = figure(c, "global_store_sectors");
	out->shared_load_wavefronts = figure(c, "shared_load_wavefronts");
	out->shared_load_bank_conflicts = figure(c, "shared_load_bank_conflicts");
	out->dram_read_bytes = figure(c, "dram_read_bytes");
	out->dram_write_bytes = figure(c, "dram_write_bytes");
	out->l2_hit_pct = figure(c, "l2_hit_pct");
}

/* Result o of the run into r; values has room for the experiment's params. */
static void read_result(const struct wl_experiment *exp, json_t *o, long long *values, struct wl_result *r)
{
	const json_t *extra = json_object_get(o, "extra"), *energy = json_object_get(o, "energy");

	r->json = o;
	r->variant = text(o, "variant");
	r->params = json_object_get(o, "params");
	r->values = exp && wl_point_from_json(exp, r->params, values) == 0 ? values : NULL;
	r->median_ms = figure(o, "median_ms");
	r->min_ms = figure(o, "min_ms");
	r->max_ms = figure(o, "max_ms");
	r->ci_low_ms = figure(o, "ci_low_ms");
	r->ci_high_ms = figure(o, "ci_high_ms");
	r->spread = figure(o, "spread");
	r->bytes = figure(o, "bytes");
	r->ops = figure(o, "ops");
	r->gbps = figure(o, "gbps");
	r->gops = figure(o, "gops");
	r->reps = figure(o, "reps");
	r->unchecked = json_is_null(json_object_get(o, "verified"));
	r->verified = json_is_true(json_object_get(o, "verified")) || (r->unchecked && !isnan(r->median_ms));
	r->stopped = text(o, "stopped");
	r->error = text(o, "error");
	r->counters = json_object_get(extra, "counters");
	read_counts(r->counters, &r->counts);
	r->counters_error = text(extra, "counters_error");
	r->counters_pending = json_is_true(json_object_get(extra, "counters_pending"));
	r->energy = json_is_object(energy) ? json_incref((json_t *)energy) : NULL;
	r->j_per_launch = figure(energy, "j_per_launch");
	r->j_above_idle_per_launch = figure(energy, "j_above_idle_per_launch");
	r->energy_error = text(energy, "error");
	r->slowdown = r->rate_low = r->rate_high = r->ci_pct = r->ceiling_pct = NAN;
	r->dram_read_bytes = r->dram_write_bytes = NAN;
	r->energy_per_work = -1;
}

/* The request's built-ins and custom kernels, and the variants they make. */
static int read_variants(struct wl_run *run, const json_t *request)
{
	const json_t *builtins = json_object_get(request, "variants"), *kernels = json_object_get(request, "kernels");
	size_t i;

	run->nbuiltins = json_array_size(builtins);
	run->nkernels = json_array_size(kernels);
	run->builtins = calloc(run->nbuiltins + 1, sizeof(*run->builtins));
	run->kernels = calloc(run->nkernels + 1, sizeof(*run->kernels));
	run->variants = calloc(run->nbuiltins + run->nkernels + 1, sizeof(*run->variants));
	if (!run->builtins || !run->kernels || !run->variants)
		return -1;
	for (i = 0; i < run->nbuiltins; i++) {
		const char *id = json_string_value(json_array_get(builtins, i));
		const struct wl_variant_def *def = run->exp && id ? wl_experiment_variant(run->exp, id, NULL) : NULL;

		run->builtins[i] = id;
		run->variants[run->nvariants++] = (struct wl_run_variant){ id, def && def->title ? def->title : id, 0 };
	}
	for (i = 0; i < run->nkernels; i++) {
		const json_t *k = json_array_get(kernels, i);
		struct wl_run_kernel *c = &run->kernels[i];

		c->name_json = json_object_get(k, "name");
		c->like_json = json_object_get(k, "like");
		c->name = json_string_value(c->name_json);
		c->like = json_string_value(c->like_json);
		c->entry = json_object_get(k, "entry");
		c->source = json_object_get(k, "source");
		c->accesses = json_object_get(k, "accesses");
		if (c->name)
			run->variants[run->nvariants++] = (struct wl_run_variant){ c->name, c->name, 1 };
	}
	return 0;
}

static void read_device(struct wl_run *run)
{
	const json_t *warp;

	run->device = json_object_get(run->json, "device");
	run->device_id = text(run->device, "id");
	warp = json_object_get(run->device, "warp_width");
	run->lanes = json_is_integer(warp) && json_integer_value(warp) > 0 ? (int)json_integer_value(warp) : 32;
	/* As the model reads a device (model/ceilings.c): no warp width, a CPU. */
	run->cpu = json_is_object(run->device) && !(json_number_value(warp) > 0);
	run->cache_bytes = json_integer_value(json_object_get(json_object_get(run->device, "cache"), "bytes"));
	/* The share of the theoretical peak, where NVML told it. */
	run->peak_gbps = json_real_value(json_object_get(json_object_get(run->json, "clocks"), "peak_gbps"));
}

static int read_results(struct wl_run *run)
{
	json_t *results = json_object_get(run->json, "results"), *traces = json_object_get(run->json, "traces");
	size_t width = run->exp ? run->exp->nparams + 1 : 1, i;
	long long *values;

	run->has_results = json_is_array(results);
	run->nresults = json_array_size(results);
	run->ntraces = json_array_size(traces);
	run->results = calloc(run->nresults + 1, sizeof(*run->results));
	run->traces = calloc(run->ntraces + 1, sizeof(*run->traces));
	/* Every result's point in one block. */
	values = calloc((run->nresults + 1) * width, sizeof(*values));
	if (!run->results || !run->traces || !values) {
		free(values);
		return -1;
	}
	for (i = 0; i < run->nresults; i++)
		read_result(run->exp, json_array_get(results, i), values + i * width, &run->results[i]);
	run->point_block = values;
	for (i = 0; i < run->ntraces; i++) {
		const json_t *t = json_array_get(traces, i);

		run->traces[i] = (struct wl_run_trace){ text(t, "variant"), json_object_get(t, "params"),
							json_object_get(t, "figures") };
	}
	return 0;
}

int wl_run_read(const struct wl_catalog *cat, json_t *stored, struct wl_run *out, struct wl_error *err)
{
	const json_t *request = json_object_get(stored, "request");
	const char *explain = text(stored, "explain");

	memset(out, 0, sizeof(*out));
	out->json = json_incref(stored);
	out->cat = cat;
	wl_model_version(cat, out->model_version, sizeof(out->model_version));
	out->id = json_integer_value(json_object_get(stored, "id"));
	out->requeues = json_integer_value(json_object_get(stored, "requeues"));
	out->experiment = text(stored, "experiment");
	out->exp = cat && out->experiment ? wl_catalog_find(cat, out->experiment) : NULL;
	/* An experiment of the run's own is its stored definition, read as it
	 * was when queued; one that no longer reads leaves the run shown
	 * without its experiment. */
	if (wl_request_own_definition(request) && (out->own = calloc(1, sizeof(*out->own)))) {
		struct wl_error ignored;

		if (wl_experiment_load_own(wl_request_own_definition(request), out->own, &ignored) == 0) {
			out->exp = out->own;
		} else {
			free(out->own);
			out->own = NULL;
			out->exp = NULL;
		}
	}
	out->url = text(stored, "url");
	out->source_hash = text(stored, "source_hash");
	out->finished_at = text(stored, "finished_at");
	out->status = status_of(text(stored, "status"));
	out->explain_pending = explain && strcmp(explain, "pending") == 0;
	/* A field no validator writes reads as absent: a stored run is still
	 * shown. */
	(void)wl_run_settings_read(request, &out->settings, NULL);
	read_device(out);
	if (read_variants(out, request) < 0 || read_results(out) < 0) {
		wl_run_free(out);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return 0;
}

void wl_run_free(struct wl_run *run)
{
	for (size_t i = 0; run->results && i < run->nresults; i++)
		json_decref(run->results[i].energy);
	free(run->point_block);
	free(run->results);
	free(run->traces);
	free(run->builtins);
	free(run->kernels);
	free(run->variants);
	if (run->own)
		wl_experiment_clear(run->own);
	free(run->own);
	json_decref(run->json);
	memset(run, 0, sizeof(*run));
}

int wl_run_is_finished(const struct wl_run *run)
{
	return run->status == WL_RUN_DONE || run->status == WL_RUN_FAILED || run->status == WL_RUN_CANCELLED;
}

int wl_run_is_settled(const struct wl_run *run)
{
	return wl_run_is_finished(run) && !run->explain_pending;
}

int wl_run_is_final(const struct wl_run *run)
{
	return wl_run_is_settled(run) && !run->predictions_pending;
}

long long wl_result_param(const struct wl_result *r, const char *name)
{
	return json_integer_value(json_object_get(r->params, name));
}

const char *wl_run_metric(const struct wl_run *run)
{
	return run->exp && run->exp->metric == WL_METRIC_THROUGHPUT ? "gops" : "gbps";
}

double wl_result_rate(const struct wl_run *run, const struct wl_result *r)
{
	return run->exp && run->exp->metric == WL_METRIC_THROUGHPUT ? r->gops : r->gbps;
}

char *wl_sweep_key(const struct wl_result *r, const char *param)
{
	json_t *params = json_deep_copy(r->params);
	char *text, *key = NULL;

	if (!params || !r->variant) {
		json_decref(params);
		return NULL;
	}
	json_object_del(params, param);
	text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(params);
	if (text && asprintf(&key, "%s|%s", r->variant, text) < 0)
		key = NULL;
	free(text);
	return key;
}
