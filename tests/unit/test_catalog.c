/* The catalog loader: the repository's catalog loads and says what the API
 * promises; broken catalogs are refused with a message naming the entry. */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"

void test_catalog_loads_repository_catalog(void)
{
	struct wl_catalog *cat = NULL;
	struct wl_error err;
	const struct wl_experiment *t;

	CHECK(wl_catalog_load(CATALOG_PATH, &cat, &err) == 0, "load: %s", err.msg);
	if (!cat)
		return;
	t = wl_catalog_find(cat, "transpose");
	CHECK(t != NULL, "transpose is in the catalog");
	CHECK(wl_catalog_find(cat, "copy") != NULL, "copy is in the catalog");
	CHECK(wl_catalog_find(cat, "nope") == NULL, "unknown ids are not found");
	if (t) {
		static const char *const variants[] = { "copy", "naive", "tiled", "padded", "diagonal" };

		CHECK(t->nvariants == 5, "transpose has %zu variants", t->nvariants);
		for (size_t i = 0; i < 5; i++)
			CHECK(wl_experiment_variant(t, variants[i], NULL) != NULL, "variant %s", variants[i]);
		CHECK(wl_experiment_param(t, "n") >= 0 && wl_experiment_param(t, "tile") >= 0,
		      "transpose has n and tile");
		CHECK(t->params[wl_experiment_param(t, "n")].multiple_of_param ==
			      wl_experiment_param(t, "tile"),
		      "n must be a multiple of tile");
	}
	{
		json_t *j = wl_catalog_to_json(cat);
		json_t *exps = json_object_get(j, "experiments");

		CHECK(json_array_size(exps) == cat->nexperiments, "API lists every experiment");
		CHECK(json_is_object(json_object_get(json_array_get(exps, 0), "params")),
		      "params is an object keyed by name");
		json_decref(j);
	}
	wl_catalog_free(cat);
}

static int load_text(const char *text, struct wl_error *err)
{
	char path[300];
	struct wl_catalog *cat = NULL;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/catalog.json", check_tmpdir);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	rc = wl_catalog_load(path, &cat, err);
	wl_catalog_free(cat);
	return rc;
}

#define EXP_HEAD "{\"experiments\":[{\"id\":\"e\",\"title\":\"t\",\"lesson\":\"l\",\"summary\":\"s\",\"seed\":\"000\",\"source\":\"e.cl\",\"metric\":\"bandwidth\","
#define GOOD_PARAMS "\"params\":[{\"name\":\"n\",\"min\":1,\"max\":100,\"default\":10}],"
#define GOOD_VARIANTS "\"variants\":[{\"id\":\"v\",\"kernel\":\"k\"}]"
#define GOOD_COST "\"cost\":{\"bytes\":\"4*n\",\"memory\":\"8*n\"},"

void test_catalog_rejects_bad_entries(void)
{
	static const struct {
		const char *text, *expect;
	} rows[] = {
		{ EXP_HEAD GOOD_PARAMS GOOD_COST GOOD_VARIANTS "}]}", NULL },
		{ "{\"experiments\":[]}", "non-empty" },
		{ "not json", "catalog.json:1" },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST GOOD_VARIANTS ",\"colour\":1}]}", "unknown key 'colour'" },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST "\"variants\":[]}]}", "'variants' must be a non-empty array" },
		{ EXP_HEAD "\"params\":[{\"name\":\"n\",\"min\":1,\"max\":100,\"default\":1000}]," GOOD_COST GOOD_VARIANTS "}]}", "default of 'n'" },
		{ EXP_HEAD GOOD_PARAMS "\"cost\":{\"bytes\":\"4*m\",\"memory\":\"n\"}," GOOD_VARIANTS "}]}", "unknown parameter 'm'" },
		{ EXP_HEAD GOOD_PARAMS "\"cost\":{\"memory\":\"n\"}," GOOD_VARIANTS "}]}", "needs cost 'bytes'" },
		{ EXP_HEAD "\"params\":[{\"name\":\"n\",\"min\":1,\"max\":100,\"default\":10,\"multiple_of\":\"q\"}]," GOOD_COST GOOD_VARIANTS "}]}", "multiple_of 'q'" },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST "\"variants\":[{\"id\":\"v\",\"kernel\":\"k\"},{\"id\":\"v\",\"kernel\":\"k\"}]}]}", "duplicate variant 'v'" },
		{ EXP_HEAD "\"metric\":\"speed\"}]}", "duplicate object key" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct wl_error err;
		int rc;

		wl_error_clear(&err);
		rc = load_text(rows[i].text, &err);
		if (!rows[i].expect) {
			CHECK(rc == 0, "row %zu should load: %s", i, err.msg);
			continue;
		}
		CHECK(rc < 0, "row %zu should fail (%s)", i, rows[i].expect);
		CHECK(strstr(err.msg, rows[i].expect) != NULL, "row %zu: message '%s' lacks '%s'", i,
		      err.msg, rows[i].expect);
	}
}

