/* Request validation against the repository's catalog: good requests pass and
 * count their measurements; bad ones fail with the API's error kind, naming
 * the field and the value; expansion and the device check. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "catalog.h"
#include "check.h"
#include "clock.h"
#include "device_fit.h"
#include "gpu_limits.h"
#include "points.h"
#include "request.h"
#include "request_predict.h"

static int validate(const struct wl_catalog *cat, const char *text, json_t **norm,
		    long long *count, struct wl_error *err)
{
	json_t *body = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	int rc;

	CHECK(body != NULL, "test request is not JSON: %s", text);
	if (!body)
		return -1;
	rc = wl_request_validate(cat, body, norm, count, err);
	json_decref(body);
	return rc;
}

/* A request refused: its body, and the error's kind, field and a part of
 * its message. */
struct refusal {
	const char *body;
	enum wl_error_kind kind;
	const char *field, *message;
};

/* Each of rows refused as it says, leaving no request behind. */
static void expect_refusals(const struct wl_catalog *cat, const struct refusal *rows, size_t n)
{
	for (size_t i = 0; cat && i < n; i++) {
		json_t *norm = NULL;
		long long count;
		struct wl_error err;

		wl_error_clear(&err);
		CHECK(validate(cat, rows[i].body, &norm, &count, &err) < 0, "row %zu (%s) passed", i,
		      rows[i].body);
		CHECK(norm == NULL, "row %zu: no request on failure", i);
		CHECK(err.kind == rows[i].kind, "row %zu (%s): kind %s, expected %s", i, rows[i].body,
		      wl_error_code(err.kind), wl_error_code(rows[i].kind));
		CHECK(strcmp(err.field, rows[i].field) == 0, "row %zu (%s): field '%s', expected '%s'", i,
		      rows[i].body, err.field, rows[i].field);
		CHECK(strstr(err.msg, rows[i].message) != NULL, "row %zu (%s): message '%s' lacks '%s'",
		      i, rows[i].body, err.msg, rows[i].message);
		json_decref(norm);
	}
}

void test_request_accepts_good_requests(void)
{
	static const struct {
		const char *body;
		long long measurements;
	} rows[] = {
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":1024,\"step\":256}}}", 5 * 4 },
		{ "{\"experiment\":\"transpose\"}", 5 * 16 },
		{ "{\"experiment\":\"transpose\",\"variants\":[\"naive\",\"padded\"],\"params\":{\"n\":[256,512,4096]}}", 2 * 3 },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":8192,\"tile\":16,\"rows\":16}}", 5 },
		{ "{\"experiment\":\"transpose\",\"params\":{\"tile\":{\"from\":8,\"to\":32,\"mul\":2},\"n\":256}}", 5 * 3 },
		{ "{\"experiment\":\"copy\",\"device\":\"gpu\",\"repeat\":1,\"seed\":0,\"label\":\"ceiling\"}", 3 },
		{ "{\"experiment\":\"copy\",\"repeat\":1000,\"seed\":9007199254740991,\"label\":null}", 3 },
		{ "{\"experiment\":\"copy\",\"params\":{\"n\":1024,\"local\":[64,128,256,512,1024]}}", 15 },
		{ "{\"experiment\":\"copy\",\"label\":\"\xc3\xa9t\xc3\xa9\"}", 3 },
		{ "{\"experiment\":\"copy\",\"cache\":\"hot\",\"noise\":0.005,\"budget_ms\":250}", 3 },
	};
	struct wl_catalog *cat = check_load_catalog();

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *norm = NULL;
		long long count = 0;
		struct wl_error err;

		wl_error_clear(&err);
		CHECK(validate(cat, rows[i].body, &norm, &count, &err) == 0, "row %zu (%s): %s", i,
		      rows[i].body, err.msg);
		CHECK(count == rows[i].measurements, "row %zu: %lld measurements, expected %lld", i,
		      count, rows[i].measurements);
		json_decref(norm);
	}
	wl_catalog_free(cat);
}

