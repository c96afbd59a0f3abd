/* The inputs an experiment declares as data (exp_data.h, declared_fill.h)
 * and the catalog's checks by reference (references.h): every value a
 * reference computes from an index is the value the fill wrote (and the
 * device's fill writes the same: rng.h's functions are the device kernel's),
 * the new inits read and refuse what they should, and a catalog naming a
 * reference or an output the runner does not have cannot start. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "declared_fill.h"
#include "exp_data.h"
#include "experiment.h"
#include "references.h"
#include "rng.h"

static const char *const PARAMS[] = { "n", "items" };
static const char *const VARIANTS[] = { "a", "b" };
static const struct wl_exp_data_names NAMES = { PARAMS, 2, VARIANTS, 2 };

/* Read text (an experiment's data) as the catalog (fields 0) or a request. */
static int load(const char *text, int fields, struct wl_exp_data **out, struct wl_error *err)
{
	json_t *obj = json_loads(text, 0, NULL);
	int rc;

	wl_error_clear(err);
	rc = obj ? wl_exp_data_load(obj, &NAMES, "e", fields, out, err) : -1;
	json_decref(obj);
	return rc;
}

void test_declared_inputs_match_their_generators(void)
{
	static const char text[] =
		"{\"buffers\": ["
		"{\"name\": \"d\", \"type\": \"float\", \"count\": \"n*n\", \"init\": \"random\"},"
		"{\"name\": \"t\", \"type\": \"float\", \"count\": \"n*n\", \"init\": \"transpose:d\"},"
		"{\"name\": \"s\", \"type\": \"float\", \"count\": \"n\", \"init\": \"nonzero_int:8\"},"
		"{\"name\": \"k\", \"type\": \"int\", \"count\": 1, \"init\": \"constant:n/items\"},"
		"{\"name\": \"w\", \"type\": \"double\", \"count\": \"n\", \"init\": \"random\"},"
		"{\"name\": \"r\", \"type\": \"float\", \"count\": \"n\", \"output\": true}],"
		"\"check\": {\"reference\": \"copy\"}}";
	const long long values[] = { 16, 4 };
	struct wl_exp_data *d = NULL;
	struct wl_error err;
	float dv[256], tv[256], sv[16];
	int32_t kv;
	int zero = 0, wide = 0;

	CHECK(load(text, 0, &d, &err) == 0, "%s", err.msg);
	if (!d)
		return;
	CHECK(d->check.kind == WL_CHECK_REFERENCE && strcmp(d->check.reference, "copy") == 0, "the reference is read");
	CHECK(wl_exp_data_check_point(d, values, 0, &err) == 0, "%s", err.msg);
	{
		struct wl_fill_at at_d = { .seed = 11, .values = values }, at_s = { .seed = 12, .values = values };
		struct wl_fill_at at_t = { .seed = 13, .values = values, .source = &d->buffers[0], .source_seed = 11 };
		struct wl_fill_at at_k = { .seed = 14, .values = values };

		CHECK(wl_declared_fill(&d->buffers[0], 256, &at_d, dv) == 0 && wl_declared_fill(&d->buffers[1], 256, &at_t, tv) == 0 &&
		      wl_declared_fill(&d->buffers[2], 16, &at_s, sv) == 0 && wl_declared_fill(&d->buffers[3], 1, &at_k, &kv) == 0,
		      "the fills run");
		for (size_t i = 0; i < 256; i++) {
			/* The device's random floats are rng.h's: the same values. */
			CHECK(dv[i] == wl_rng_float_at(11, i) && dv[i] == (float)wl_declared_value_at(&d->buffers[0], &at_d, i),
			      "d[%zu]", i);
			CHECK(tv[i] == dv[(i % 16) * 16 + i / 16], "t[%zu] is d transposed", i);
		}
		for (size_t i = 0; i < 16; i++) {
			zero += sv[i] == 0;
			wide += sv[i] < -8 || sv[i] > 8;
			CHECK(sv[i] == wl_rng_small_int_at(12, i, 8) && sv[i] == (float)wl_declared_value_at(&d->buffers[2], &at_s, i),
			      "s[%zu]", i);
		}
		{
			/* The references' inlined generators give the same lanes:
			 * the power of two's mask and another max's remainder. */
			struct wl_buffer_def six = d->buffers[2];
			const struct wl_lane_gen g8 = wl_lane_gen(&d->buffers[2], &at_s);

			six.init.hi = 6;
			for (size_t i = 0; i < 1000; i++)
				CHECK(wl_lane_at(g8, i) == wl_rng_small_int_at(12, i, 8) &&
				      wl_lane_at(wl_lane_gen(&six, &at_s), i) == wl_rng_small_int_at(12, i, 6) &&
				      wl_lane_at(wl_lane_gen(&d->buffers[0], &at_d), i) == wl_rng_float_at(11, i),
				      "lane %zu", i);
			CHECK(g8.kind == WL_LANES_SMALL_INT_POW2 && wl_lane_gen(&six, &at_s).kind == WL_LANES_SMALL_INT, "max 8 takes the mask, 6 the remainder");
		}
		{
			/* The references' loops over every lane: the same values. */
			float col[16], all[256];
			double sum = 0, squares = 0;
			const struct wl_lane_gen gd = wl_lane_gen(&d->buffers[0], &at_d), gs = wl_lane_gen(&d->buffers[2], &at_s);

			wl_lanes_float(gd, 0, 1, 256, all);
			wl_lanes_float(gd, 3, 16, 16, col);
			for (size_t i = 0; i < 16; i++) {
				sum += sv[i];
				squares += (double)sv[i] * sv[i];
				CHECK(col[i] == dv[3 + 16 * i], "column 3, row %zu", i);
			}
			CHECK(memcmp(all, dv, sizeof(dv)) == 0, "every lane of d");
			CHECK(wl_lanes_sum(gs, NULL, 16) == sum && wl_lanes_sum(gs, &gs, 16) == squares,
			      "the sum %g and the dot %g", sum, squares);
		}
		CHECK(zero == 0 && wide == 0, "nonzero_int:8 gives integers in [-8, 8] but 0 (%d zeros, %d beyond)", zero, wide);
		CHECK(kv == 4, "constant:n/items at n = 16, items = 4 is 4, got %d", (int)kv);
	}
	/* Floats of the generator's range, read only, are made on the device;
	 * doubles, transposes, constants and outputs on the host. */
	CHECK(wl_declared_device_fill(&d->buffers[0]) == 0, "random floats on the device");
	CHECK(wl_declared_device_fill(&d->buffers[2]) == 8, "nonzero_int on the device, max 8");
	CHECK(wl_declared_device_fill(&d->buffers[1]) < 0 && wl_declared_device_fill(&d->buffers[3]) < 0 &&
	      wl_declared_device_fill(&d->buffers[4]) < 0 && wl_declared_device_fill(&d->buffers[5]) < 0,
	      "the rest on the host");
	CHECK(wl_declared_addressable(&d->buffers[0]) && !wl_declared_addressable(&d->buffers[1]),
	      "a transpose is not addressable");
	wl_exp_data_free(d);
}

