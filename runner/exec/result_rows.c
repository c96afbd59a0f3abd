/* A run's rows in the store (see result_rows.h): each measurement as a
 * result row, a point's rows written a few at a time, and the run's time
 * budget and clocks. */
#include "result_rows.h"

#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "build_log.h"
#include "log.h"

/* The result row of one measurement at pt; params_text is the point's. */
static void measurement_row(const struct wl_point *pt, const struct wl_run_variant *rv,
			    const char *params_text, const struct wl_measurement *m,
			    struct wl_result_row *row)
{
	const struct wl_variant_def *v = &rv->def;

	*row = (struct wl_result_row){
		.variant = rv->name,
		.params_json = params_text,
		.median_ms = m->stats.median,
		.min_ms = m->stats.min,
		.max_ms = m->stats.max,
		.reps = m->reps,
		/* Not checked (its experiment's check is "none") stays so,
		 * unless the point failed. */
		.verified = m->error[0] ? 0 : m->verified < 0 ? -1 : m->verified != 0,
		.error = m->error[0] ? m->error : NULL,
		.note = m->note[0] ? m->note : NULL,
		.extra_json = m->extra[0] ? m->extra : NULL,
		.energy_json = m->energy[0] ? m->energy : NULL,
		.ci_low_ms = m->stats.ci_low,
		.ci_high_ms = m->stats.ci_high,
		.spread = wl_stats_rel_spread(&m->stats),
		.stopped = m->reps ? wl_stop_name(m->stop) : NULL,
		.discarded = m->discarded,
		.samples = m->reps ? m->samples : NULL,
	};
	if (pt->exp->metric == WL_METRIC_BANDWIDTH)
		row->bytes = m->bytes > 0 ? m->bytes : wl_variant_cost(pt->exp, v, WL_COST_BYTES, pt->values);
	else
		row->ops = m->ops > 0 ? m->ops : wl_variant_cost(pt->exp, v, WL_COST_OPS, pt->values);
}

int wl_point_results_record(struct wl_store *st, long long runner_id, long long run_id,
			    const struct wl_point *pt, const struct wl_run_variant *variants,
			    const char *params_text, struct wl_point_results *pr, size_t upto,
			    struct wl_error *err)
{
	struct wl_result_row *rows;
	double started = wl_now_ms();
	size_t n = upto - pr->recorded;
	int rc;

	if (n == 0)
		return 0;
	rows = calloc(n, sizeof(*rows));
	if (!rows) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = pr->recorded + i;

		if (pr->failures[k])
			rows[i] = (struct wl_result_row){ .variant = variants[k].name,
							  .params_json = params_text,
							  .error = pr->failures[k] };
		else
			measurement_row(pt, &variants[k], params_text, &pr->ms[k], &rows[i]);
		rows[i].device_id = pt->dev->id;
		rows[i].seq = pr->first_seq ? pr->first_seq + (long long)k : 0;
	}
	rc = wl_store_add_results(st, runner_id, run_id, rows, n, err);
	free(rows);
	if (rc == 0)
		pr->recorded = upto;
	pr->last_ms = wl_now_ms();
	wl_budget_add(pt->budget, WL_PHASE_STORE, started);
	return rc;
}

int wl_point_results_due(const struct wl_point_results *pr)
{
	return wl_now_ms() - pr->last_ms >= RECORD_EVERY_MS;
}

int wl_run_record_budget(struct wl_store *st, long long run_id, struct wl_time_budget *b,
			 double started, struct wl_error *err)
{
	json_t *o;
	char *text;
	int rc;

	b->total_ms = wl_now_ms() - started;
	o = wl_budget_json(b);
	text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
	json_decref(o);
	if (!text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	rc = wl_store_set_run_budget(st, run_id, text, err);
	free(text);
	if (rc == 0)
		wl_log_info("run %lld: %.0f ms, of which kernels %.1f ms", run_id, b->total_ms, b->kernel_ms);
	return rc;
}

int wl_run_record_clocks(struct wl_store *st, long long run_id, const struct wl_device *dev,
			 size_t flush_bytes, json_t **start, struct wl_error *err)
{
	json_t *clocks;
	char *text;
	int rc;

	if (!dev->telemetry) {
		clocks = json_pack("{s:b, s:O}", "available", 0, "why", json_object_get(dev->info, "clocks"));
	} else if (!*start) {
		*start = wl_device_clock_state(dev);
		clocks = json_pack("{s:b, s:f, s:O}", "available", 1, "peak_gbps", wl_device_peak_gbps(dev),
				   "start", *start);
	} else {
		clocks = json_pack("{s:b, s:f, s:O, s:o}", "available", 1, "peak_gbps",
				   wl_device_peak_gbps(dev), "start", *start, "end", wl_device_clock_state(dev));
	}
	text = clocks ? json_dumps(clocks, JSON_COMPACT) : NULL;
	json_decref(clocks);
	if (!text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	rc = wl_store_set_run_clocks(st, run_id, text, (long long)flush_bytes, err);
	free(text);
	return rc;
}

char *wl_custom_failure_text(struct wl_program_cache *programs, const struct wl_point *pt,
			     const struct wl_run_variant *rv, const struct wl_error *why)
{
	char *text = NULL, *shown;

	const char *what = rv->own ? "variant" : "custom kernel";

	if (why->kind == WL_ERR_BUILD && rv->own) {
		if (asprintf(&text, "variant '%s' did not build on %s; build log:\n%s", rv->name, pt->dev->id,
			     pt->backend->build_log(programs, why)) < 0)
			text = NULL;
	} else if (why->kind == WL_ERR_BUILD) {
		if (asprintf(&text, "custom kernel '%s' did not build on %s (options as for '%s'); build log:\n%s",
			     rv->name, pt->dev->id, rv->def.id, pt->backend->build_log(programs, why)) < 0)
			text = NULL;
	} else if (asprintf(&text, "%s '%s' failed: %s", what, rv->name, why->msg) < 0) {
		text = NULL;
	}
	shown = text ? wl_build_log_for_users(text) : NULL;
	free(text);
	return shown;
}