void test_cost_formulas_parse_and_evaluate(void)
{
	struct wl_catalog *cat = NULL;
	struct wl_error err;
	const struct wl_experiment *t;
	static const struct {
		const char *text;
		double expect;	/* at n=64, tile=32, rows=8; < 0: must not parse */
	} rows[] = {
		{ "8*n*n", 8.0 * 64 * 64 },
		{ "4*tile*tile + 4*tile", 4.0 * 32 * 32 + 4 * 32 },
		{ "tile*rows", 256 },
		{ "n", 64 },
		{ " 2 * n + 3 ", 131 },
		{ "8*m", -1 },
		{ "8**n", -1 },
		{ "8*n+", -1 },
		{ "n-1", -1 },
		{ "0*n", -1 },
	};

	if (wl_catalog_load(CATALOG_PATH, &cat, &err) < 0) {
		CHECK(0, "load: %s", err.msg);
		return;
	}
	t = wl_catalog_find(cat, "transpose");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && t; i++) {
		struct wl_cost c;
		long long values[3];
		double got;
		int rc = wl_cost_parse(t, rows[i].text, &c, &err);

		values[wl_experiment_param(t, "n")] = 64;
		values[wl_experiment_param(t, "tile")] = 32;
		values[wl_experiment_param(t, "rows")] = 8;
		if (rows[i].expect < 0) {
			CHECK(rc < 0, "'%s' should not parse", rows[i].text);
			continue;
		}
		CHECK(rc == 0, "'%s' should parse: %s", rows[i].text, err.msg);
		if (rc == 0) {
			struct wl_variant_def v = { 0 };

			v.has_cost[WL_COST_BYTES] = 1;
			v.cost[WL_COST_BYTES] = c;
			got = wl_variant_cost(t, &v, WL_COST_BYTES, values);
			CHECK(got == rows[i].expect, "'%s' = %g, expected %g", rows[i].text, got,
			      rows[i].expect);
		}
	}
	/* A variant's own formula wins over the experiment's; a missing one is 0. */
	if (t) {
		long long values[3] = { 0 };

		values[wl_experiment_param(t, "n")] = 64;
		values[wl_experiment_param(t, "tile")] = 32;
		values[wl_experiment_param(t, "rows")] = 8;
		CHECK(wl_variant_cost(t, wl_experiment_variant(t, "padded", NULL), WL_COST_LOCAL, values) ==
			      4.0 * 32 * 33,
		      "padded local memory is 4*T*(T+1)");
		CHECK(wl_variant_cost(t, wl_experiment_variant(t, "naive", NULL), WL_COST_LOCAL, values) == 0,
		      "naive uses no local memory");
	}
	wl_catalog_free(cat);
}

