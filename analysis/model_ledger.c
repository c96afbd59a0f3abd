/* The model's ledger from the analysis's side (see analysis.h, "the model's
 * record"): which results of a run are points and what they count under,
 * scoring a final run into the store, and the figures of a window — the
 * points within 2×, 1.5× and 1.25×, the median and geometric-mean factor —
 * per device and per family, after scoring what the window still lacks for
 * as long as a request may wait. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

/* A prediction's figure, 0 where it is not a number above 0. */
static double positive(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : 0;
}

int wl_ledger_points(const struct wl_run *run, struct wl_ledger_point **out, size_t *n)
{
	struct wl_ledger_point *pts = calloc(run->nresults + 1, sizeof(*pts));

	*out = NULL;
	*n = 0;
	if (!pts)
		return -1;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct wl_result *r = &run->results[i];
		const json_t *p = r->prediction, *seq = json_object_get(r->json, "seq");
		double ratio = positive(p, "ratio");
		/* Compared on slowdown exactly where the model did
		 * (model/predict.c): it predicted one and the run measured one. */
		int on_slowdown = positive(p, "slowdown") > 0 && r->slowdown > 0;
		struct wl_ledger_point *pt = &pts[*n];

		if (!r->variant || !r->verified || !(r->median_ms > 0) || ratio <= 0)
			continue;
		pt->seq = json_is_integer(seq) ? json_integer_value(seq) : (long long)i + 1;
		pt->variant = r->variant;
		pt->family = wl_result_family(run, r);
		pt->compared_on = on_slowdown ? "slowdown" : "time";
		pt->predicted = on_slowdown ? positive(p, "slowdown") : positive(p, "ms");
		pt->measured = on_slowdown ? r->slowdown : r->median_ms;
		pt->factor = ratio > 1 ? ratio : 1 / ratio;
		(*n)++;
	}
	*out = pts;
	return 0;
}

int wl_ledger_score(const struct wl_run *run, struct wl_store *st, pthread_mutex_t *turn, int *scored,
		    struct wl_error *err)
{
	struct wl_ledger_point *pts = NULL;
	char had[WL_MODEL_VERSION_MAX + 16];
	size_t n = 0;
	int written = 0, rc;

