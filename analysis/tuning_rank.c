/* A tuning run's space ranked by the model before anything is measured (see
 * analysis.h, wl_tuning_rank): every configuration the restrictions allow,
 * each requested variant (the catalog's, or an experiment of the user's own
 * that declares its accesses) predicted from its declared accesses with the
 * device's facts, a configuration scored by its fastest variant, and the
 * best "budget" of each size chosen, best first. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "points.h"
#include "request_own.h"
#include "request_predict.h"
#include "tuning.h"

/* One configuration of the space: its row of values and its score. */
struct scored {
	size_t row;
	double ms;		/* its fastest variant's predicted time */
	size_t size;		/* the first row of its size */
};

static int by_size_then_time(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* The allowed space of normalized (its restrictions, no strategy's
 * narrowing) into *pts. */
static int allowed_space(const struct wl_experiment *exp, const json_t *normalized, struct wl_points *pts,
			 struct wl_error *err)
{
	json_t *all = json_deep_copy(normalized);
	json_t *tune = json_object_get(all, "tune");
	int rc;

	if (!all || !tune) {
		json_decref(all);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	json_object_set_new(tune, "strategy", json_string("exhaustive"));
	json_object_del(tune, "budget");
	json_object_del(tune, "chosen");
	rc = wl_request_points(exp, all, pts, err);
	json_decref(all);
	return rc;
}

/* The device's measured model, its DRAM rate the float4 copy's fact where
 * no copy run set it, with its architecture's limits from cat where known;
 * -1 with err on tune.strategy where it has no facts. */
static int device_model(const struct wl_catalog *cat, const json_t *normalized, const json_t *device,
			double copy_gbps, struct wl_request_model *m, struct wl_error *err)
{
	if (wl_request_model_init(cat, normalized, device, copy_gbps, m) < 0) {
		wl_error_field(err, WL_ERR_DEVICE_LIMIT, "tune.strategy",
			       "tune.strategy: the model ranks a space with a device's measured facts, and %s has none "
			       "yet (they are measured when its runner starts); use \"random\" or \"exhaustive\"",
			       device ? json_string_value(json_object_get(device, "id")) : "no registered device");
		return -1;
	}
	return 0;
}

/* What ranking a space holds: the experiment (own: the request's, to be
 * cleared), its allowed points and each one's score, sorted by size and
 * then predicted time. */
struct ranking {
	const struct wl_experiment *exp;
	struct wl_experiment own;
	struct wl_points pts;
	struct scored *s;
};

static void ranking_free(struct ranking *k)
{
	free(k->s);
	wl_points_free(&k->pts);
	if (k->own.own)
		wl_experiment_clear(&k->own);
}

/* Every configuration normalized's restrictions allow, each variant
 * predicted on device and the configuration scored by its fastest, into
 * *k (freed by ranking_free either way). 0, or -1 with err naming why the
 * model cannot rank it (on tune.strategy). */
static int rank_space(const struct wl_catalog *cat, const json_t *normalized, const json_t *device, double copy_gbps,
		      struct ranking *k, struct wl_error *err)
{
	const json_t *tune = json_object_get(normalized, "tune"), *variants = json_object_get(normalized, "variants");
	const struct wl_variant_def *defs[64];
	struct wl_request_model m;
	size_t nvariants = json_array_size(variants);
	double deadline = wl_monotonic_s() + WL_TUNE_RANK_S;
	unsigned char tuned[WL_TUNED_MAX];

	if (json_array_size(json_object_get(normalized, "kernels"))) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "tune.strategy",
			       "tune.strategy: the model ranks variants whose accesses are declared (the catalog's, or an "
			       "experiment of your own whose variants declare them); a run with custom kernels tunes with "
			       "\"random\" or \"exhaustive\"");
		return -1;
	}
	/* The catalog's experiment, or the request's own (its definition is
	 * read as when it was checked). */
	if (wl_request_experiment(cat, normalized, &k->own, &k->exp, err) < 0)
		return -1;
	for (size_t v = 0; v < nvariants && v < 64; v++) {
		const char *id = json_string_value(json_array_get(variants, v));

		defs[v] = wl_experiment_variant(k->exp, id, NULL);
		if (!defs[v] || !defs[v]->model) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, "tune.strategy",
				       "tune.strategy: %s declares no memory accesses, so the model cannot rank it; "
				       "use \"random\" or \"exhaustive\"", id);
			return -1;
		}
	}
	if (device_model(cat, normalized, device, copy_gbps, &m, err) < 0 ||
	    allowed_space(k->exp, normalized, &k->pts, err) < 0)
		return -1;
	wl_tuned_params(k->exp, tune, tuned);
	if (!(k->s = calloc(k->pts.count ? k->pts.count : 1, sizeof(*k->s)))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	for (size_t r = 0; r < k->pts.count; r++) {
		const long long *row = k->pts.values + r * k->pts.nparams;
		struct scored *sr = &k->s[r];

		*sr = (struct scored){ .row = r, .ms = -1, .size = r };
		for (size_t first = 0; first < r; first++)
			if (k->s[first].size == first &&
			    wl_tuned_agree(k->pts.values + first * k->pts.nparams, row, k->pts.nparams, tuned, 0)) {
				sr->size = first;
				break;
			}
		for (size_t v = 0; v < nvariants; v++) {
			struct wl_error why;
			double ms = wl_request_model_ms(&m, k->exp, defs[v], row, deadline, &why);

			if (ms < 0) {
				char at[200];

				wl_point_text(k->exp, row, at, sizeof(at));
				wl_error_field(err, WL_ERR_INVALID_FIELD, "tune.strategy",
					       "tune.strategy: the model could not rank %s at %s (%s) within %d s; use "
					       "\"random\" or \"exhaustive\"", defs[v]->id, at, why.msg, WL_TUNE_RANK_S);
				return -1;
			}
			if (sr->ms < 0 || ms < sr->ms)
				sr->ms = ms;
		}
	}
	qsort(k->s, k->pts.count, sizeof(*k->s), by_size_then_time);
	return 0;
}

