/* What a run's sentences may say of the model (see analysis.h, "trust"):
 * the model's record on the run's device for its families, read from the
 * ledger, and each result judged by model_trust.h's one rule — the
 * verdict's words ask it through the result's trust, the departure
 * sentence is worded by it here. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

const char *wl_result_family(const struct wl_run *run, const struct wl_result *r)
{
	if (run->own)
		return "own experiment";
	if (r->custom)
		return "custom";
	return run->experiment ? run->experiment : "";
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The record of family on the run's device into *rec, from the ledger:
 * the latest points of the runs that ended before it. */
static int read_record(const struct wl_run *run, struct wl_store *st, const char *family,
		       struct wl_model_record *rec, struct wl_error *err)
{
	double factors[WL_TRUST_RECORD_RECENT];
	size_t n = 0;

	memset(rec, 0, sizeof(*rec));
	rec->family = family;
	/* As of the run's end, as its copy ceiling is: the runs before it, so
	 * that a finished run reads the same once they are scored. */
	if (wl_store_ledger_recent(st, run->model_version, run->device_id, family, run->finished_at, run->id, factors,
				   WL_TRUST_RECORD_RECENT, &n, err) < 0)
		return -1;
	if (n == 0)
		return 0;
	qsort(factors, n, sizeof(factors[0]), by_value);
	rec->points = (long long)n;
	rec->median_factor = n % 2 ? factors[n / 2] : (factors[n / 2 - 1] + factors[n / 2]) / 2;
	return 0;
}

static json_t *record_json(const struct wl_model_record *rec)
{
	struct wl_trust t;

	wl_model_trust(0, rec, 0, &t);
	return json_pack("{s:s, s:I, s:o, s:b}", "family", rec->family, "points", (json_int_t)rec->points,
			 "median_factor", rec->points ? json_real(rec->median_factor) : json_null(), "poor",
			 t.kind == WL_TRUST_POOR_RECORD);
}

/* Whether the run has a result of a custom kernel. */
static int has_custom(const struct wl_run *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (run->results[i].custom)
			return 1;
	return 0;
}

/* Result r judged, its prediction's JSON told what the rule found and its
 * departure worded by it. -1 when out of memory. */
static int judge(struct wl_run *run, struct wl_result *r)
{
	json_t *p = (json_t *)r->prediction;
	const json_t *ratio = json_object_get(p, "ratio");
	const struct wl_model_record *rec = r->custom && !run->own ? &run->custom_record : &run->record;
	double q = json_is_number(ratio) ? json_number_value(ratio) : 0;

	wl_model_trust(q, rec->points ? rec : NULL, run->cpu, &r->trust);
	if (!json_is_object(p) || json_object_get(p, "pending") || json_object_get(p, "error"))
		return 0;
	if (json_object_set_new(p, "explains", json_boolean(r->trust.kind == WL_TRUST_CITE)) < 0 ||
	    json_object_set_new(p, "trust", r->trust.kind == WL_TRUST_MISSES_POINT ? json_string("point")
					   : r->trust.kind == WL_TRUST_POOR_RECORD ? json_string("record")
					   : json_null()) < 0)
		return -1;
	/* A departure is beyond the point's factor: the rule says it, with no
	 * cause (the model's own wording named one). */
	if (json_is_string(json_object_get(p, "departure")) && q > 0) {
		char text[1024];

		wl_trust_departure(&r->trust, q, text, sizeof(text));
		if (json_object_set_new(p, "departure", json_string(text)) < 0)
			return -1;
	}
	return 0;
}

int wl_run_add_trust(struct wl_run *run, struct wl_store *st, struct wl_error *err)
{
	json_t *records = json_array();
	int rc = -1;

	if (!records)
		goto oom;
	memset(&run->record, 0, sizeof(run->record));
	memset(&run->custom_record, 0, sizeof(run->custom_record));
	if (run->device_id && run->exp) {
		if (read_record(run, st, run->own ? "own experiment" : run->experiment, &run->record, err) < 0)
			goto out;
		if (json_array_append_new(records, record_json(&run->record)) < 0)
			goto oom;
		if (!run->own && has_custom(run)) {
			if (read_record(run, st, "custom", &run->custom_record, err) < 0)
				goto out;
			if (json_array_append_new(records, record_json(&run->custom_record)) < 0)
				goto oom;
		}
	}
	for (size_t i = 0; i < run->nresults; i++)
		if (judge(run, &run->results[i]) < 0)
			goto oom;
	/* The departures as the rule has worded them, gathered over the run. */
	if (wl_run_add_departures(run) < 0)
		goto oom;
	/* The run holds the list from here, set or not. */
	rc = json_object_set_new(run->json, "model_record", records);
	records = NULL;
	if (rc == 0)
		return 0;
oom:
	wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
out:
	json_decref(records);
	return -1;
}