void test_request_rejects_bad_requests(void)
{
	static const struct refusal rows[] = {
		{ "[1,2]", WL_ERR_BAD_JSON, "", "must be a JSON object" },
		{ "{}", WL_ERR_INVALID_FIELD, "experiment", "is required" },
		{ "{\"experiment\":7}", WL_ERR_INVALID_FIELD, "experiment", "expected a catalog experiment's id" },
		{ "{\"experiment\":\"nope\"}", WL_ERR_UNKNOWN_EXPERIMENT, "experiment", "'nope' is not in the catalog" },
		{ "{\"experiment\":\"copy\",\"colour\":1}", WL_ERR_INVALID_FIELD, "colour", "unknown field" },
		{ "{\"experiment\":\"copy\",\"variants\":[]}", WL_ERR_INVALID_FIELD, "variants", "non-empty" },
		{ "{\"experiment\":\"copy\",\"variants\":\"float\"}", WL_ERR_INVALID_FIELD, "variants", "non-empty array" },
		{ "{\"experiment\":\"copy\",\"variants\":[\"float8\"]}", WL_ERR_UNKNOWN_VARIANT, "variants[0]", "'float8' is not a variant of copy" },
		{ "{\"experiment\":\"copy\",\"variants\":[\"float\",\"float\"]}", WL_ERR_INVALID_FIELD, "variants[1]", "listed twice" },
		{ "{\"experiment\":\"copy\",\"variants\":[3]}", WL_ERR_INVALID_FIELD, "variants[0]", "expected a string" },
		{ "{\"experiment\":\"copy\",\"params\":[]}", WL_ERR_INVALID_FIELD, "params", "expected an object" },
		{ "{\"experiment\":\"copy\",\"params\":{\"m\":1}}", WL_ERR_INVALID_PARAM, "params.m", "no such parameter" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":100000}}", WL_ERR_INVALID_PARAM, "params.n", "100000 is above the maximum 32768" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":0}}", WL_ERR_INVALID_PARAM, "params.n", "0 is below the minimum 32" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":-256}}", WL_ERR_INVALID_PARAM, "params.n", "-256 is below the minimum" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":1000}}", WL_ERR_INVALID_PARAM, "params.n", "1000 is not a multiple of params.tile (32)" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":256.5}}", WL_ERR_INVALID_PARAM, "params.n", "256.5 is not an integer" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":\"256\"}}", WL_ERR_INVALID_PARAM, "params.n", "got a string" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":true}}", WL_ERR_INVALID_PARAM, "params.n", "got a boolean" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":[]}}", WL_ERR_INVALID_PARAM, "params.n", "1 to 1024 values" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":[256,256]}}", WL_ERR_INVALID_PARAM, "params.n[1]", "appears twice" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":[256,\"x\"]}}", WL_ERR_INVALID_PARAM, "params.n[1]", "expected an integer" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":1024,\"to\":256}}}", WL_ERR_INVALID_PARAM, "params.n", "backwards" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256}}}", WL_ERR_INVALID_PARAM, "params.n.to", "needs 'from' and 'to'" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":512,\"step\":0}}}", WL_ERR_INVALID_PARAM, "params.n.step", "positive integer" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":512,\"step\":-32}}}", WL_ERR_INVALID_PARAM, "params.n.step", "positive integer" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":512,\"step\":32,\"mul\":2}}}", WL_ERR_INVALID_PARAM, "params.n", "not both" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":512,\"by\":2}}}", WL_ERR_INVALID_PARAM, "params.n.by", "unknown key" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":512,\"mul\":1}}}", WL_ERR_INVALID_PARAM, "params.n.mul", "multiplier is 2..1024" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":32,\"to\":32768,\"step\":32}}}", WL_ERR_TOO_MANY_POINTS, "params", "more than the 1024 measurements" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":0,\"to\":1099511627776,\"step\":1}}}", WL_ERR_TOO_MANY_POINTS, "params.n", "yields" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":257,\"step\":1}}}", WL_ERR_INVALID_PARAM, "params.n", "257 is not a multiple of params.tile" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"tile\":48}}", WL_ERR_INVALID_PARAM, "params.tile", "not a power of two" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"tile\":8,\"rows\":16}}", WL_ERR_INVALID_PARAM, "params.tile", "not a multiple of params.rows" },
		{ "{\"experiment\":\"copy\",\"params\":{\"n\":1026}}", WL_ERR_INVALID_PARAM, "params.n", "1026 is not a multiple of 4" },
		{ "{\"experiment\":\"copy\",\"repeat\":0}", WL_ERR_INVALID_FIELD, "repeat", "0 is not allowed" },
		{ "{\"experiment\":\"copy\",\"repeat\":10001}", WL_ERR_INVALID_FIELD, "repeat", "10001 is not allowed" },
		{ "{\"experiment\":\"copy\",\"repeat\":\"10\"}", WL_ERR_INVALID_FIELD, "repeat", "a string is not allowed" },
		{ "{\"experiment\":\"copy\",\"seed\":-1}", WL_ERR_INVALID_FIELD, "seed", "from 0 to" },
		{ "{\"experiment\":\"copy\",\"seed\":9007199254740992}", WL_ERR_INVALID_FIELD, "seed", "from 0 to" },
		{ "{\"experiment\":\"copy\",\"device\":\"GPU 0\"}", WL_ERR_INVALID_FIELD, "device", "expected a device id" },
		{ "{\"experiment\":\"copy\",\"device\":\"\"}", WL_ERR_INVALID_FIELD, "device", "expected a device id" },
		{ "{\"experiment\":\"copy\",\"label\":5}", WL_ERR_INVALID_FIELD, "label", "expected a string" },
		{ "{\"experiment\":\"copy\",\"language\":\"fortran\"}", WL_ERR_INVALID_FIELD, "language", "'fortran' is not allowed (\"opencl\", the default, or \"cuda\")" },
		{ "{\"experiment\":\"copy\",\"language\":3}", WL_ERR_INVALID_FIELD, "language", "an integer is not allowed" },
		{ "{\"experiment\":\"copy\",\"language\":\"cuda\",\"kernels\":[{\"name\":\"k\",\"like\":\"float\",\"source\":\"x\",\"language\":\"opencl\"}]}",
		  WL_ERR_INVALID_FIELD, "kernels[0].language", "a run is in one language" },
		{ "{\"experiment\":\"copy\",\"label\":\"a\\nb\"}", WL_ERR_INVALID_FIELD, "label", "control characters" },
		{ "{\"experiment\":\"copy\",\"cache\":\"warm\"}", WL_ERR_INVALID_FIELD, "cache", "'warm' is not allowed" },
		{ "{\"experiment\":\"copy\",\"cache\":1}", WL_ERR_INVALID_FIELD, "cache", "an integer is not allowed" },
		{ "{\"experiment\":\"copy\",\"noise\":0}", WL_ERR_INVALID_FIELD, "noise", "from 0.0001 to 0.5" },
		{ "{\"experiment\":\"copy\",\"noise\":\"1%\"}", WL_ERR_INVALID_FIELD, "noise", "as a fraction" },
		{ "{\"experiment\":\"copy\",\"budget_ms\":0}", WL_ERR_INVALID_FIELD, "budget_ms", "from 1 to 60000" },
		{ "{\"experiment\":\"copy\",\"budget_ms\":1.5}", WL_ERR_INVALID_FIELD, "budget_ms", "an integer" },
	};
	struct wl_catalog *cat = check_load_catalog();

	expect_refusals(cat, rows, sizeof(rows) / sizeof(rows[0]));
	/* Labels are limited in characters, not bytes. */
	if (cat) {
		char body[1200];
		json_t *norm = NULL;
		long long count;
		struct wl_error err;

		strcpy(body, "{\"experiment\":\"copy\",\"label\":\"");
		for (int i = 0; i < 200; i++)
			strcat(body, "\xc3\xa9");
		strcat(body, "\"}");
		CHECK(validate(cat, body, &norm, &count, &err) == 0, "200 two-byte characters: %s", err.msg);
		json_decref(norm);
		norm = NULL;
		strcpy(body + strlen(body) - 2, "x\"}");
		CHECK(validate(cat, body, &norm, &count, &err) < 0 && strstr(err.msg, "201 characters"),
		      "201 characters must fail: %s", err.msg);
		json_decref(norm);
	}
	wl_catalog_free(cat);
}