/* The ranked configurations of k whose rank at their size is at most
 * budget (0: all), as [{"params", "predicted_ms", "rank"}] in order; NULL
 * with err when out of memory. */
static json_t *ranked_list(const struct ranking *k, size_t budget, struct wl_error *err)
{
	json_t *list = json_array();

	for (size_t i = 0, rank = 0; list && i < k->pts.count; i++) {
		rank = i > 0 && k->s[i].size == k->s[i - 1].size ? rank + 1 : 1;
		if ((budget == 0 || rank <= budget) &&
		    json_array_append_new(list, json_pack("{s:o, s:f, s:I}", "params",
							  wl_point_to_json(k->exp, &k->pts, k->s[i].row), "predicted_ms",
							  k->s[i].ms, "rank", (json_int_t)rank)) < 0) {
			json_decref(list);
			list = NULL;
		}
	}
	if (!list)
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
	return list;
}

int wl_tuning_rank(const struct wl_catalog *cat, json_t *normalized, const json_t *device, double copy_gbps,
		   struct wl_error *err)
{
	json_t *tune = json_object_get(normalized, "tune"), *chosen;
	struct ranking k = { 0 };
	int rc = -1;

	if (!tune || strcmp(json_string_value(json_object_get(tune, "strategy")) ?: "", "model") != 0)
		return 0;
	if (rank_space(cat, normalized, device, copy_gbps, &k, err) == 0 &&
	    (chosen = ranked_list(&k, (size_t)json_integer_value(json_object_get(tune, "budget")), err))) {
		json_object_set_new(tune, "ranked", json_integer((json_int_t)k.pts.count));
		json_object_set_new(tune, "chosen", chosen);
		rc = 0;
	}
	ranking_free(&k);
	return rc;
}

int wl_tuning_rank_every(const struct wl_catalog *cat, const json_t *normalized, const json_t *device,
			 json_t **ranked, struct wl_error *err)
{
	struct ranking k = { 0 };
	int rc = -1;

	*ranked = NULL;
	if (rank_space(cat, normalized, device, 0, &k, err) == 0 && (*ranked = ranked_list(&k, 0, err)))
		rc = 0;
	ranking_free(&k);
	return rc;
}