	*scored = 0;
	if (!wl_run_is_final(run) || !run->device_id || !run->finished_at)
		return 0;
	if (wl_store_ledger_version(st, run->id, had, sizeof(had), err) < 0)
		return -1;
	if (strcmp(had, run->model_version) == 0) {
		*scored = 1;
		return 0;
	}
	if (wl_ledger_points(run, &pts, &n) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (turn)
		pthread_mutex_lock(turn);
	rc = wl_store_ledger_put(st, run->id, run->model_version, pts, n, &written, err);
	if (turn)
		pthread_mutex_unlock(turn);
	free(pts);
	*scored = rc == 0;
	return rc;
}

void wl_factor_stats(const double *sorted, size_t n, struct wl_factor_stats *out)
{
	double logs = 0;

	memset(out, 0, sizeof(*out));
	out->points = (long long)n;
	for (size_t i = 0; i < n; i++) {
		out->within_2 += sorted[i] <= 2;
		out->within_1_5 += sorted[i] <= 1.5;
		out->within_1_25 += sorted[i] <= 1.25;
		logs += log(sorted[i]);
	}
	if (n == 0)
		return;
	out->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	out->geomean = exp(logs / (double)n);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The figures of f[0..n) as the API shows them, sorting a copy where they
 * are not sorted, and whether the rule (model_trust.h) would call them a
 * poor record; NULL when out of memory. */
static json_t *figures_json(const double *f, size_t n, int sorted)
{
	struct wl_factor_stats s;
	struct wl_model_record rec;
	struct wl_trust t;
	double *copy = NULL;

	if (!sorted && n > 0) {
		if (!(copy = malloc(n * sizeof(*copy))))
			return NULL;
		memcpy(copy, f, n * sizeof(*copy));
		qsort(copy, n, sizeof(*copy), by_value);
		f = copy;
	}
	wl_factor_stats(f, n, &s);
	free(copy);
	/* Whether the rule would call these points a poor record. */
	rec = (struct wl_model_record){ NULL, s.points, s.median };
	wl_model_trust(0, &rec, 0, &t);
	return json_pack("{s:I, s:I, s:I, s:I, s:o, s:o, s:b}", "points", (json_int_t)s.points, "within_2x",
			 (json_int_t)s.within_2, "within_1_5x", (json_int_t)s.within_1_5, "within_1_25x",
			 (json_int_t)s.within_1_25, "median_factor", n ? json_real(s.median) : json_null(),
			 "geomean_factor", n ? json_real(s.geomean) : json_null(), "poor", t.kind == WL_TRUST_POOR_RECORD);
}

/* The points of a window as the store gives them (by device and family),
 * grouped as they come: every factor in one array, a device's and a
 * family's from where each began. */
struct grouping {
	double *f;
	size_t n, cap;
	size_t device_from, family_from;
	char device[256], family[128];
	json_t *devices, *families;	/* the devices closed; the open device's families */
};

/* Close the open family: its factors sorted in place. */
static int close_family(struct grouping *g)
{
	json_t *o;

	if (g->family_from == g->n)
		return 0;
	qsort(g->f + g->family_from, g->n - g->family_from, sizeof(*g->f), by_value);
	o = figures_json(g->f + g->family_from, g->n - g->family_from, 1);
	if (!o || json_object_set_new(o, "family", json_string(g->family)) < 0 ||
	    json_array_append_new(g->families, o) < 0)
		return -1;
	g->family_from = g->n;
	return 0;
}

/* Close the open device with its families. */
static int close_device(struct grouping *g)
{
	json_t *all, *entry;

	if (close_family(g) < 0)
		return -1;
	if (g->device_from == g->n)
		return 0;
	all = figures_json(g->f + g->device_from, g->n - g->device_from, 0);
	/* The entry takes the families, made or not: the next device's are new. */
	entry = all ? json_pack("{s:s, s:o, s:o}", "device", g->device, "all", all, "families", g->families) : NULL;
	if (!all)
		json_decref(g->families);
	g->families = json_array();
	g->device_from = g->n;
	return entry && json_array_append_new(g->devices, entry) == 0 && g->families ? 0 : -1;
}

static int add_point(void *ctx, const char *device, const char *family, double factor, struct wl_error *err)
{
	struct grouping *g = ctx;

	if (g->n > g->device_from && strcmp(device ? device : "", g->device) != 0 && close_device(g) < 0)
		goto oom;
	if (g->n > g->family_from && strcmp(family ? family : "", g->family) != 0 && close_family(g) < 0)
		goto oom;
	snprintf(g->device, sizeof(g->device), "%s", device ? device : "");
	snprintf(g->family, sizeof(g->family), "%s", family ? family : "");
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 1024;
		double *more = realloc(g->f, cap * sizeof(*more));

		if (!more)
			goto oom;
		g->f = more;
		g->cap = cap;
	}
	g->f[g->n++] = factor;
	return 0;
oom:
	wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
	return -1;
}

/* Sort the objects of list by their key's text, byte by byte: the same
 * order on either engine, whatever its collation. A few entries: an
 * insertion sort. */
static void sort_by(json_t *list, const char *key)
{
	size_t n = json_array_size(list);

	for (size_t i = 1; i < n; i++) {
		json_t *o = json_incref(json_array_get(list, i));
		const char *k = json_string_value(json_object_get(o, key));
		size_t j = i;

		while (j > 0 && strcmp(json_string_value(json_object_get(json_array_get(list, j - 1), key)), k) > 0) {
			json_array_set(list, j, json_array_get(list, j - 1));
			j--;
		}
		json_array_set_new(list, j, o);
	}
}

static json_t *text_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Score what the window lacks, the newest first, while the budget lasts:
 * *scored runs of the batch. */
static int score_some(const struct wl_catalog *cat, struct wl_store *st, const long long *ids, size_t n,
		      pthread_mutex_t *turn, long long *scored, struct wl_error *err)
{
	double until = wl_monotonic_s() + WL_ACCURACY_BUDGET_S;

	*scored = 0;
	for (size_t i = 0; i < n && wl_monotonic_s() < until; i++) {
		struct wl_run run;
		int done = 0, rc;

		if (wl_run_load(cat, st, ids[i], &run, err) < 0)
			return -1;
		rc = wl_ledger_score(&run, st, turn, &done, err);
		wl_run_free(&run);
		if (rc < 0)
			return -1;
		*scored += done;
	}
	return 0;
}

int wl_model_accuracy(const struct wl_catalog *cat, struct wl_store *st, const struct wl_ledger_window *w,
		      pthread_mutex_t *turn, json_t **out, struct wl_error *err)
{
	struct grouping g = { 0 };
	char version[WL_MODEL_VERSION_MAX];
	long long ids[WL_ACCURACY_BATCH], unscored, elsewhere, scored = 0;
	size_t nids;
	json_t *body = NULL, *all;
	int rc = -1;

	*out = NULL;
	wl_model_version(cat, version, sizeof(version));
	if (wl_store_ledger_unscored(st, version, w, ids, WL_ACCURACY_BATCH, &nids, &unscored, &elsewhere, err) < 0 ||
	    score_some(cat, st, ids, nids, turn, &scored, err) < 0)
		goto out;
	/* What is still to come, counted again where some were scored. */
	if (scored > 0 && wl_store_ledger_unscored(st, version, w, ids, 0, &nids, &unscored, &elsewhere, err) < 0)
		goto out;
	g.devices = json_array();
	g.families = json_array();
	if (!g.devices || !g.families) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	if (wl_store_ledger_each(st, version, w, add_point, &g, err) < 0)
		goto out;
	if (close_device(&g) < 0 || !(all = figures_json(g.f, g.n, 0))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	sort_by(g.devices, "device");
	for (size_t i = 0; i < json_array_size(g.devices); i++)
		sort_by(json_object_get(json_array_get(g.devices, i), "families"), "family");
	body = json_pack("{s:s, s:o, s:o, s:o, s:I, s:I, s:I, s:o, s:O}", "model_version", version, "since",
			 text_or_null(w->since), "until", text_or_null(w->until), "device", text_or_null(w->device),
			 "scored_now", (json_int_t)scored, "runs_pending", (json_int_t)unscored,
			 "runs_pending_other_version", (json_int_t)elsewhere, "all", all, "devices", g.devices);
	if (!body) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	*out = body;
	rc = 0;
out:
	free(g.f);
	json_decref(g.devices);
	json_decref(g.families);
	return rc;
}