void test_request_fills_defaults_and_seed(void)
{
	struct wl_catalog *cat = check_load_catalog();
	json_t *a = NULL, *b = NULL;
	long long count;
	struct wl_error err;

	if (!cat)
		return;
	CHECK(validate(cat, "{\"experiment\":\"transpose\",\"params\":{\"n\":512}}", &a, &count, &err) == 0,
	      "%s", err.msg);
	CHECK(validate(cat, "{\"experiment\":\"transpose\",\"params\":{\"n\":512}}", &b, &count, &err) == 0,
	      "%s", err.msg);
	if (a && b) {
		json_t *params = json_object_get(a, "params");

		CHECK(json_integer_value(json_object_get(params, "tile")) == 32, "tile defaults to 32");
		CHECK(json_integer_value(json_object_get(params, "rows")) == 8, "rows defaults to 8");
		CHECK(json_integer_value(json_object_get(params, "n")) == 512, "n kept");
		CHECK(json_integer_value(json_object_get(a, "repeat")) == 100, "repeat (at most) defaults to 100");
		CHECK(strcmp(json_string_value(json_object_get(a, "cache")), "cold") == 0,
		      "a bandwidth experiment is cold by default");
		CHECK(json_real_value(json_object_get(a, "noise")) == 0.01, "±1%% by default");
		CHECK(json_integer_value(json_object_get(a, "budget_ms")) == 1000, "1 s by default");
		CHECK(strcmp(json_string_value(json_object_get(a, "device")), "auto") == 0, "device auto");
		CHECK(json_array_size(json_object_get(a, "variants")) == 5, "all variants by default");
		CHECK(json_is_integer(json_object_get(a, "seed")), "a seed is drawn");
		CHECK(!json_equal(json_object_get(a, "seed"), json_object_get(b, "seed")),
		      "two drawn seeds differ");
		CHECK(json_object_get(a, "label") == NULL, "no label unless given");
		CHECK(strcmp(json_string_value(json_object_get(a, "language")), "opencl") == 0, "OpenCL by default");
	}
	json_decref(a);
	json_decref(b);
	wl_catalog_free(cat);
}