void test_declared_inits_and_references_refuse_what_they_cannot(void)
{
	static const struct {
		const char *text;
		int fields;
		const char *expect;
	} rows[] = {
		{ "{\"buffers\": [{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"output\": true}],"
		  "\"check\": {\"reference\": \"copy\"}}", 1, "e.check: unknown key 'reference'" },
		{ "{\"buffers\": [{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"output\": true}]}", 0,
		  "e.check: is required" },
		{ "{\"buffers\": [{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": \"nonzero_int:0\"}],"
		  "\"check\": \"none\"}", 1, "max must be an integer from 1" },
		{ "{\"buffers\": [{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": \"constant:n\"}],"
		  "\"check\": \"none\"}", 1, "'constant:n' is no init" },
		{ "{\"buffers\": [{\"name\": \"x\", \"type\": \"int\", \"count\": \"n\", \"init\": \"constant:m\"}],"
		  "\"check\": \"none\"}", 1, "unknown" },
		{ "{\"buffers\": [{\"name\": \"t\", \"type\": \"float\", \"count\": \"n\", \"init\": \"transpose:x\"},"
		  "{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": \"random\"}], \"check\": \"none\"}", 1,
		  "transpose:x needs a buffer of that name listed before it" },
		{ "{\"buffers\": [{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": \"random\"},"
		  "{\"name\": \"t\", \"type\": \"float\", \"count\": \"n*n\", \"init\": \"transpose:x\"}], \"check\": \"none\"}", 1,
		  "the same count" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct wl_exp_data *d = NULL;
		struct wl_error err;

		CHECK(load(rows[i].text, rows[i].fields, &d, &err) < 0 && d == NULL, "row %zu should fail", i);
		CHECK(strstr(err.msg, rows[i].expect) != NULL, "row %zu: '%s' lacks '%s'", i, err.msg, rows[i].expect);
		CHECK(!rows[i].fields || (err.kind == WL_ERR_INVALID_FIELD && strncmp(err.field, "e.", 2) == 0),
		      "row %zu: a request's error names its field (%s)", i, err.field);
	}
	{
		/* A square count is checked at the point, where it is known. */
		struct wl_exp_data *d = NULL;
		struct wl_error err;
		const long long values[] = { 10, 1 };

		CHECK(load("{\"buffers\": [{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": \"random\"},"
			   "{\"name\": \"t\", \"type\": \"float\", \"count\": \"n\", \"init\": \"transpose:x\"}], \"check\": \"none\"}",
			   1, &d, &err) == 0, "%s", err.msg);
		CHECK(d && wl_exp_data_check_point(d, values, 1, &err) < 0 && strstr(err.msg, "square count"),
		      "a transpose of 10 elements: %s", err.msg);
		wl_exp_data_free(d);
	}
}

/* The repository's catalog with one experiment's check or output changed. */
static int check_changed(const char *experiment, const char *key, json_t *value, struct wl_error *err)
{
	json_t *root = json_load_file(CATALOG_PATH, 0, NULL), *exps = json_object_get(root, "experiments");
	struct wl_catalog *cat = NULL;
	char path[300];
	int rc = -1;

	for (size_t i = 0; i < json_array_size(exps); i++) {
		json_t *e = json_array_get(exps, i);

		if (strcmp(json_string_value(json_object_get(e, "id")), experiment) != 0)
			continue;
		json_t *v = json_array_get(json_object_get(e, "variants"), 0);

		if (strcmp(key, "check") == 0)
			json_object_set(e, "check", value);
		else if (json_object_get(v, "host"))
			json_object_set(json_object_get(v, "host"), "output", value);
		else
			json_object_set_new(v, "host", json_pack("{s:O}", "output", value));
	}
	snprintf(path, sizeof(path), "%s/changed.json", check_tmpdir);
	if (json_dump_file(root, path, 0) == 0 && wl_catalog_load(path, &cat, err) == 0)
		rc = wl_experiments_check(cat, 0, err);
	wl_catalog_free(cat);
	json_decref(root);
	json_decref(value);
	return rc;
}

void test_catalog_references_are_the_runners(void)
{
	struct wl_error err;

	wl_error_clear(&err);
	CHECK(check_changed("copy", "check", json_pack("{s:s}", "reference", "copy"), &err) == 0, "as it is: %s", err.msg);
	CHECK(check_changed("copy", "check", json_pack("{s:s}", "reference", "fft"), &err) < 0 &&
	      strstr(err.msg, "'fft' is none of the runner's (allowed: copy, gather, transpose, sum, dot, myadd, minplus, banks)"),
	      "an unknown reference: %s", err.msg);
	CHECK(check_changed("transpose", "output", json_string("diagonal"), &err) < 0 &&
	      strstr(err.msg, "'diagonal' is not one its check knows (allowed: transposed, copied)"),
	      "an output the reference does not know: %s", err.msg);
	CHECK(check_changed("copy", "output", json_string("copied"), &err) < 0 && strstr(err.msg, "(allowed: none)"),
	      "an output where the reference has no choice: %s", err.msg);
}