#define MODEL_VARIANT(model) "\"variants\":[{\"id\":\"v\",\"kernel\":\"k\",\"model\":" model "}]}]}"
#define ACCESS(index) "{\"local\":[\"32\"],\"accesses\":[{\"array\":\"a\",\"space\":\"global\",\"op\":\"load\",\"bytes\":4,\"index\":\"" index "\"}]}"

void test_catalog_refuses_bad_access_declarations(void)
{
	static const struct {
		const char *text;
		const char *expect[3];	/* parts of the message; none: it loads */
	} rows[] = {
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(ACCESS("gid0*n + lid0")), { NULL } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(ACCESS("gid0 +* 2")),
		  { "variant 'v'", "'gid0 +* 2'", "unexpected '*'" } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(ACCESS("gid0*strde")),
		  { "variant 'v'", "'gid0*strde'", "unknown variable 'strde'" } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(ACCESS("gid1")),
		  { "accesses[0].index", "unknown variable 'gid1'", NULL } },	/* a 1-D group */
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(ACCESS("gsz0 - gid0")),
		  { "unknown variable 'gsz0'", NULL } },			/* no grid declared */
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(
			  "{\"local\":[\"32\"],\"accesses\":[{\"array\":\"a\",\"space\":\"global\",\"op\":\"load\",\"bytes\":4,\"index\":\"i\",\"loops\":[{\"var\":\"i\",\"from\":\"0\",\"while\":\"i < lid0\",\"next\":\"i + 1\"}]}]}"),
		  { "accesses[0].loops[0].while", "'i < lid0'", "unknown variable 'lid0'" } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(
			  "{\"local\":[\"32\"],\"accesses\":[{\"array\":\"a\",\"space\":\"global\",\"op\":\"load\",\"bytes\":4,\"index\":\"n\",\"loops\":[{\"var\":\"n\",\"from\":\"0\",\"while\":\"n < 4\",\"next\":\"n + 1\"}]}]}"),
		  { "loops[0].var", "'n' is not allowed", NULL } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(
			  "{\"accesses\":[{\"array\":\"a\",\"space\":\"global\",\"op\":\"load\",\"bytes\":4,\"index\":\"gid0\"}]}"),
		  { "'local') is not declared", NULL } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(
			  "{\"local\":[\"32\"],\"accesses\":[{\"array\":\"a\",\"space\":\"shared\",\"op\":\"load\",\"bytes\":4,\"index\":\"gid0\"}]}"),
		  { "accesses[0].space", "'shared' is not allowed (global or local)", NULL } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(
			  "{\"local\":[\"32\"],\"accesses\":[{\"array\":\"a\",\"space\":\"global\",\"op\":\"load\",\"bytes\":3,\"index\":\"gid0\"}]}"),
		  { "accesses[0].bytes", "1, 2, 4, 8 or 16", NULL } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT(
			  "{\"local\":[\"32\"],\"accesses\":[{\"array\":\"a\",\"space\":\"global\",\"op\":\"load\",\"bytes\":4,\"index\":\"gid0\",\"stride\":2}]}"),
		  { "unknown key 'stride'", NULL } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST MODEL_VARIANT("{\"local\":[\"32\"],\"accesses\":[]}"),
		  { "accesses: must be an array of 1 to 8", NULL } },
		{ EXP_HEAD GOOD_PARAMS GOOD_COST "\"model\":{\"local\":[\"n\"],\"colour\":1}," GOOD_VARIANTS "}]}",
		  { "unknown key 'colour'", NULL } },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct wl_error err = { 0 };
		int rc = load_text(rows[i].text, &err);

		if (!rows[i].expect[0]) {
			CHECK(rc == 0, "row %zu should load: %s", i, err.msg);
			continue;
		}
		CHECK(rc < 0, "row %zu should be refused", i);
		for (int k = 0; k < 3 && rows[i].expect[k]; k++)
			CHECK(strstr(err.msg, rows[i].expect[k]) != NULL, "row %zu: '%s' lacks '%s'", i,
			      err.msg, rows[i].expect[k]);
	}
}