/* "counters" is "on" (also when absent) or "off", as given; anything else is
 * refused naming the field, the value and what is allowed. */
void test_request_reads_counters_on_or_off(void)
{
	static const struct {
		const char *body;
		const char *counters;	/* normalized; NULL: refused */
		const char *message;	/* in the refusal */
	} rows[] = {
		{ "{\"experiment\":\"copy\"}", "on", NULL },
		{ "{\"experiment\":\"copy\",\"language\":\"cuda\"}", "on", NULL },
		{ "{\"experiment\":\"copy\",\"language\":\"cuda\",\"counters\":\"on\"}", "on", NULL },
		{ "{\"experiment\":\"copy\",\"language\":\"cuda\",\"counters\":\"off\"}", "off", NULL },
		{ "{\"experiment\":\"banks\",\"counters\":\"off\"}", "off", NULL },
		{ "{\"experiment\":\"copy\",\"counters\":\"none\"}", NULL,
		  "counters: 'none' is not allowed (\"on\", the default" },
		{ "{\"experiment\":\"copy\",\"counters\":\"OFF\"}", NULL, "'OFF' is not allowed" },
		{ "{\"experiment\":\"copy\",\"counters\":false}", NULL, "counters: a boolean is not allowed" },
		{ "{\"experiment\":\"copy\",\"counters\":0}", NULL, "counters: an integer is not allowed" },
		{ "{\"experiment\":\"copy\",\"counters\":null}", NULL, "or \"off\"; a tuning run of code of your own" },
	};
	struct wl_catalog *cat = check_load_catalog();

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *norm = NULL;
		long long count = 0;
		struct wl_error err;
		int rc;

		wl_error_clear(&err);
		rc = validate(cat, rows[i].body, &norm, &count, &err);
		if (rows[i].counters) {
			const char *got = json_string_value(json_object_get(norm, "counters"));

			CHECK(rc == 0, "row %zu (%s): %s", i, rows[i].body, err.msg);
			CHECK(got && strcmp(got, rows[i].counters) == 0, "row %zu (%s): counters '%s', expected '%s'",
			      i, rows[i].body, got ? got : "(none)", rows[i].counters);
		} else {
			CHECK(rc < 0 && norm == NULL, "row %zu (%s) passed", i, rows[i].body);
			CHECK(err.kind == WL_ERR_INVALID_FIELD && strcmp(err.field, "counters") == 0,
			      "row %zu (%s): kind %s, field '%s', expected invalid_field on counters", i, rows[i].body,
			      wl_error_code(err.kind), err.field);
			CHECK(strstr(err.msg, rows[i].message) != NULL, "row %zu (%s): message '%s' lacks '%s'", i,
			      rows[i].body, err.msg, rows[i].message);
		}
		json_decref(norm);
	}
	wl_catalog_free(cat);
}

void test_points_expand_in_catalog_order(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *t = cat ? wl_catalog_find(cat, "transpose") : NULL;
	json_t *norm = NULL;
	struct wl_points pts = { 0 };
	struct wl_error err;
	long long count;

	if (!t)
		return;
	CHECK(validate(cat,
		       "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":768,\"step\":256},\"tile\":[16,32]}}",
		       &norm, &count, &err) == 0,
	      "%s", err.msg);
	CHECK(wl_request_points(t, norm, &pts, &err) == 0, "%s", err.msg);
	CHECK(pts.count == 6, "3 n x 2 tile = 6 points, got %zu", pts.count);
	if (pts.count == 6) {
		int n = wl_experiment_param(t, "n"), tile = wl_experiment_param(t, "tile");
		static const long long want[6][2] = { { 256, 16 }, { 256, 32 }, { 512, 16 },
						      { 512, 32 }, { 768, 16 }, { 768, 32 } };

		for (size_t i = 0; i < 6; i++) {
			const long long *row = pts.values + i * pts.nparams;

			CHECK(row[n] == want[i][0] && row[tile] == want[i][1],
			      "point %zu is n=%lld tile=%lld, expected n=%lld tile=%lld", i, row[n],
			      row[tile], want[i][0], want[i][1]);
		}
		{
			json_t *p = wl_point_to_json(t, &pts, 5);

			CHECK(json_integer_value(json_object_get(p, "n")) == 768 &&
				      json_integer_value(json_object_get(p, "rows")) == 8,
			      "point JSON holds every param");
			json_decref(p);
		}
	}
	wl_points_free(&pts);
	json_decref(norm);
	/* A multiplying range. */
	norm = json_loads("{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":32,\"to\":1000,\"mul\":2},\"tile\":32,\"rows\":8}}", 0, NULL);
	CHECK(wl_request_points(t, norm, &pts, &err) == 0, "%s", err.msg);
	CHECK(pts.count == 5, "32,64,128,256,512: got %zu", pts.count);
	wl_points_free(&pts);
	json_decref(norm);
	wl_catalog_free(cat);
}

/* Each expanded point of a tuning request meets the catalog's constraints
 * and the restrictions; (tile, rows) as a pair of the transpose. */
static int tuned_points_hold(const struct wl_experiment *t, const struct wl_points *pts, long long max_product)
{
	int tile = wl_experiment_param(t, "tile"), rows = wl_experiment_param(t, "rows"), n = wl_experiment_param(t, "n");

	for (size_t i = 0; i < pts->count; i++) {
		const long long *row = pts->values + i * pts->nparams;

		if (row[tile] % row[rows] || row[n] % row[tile] || row[tile] * row[rows] > max_product)
			return 0;
	}
	return 1;
}

/* A tuning request: the params marked to tune form the space at each size,
 * settings that do not go together and those a restriction rules out are
 * left out (not refused), "exhaustive" measures all that is left and
 * "random" a budget of it per size, the same budget for the same seed. */
void test_tuning_selects_the_space(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *t = cat ? wl_catalog_find(cat, "transpose") : NULL;
	json_t *norm = NULL, *again = NULL;
	struct wl_points pts = { 0 }, same = { 0 };
	struct wl_error err;
	long long count = 0;

	if (!t)
		return;
	/* tile 8: rows 1-8 (4); tile 16: rows 1-8, 16x16 over 128 (4); tile
	 * 32: rows 1-4 (3): 11 configurations, 5 variants each. */
	CHECK(validate(cat,
		       "{\"experiment\":\"transpose\",\"params\":{\"n\":256,\"tile\":[8,16,32],\"rows\":[1,2,4,8,16]},"
		       "\"restrict\":[\"tile * rows <= 128\"],\"tune\":{\"params\":[\"tile\",\"rows\"]}}",
		       &norm, &count, &err) == 0, "%s", err.msg);
	CHECK(count == 11 * 5, "%lld measurements, expected 55", count);
	CHECK(json_is_string(json_object_get(json_object_get(norm, "tune"), "strategy")) &&
		      strcmp(json_string_value(json_object_get(json_object_get(norm, "tune"), "strategy")), "exhaustive") == 0 &&
		      json_integer_value(json_object_get(json_object_get(norm, "tune"), "space")) == 15,
	      "the strategy defaults to exhaustive over a space of 3 x 5");
	CHECK(json_is_false(json_object_get(norm, "energy")) &&
		      strcmp(json_string_value(json_object_get(json_object_get(norm, "tune"), "objective")) ?: "", "time") == 0,
	      "the objective defaults to time, energy not measured");
	CHECK(wl_request_points(t, norm, &pts, &err) == 0 && pts.count == 11 && tuned_points_hold(t, &pts, 128),
	      "11 points, each allowed: %zu (%s)", pts.count, err.msg);
	wl_points_free(&pts);
	json_decref(norm);
	norm = NULL;
	/* An objective of energy measures it. */
	CHECK(validate(cat,
		       "{\"experiment\":\"transpose\",\"params\":{\"n\":256,\"tile\":[8,16]},"
		       "\"tune\":{\"params\":[\"tile\"],\"objective\":\"both\"}}", &again, &count, &err) == 0 &&
		      json_is_true(json_object_get(again, "energy")),
	      "objective both turns energy on: %s", err.msg);
	json_decref(again);
	again = NULL;
	/* Random: 4 of the 11 at each of two sizes, the same 4 again. */
	CHECK(validate(cat,
		       "{\"experiment\":\"transpose\",\"variants\":[\"tiled\"],\"seed\":7,\"params\":{\"n\":[256,512],"
		       "\"tile\":[8,16,32],\"rows\":[1,2,4,8,16]},\"restrict\":[\"tile * rows <= 128\"],"
		       "\"tune\":{\"params\":[\"tile\",\"rows\"],\"strategy\":\"random\",\"budget\":4}}",
		       &norm, &count, &err) == 0, "%s", err.msg);
	CHECK(count == 8, "%lld measurements, expected 4 at each of 2 sizes", count);
	again = json_deep_copy(norm);
	CHECK(norm && wl_request_points(t, norm, &pts, &err) == 0 && wl_request_points(t, again, &same, &err) == 0,
	      "%s", err.msg);
	CHECK(pts.count == 8 && tuned_points_hold(t, &pts, 128), "8 allowed points, got %zu", pts.count);
	CHECK(same.count == pts.count && memcmp(same.values, pts.values, pts.count * pts.nparams * sizeof(long long)) == 0,
	      "the same seed draws the same configurations");
	if (pts.count == 8) {
		int n = wl_experiment_param(t, "n");

		CHECK(pts.values[3 * pts.nparams + n] == 256 && pts.values[4 * pts.nparams + n] == 512,
		      "4 at n = 256, then 4 at n = 512");
	}
	wl_points_free(&pts);
	wl_points_free(&same);
	json_decref(again);
	json_decref(norm);
	norm = NULL;
	/* Another seed, another draw (of C(11, 4) = 330 ways). */
	CHECK(validate(cat,
		       "{\"experiment\":\"transpose\",\"variants\":[\"tiled\"],\"seed\":8,\"params\":{\"n\":256,"
		       "\"tile\":[8,16,32],\"rows\":[1,2,4,8,16]},\"restrict\":[\"tile * rows <= 128\"],"
		       "\"tune\":{\"params\":[\"tile\",\"rows\"],\"strategy\":\"random\",\"budget\":4}}",
		       &norm, &count, &err) == 0 && wl_request_points(t, norm, &pts, &err) == 0, "%s", err.msg);
	json_decref(norm);
	norm = json_loads("{\"experiment\":\"transpose\",\"variants\":[\"tiled\"],\"seed\":7,\"params\":{\"n\":256,"
			  "\"tile\":[8,16,32],\"rows\":[1,2,4,8,16]},\"restrict\":[\"tile * rows <= 128\"],"
			  "\"tune\":{\"params\":[\"tile\",\"rows\"],\"strategy\":\"random\",\"budget\":4}}", 0, NULL);
	CHECK(wl_request_points(t, norm, &same, &err) == 0 && same.count == 4 && pts.count == 4 &&
		      memcmp(same.values, pts.values, 4 * pts.nparams * sizeof(long long)) != 0,
	      "seeds 7 and 8 draw different configurations");
	wl_points_free(&pts);
	wl_points_free(&same);
	json_decref(norm);
	wl_catalog_free(cat);
}

/* Bad tuning requests: each a 4xx naming the field. */
void test_tuning_refuses_bad_requests(void)
{
	static const struct refusal rows[] = {
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"m\"]}}", WL_ERR_INVALID_PARAM, "tune.params[0]", "'m' is not a parameter of transpose (allowed: n, tile, rows)" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[]}}", WL_ERR_INVALID_FIELD, "tune.params", "an empty list" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"tile\",\"tile\"]}}", WL_ERR_INVALID_PARAM, "tune.params[1]", "tuned twice" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"tile\"],\"strategy\":\"random\",\"budget\":0}}", WL_ERR_INVALID_FIELD, "tune.budget", "0 is not allowed" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"tile\"],\"strategy\":\"random\"}}", WL_ERR_INVALID_FIELD, "tune.budget", "nothing is not allowed" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"tile\"],\"strategy\":\"model\",\"budget\":-2}}", WL_ERR_INVALID_FIELD, "tune.budget", "-2 is not allowed" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"tile\"],\"budget\":4}}", WL_ERR_INVALID_FIELD, "tune.budget", "a budget is for \"random\"" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"tile\"],\"strategy\":\"annealing\"}}", WL_ERR_INVALID_FIELD, "tune.strategy", "'annealing' is not allowed (allowed: exhaustive, random, model)" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"tile\"],\"objective\":\"power\"}}", WL_ERR_INVALID_FIELD, "tune.objective", "'power' is not allowed (allowed: time, energy, both)" },
		{ "{\"experiment\":\"transpose\",\"energy\":false,\"tune\":{\"params\":[\"tile\"],\"objective\":\"both\"}}", WL_ERR_INVALID_FIELD, "tune.objective", "'both' is not allowed with \"energy\": false" },
		{ "{\"experiment\":\"transpose\",\"tune\":{\"params\":[\"tile\"],\"speed\":1}}", WL_ERR_INVALID_FIELD, "tune.speed", "unknown field" },
		{ "{\"experiment\":\"transpose\",\"tune\":[\"tile\"]}", WL_ERR_INVALID_FIELD, "tune", "expected an object" },
		{ "{\"experiment\":\"transpose\",\"restrict\":[\"tile *\"]}", WL_ERR_INVALID_FIELD, "restrict[0]", "restrict[0]:" },
		{ "{\"experiment\":\"transpose\",\"restrict\":[\"colour > 2\"]}", WL_ERR_INVALID_FIELD, "restrict[0]", "names allowed: n, tile, rows" },
		{ "{\"experiment\":\"transpose\",\"restrict\":\"tile < 8\"}", WL_ERR_INVALID_FIELD, "restrict", "expected a list" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":256,\"tile\":[8,16]},\"restrict\":[\"tile > 64\"]}", WL_ERR_INVALID_FIELD, "restrict", "none of the 2 configurations" },
		{ "{\"experiment\":\"banks\",\"params\":{\"groups\":{\"from\":1,\"to\":1024,\"step\":1},\"iters\":{\"from\":32,\"to\":32768,\"step\":32}},\"tune\":{\"params\":[\"groups\",\"iters\"],\"strategy\":\"random\",\"budget\":10}}", WL_ERR_TOO_MANY_POINTS, "tune.params", "more than the 100000 a tuning run may search" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":8192,\"step\":256},\"tile\":[8,16,32],\"rows\":[1,2,4,8]},\"tune\":{\"params\":[\"tile\",\"rows\"]}}", WL_ERR_TOO_MANY_POINTS, "tune", "left to measure is more than the 1024 measurements" },
	};
	struct wl_catalog *cat = check_load_catalog();

	expect_refusals(cat, rows, sizeof(rows) / sizeof(rows[0]));
	wl_catalog_free(cat);
}

/* The model strategy ranks on a device's measured facts: without a device,
 * or for custom kernels, it says so on tune.strategy and chooses nothing. */
void test_tuning_rank_says_when_the_model_cannot_rank(void)
{
	struct wl_catalog *cat = check_load_catalog();
	json_t *norm = NULL;
	struct wl_error err;
	long long count = 0;

	if (!cat)
		return;
	CHECK(validate(cat,
		       "{\"experiment\":\"transpose\",\"params\":{\"n\":256,\"tile\":[8,16,32],\"rows\":[1,2,4,8,16]},"
		       "\"tune\":{\"params\":[\"tile\",\"rows\"],\"strategy\":\"model\",\"budget\":3}}",
		       &norm, &count, &err) == 0, "%s", err.msg);
	CHECK(count == 3 * 5, "before the ranking, its budget's count: %lld", count);
	wl_error_clear(&err);
	CHECK(norm && wl_tuning_rank(cat, norm, NULL, 0, &err) < 0 && err.kind == WL_ERR_DEVICE_LIMIT &&
		      strcmp(err.field, "tune.strategy") == 0 && strstr(err.msg, "measured facts"),
	      "no device: %s", err.msg);
	CHECK(!json_object_get(json_object_get(norm, "tune"), "chosen"), "nothing chosen");
	json_decref(norm);
	norm = json_loads("{\"experiment\":\"transpose\",\"variants\":[\"tiled\"],\"params\":{\"n\":256},"
			  "\"kernels\":[{\"name\":\"mine\",\"like\":\"tiled\",\"source\":\"\"}],"
			  "\"tune\":{\"params\":[\"tile\"],\"strategy\":\"model\",\"budget\":1}}", 0, NULL);
	wl_error_clear(&err);
	CHECK(norm && wl_tuning_rank(cat, norm, NULL, 0, &err) < 0 && strstr(err.msg, "custom kernels"),
	      "custom kernels: %s", err.msg);
	json_decref(norm);
	wl_catalog_free(cat);
}

void test_device_check_refuses_what_does_not_fit(void)
{
	static const struct {
		const char *body;
		const char *expect;	/* NULL: fits */
	} rows[] = {
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":4096}}", NULL },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":32768}}", "of device memory" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":16384}}", "buffer" },
		{ "{\"experiment\":\"transpose\",\"params\":{\"n\":4096,\"tile\":64,\"rows\":64}}", "work-groups of 4096" },
		{ "{\"experiment\":\"transpose\",\"variants\":[\"padded\"],\"params\":{\"n\":4096,\"tile\":64,\"rows\":8}}", "local memory" },
		{ "{\"experiment\":\"transpose\",\"variants\":[\"naive\"],\"params\":{\"n\":4096,\"tile\":64,\"rows\":8}}", NULL },
	};
	/* A small device: 4 GiB, 512 MiB buffers, 16 KiB local, 1024 work-items. */
	struct wl_device_limits dev = { "small-gpu-0", 4.0 * (1 << 30), 512.0 * (1 << 20), 16384, 1024 };
	struct wl_catalog *cat = check_load_catalog();

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *norm = NULL;
		long long count;
		struct wl_error err;
		int rc;

		wl_error_clear(&err);
		if (validate(cat, rows[i].body, &norm, &count, &err) < 0) {
			CHECK(0, "row %zu should validate: %s", i, err.msg);
			continue;
		}
		rc = wl_request_check_device(wl_catalog_find(cat, "transpose"), norm, &dev, &err);
		if (!rows[i].expect) {
			CHECK(rc == 0, "row %zu should fit: %s", i, err.msg);
		} else {
			CHECK(rc < 0 && err.kind == WL_ERR_DEVICE_LIMIT, "row %zu should not fit", i);
			CHECK(strstr(err.msg, rows[i].expect) && strstr(err.msg, "small-gpu-0"),
			      "row %zu: message '%s' lacks '%s' or the device", i, err.msg, rows[i].expect);
		}
		json_decref(norm);
	}
	wl_catalog_free(cat);
}

/* Ranking knows each configuration's occupancy before it is built: the
 * transpose's padded tile of 64 with one row a work-item needs 16.6 KB of
 * local memory a group of 64, so an H200's compute unit holds 13 of them
 * (26 warps) and its loads' latency shows; with 8 rows a group of 512, it
 * holds 4 (64 warps), as the model took every configuration to be. */
void test_ranking_predicts_at_each_configurations_occupancy(void)
{
	struct wl_catalog *cat = check_load_catalog();
	json_t *device = json_pack("{s:s, s:s, s:s, s:i, s:i, s:{s:i}, s:{s:{s:f}, s:{s:f}, s:{s:f}, s:{s:f}}}", "id",
				   "nvidia-h200-0", "vendor", "NVIDIA Corporation", "compute_capability", "9.0",
				   "compute_units", 132, "warp_width", 32, "cache", "bytes", 62914560, "facts", "launch_us",
				   "value", 4.3, "latency_ns", "value", 317.6, "warp_interval_ns", "value", 82.6,
				   "groups_per_us", "value", 1650.0);
	json_t *normalized = json_pack("{s:s}", "cache", "cold");
	const struct wl_experiment *exp = cat ? wl_catalog_find(cat, "transpose") : NULL;
	const struct wl_variant_def *padded = exp ? wl_experiment_variant(exp, "padded", NULL) : NULL;
	struct wl_request_model m;
	const char *why = NULL;
	struct wl_error err;
	long long at[3];
	double ms[2][2];

	CHECK(padded && device && normalized && wl_request_model_init(cat, normalized, device, 4000, &m) == 0,
	      "the model of an H200");
	if (!padded || !device || !normalized)
		goto out;
	/* The model as init made it, its architecture known; then without. */
	const json_t *known = m.arch;

	for (int arch = 0; arch < 2; arch++) {
		m.arch = arch ? known : NULL;
		for (int k = 0; k < 2; k++) {
			for (size_t i = 0; i < exp->nparams; i++)
				at[i] = strcmp(exp->params[i].name, "n") == 0 ? 8192 : strcmp(exp->params[i].name, "tile") == 0 ? 64
												     : k ? 8 : 1;
			ms[arch][k] = wl_request_model_ms(&m, exp, padded, at, wl_monotonic_s() + 60, &err);
		}
	}
	CHECK(known != NULL && known == wl_gpu_limits_for(cat->gpu_limits, device, &why), "the H200's limits: %s",
	      why ? why : "");
	CHECK(ms[0][0] > 0 && ms[1][0] > 1.05 * ms[0][0], "one row: 26 warps resident, %g ms against %g at 64",
	      ms[1][0], ms[0][0]);
	CHECK(ms[0][1] > 0 && fabs(ms[1][1] - ms[0][1]) < 1e-9 * ms[0][1], "eight rows: 64 warps either way, %g and %g",
	      ms[1][1], ms[0][1]);
out:
	json_decref(device);
	json_decref(normalized);
	wl_catalog_free(cat);
}
