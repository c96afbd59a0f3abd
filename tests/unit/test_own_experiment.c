/* An experiment a request brings of its own (request_own.h, exp_data.h):
 * the SAXPY of the API's example passes and is stored with its definition,
 * its costs come from its buffers where it gives none, and every bad input
 * is refused before queueing with the field it is in and what is allowed. */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "exp_data.h"
#include "request.h"
#include "run_request.h"

/* The example, as a user would post it. */
static const char SAXPY[] =
	"{\"experiment\": {\"id\": \"saxpy\", \"title\": \"SAXPY, scalar against float4\","
	" \"source\": \"__kernel void saxpy(uint n, float a, __global const float *x, __global float *y) { uint i = get_global_id(0); if (i < n) y[i] = a * x[i] + y[i]; }\\n"
	"__kernel void saxpy4(uint n, float a, __global const float4 *x, __global float4 *y) { uint i = get_global_id(0); if (i < n / 4) y[i] = a * x[i] + y[i]; }\","
	" \"params\": [{\"name\": \"n\", \"type\": \"int\", \"min\": 1024, \"max\": 268435456, \"default\": 1048576, \"multiple_of\": 1024},"
	"            {\"name\": \"local\", \"type\": \"int\", \"min\": 32, \"max\": 1024, \"default\": 256, \"pow2\": true}],"
	" \"buffers\": [{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": \"random\"},"
	"             {\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"init\": \"random\", \"output\": true}],"
	" \"scalars\": [{\"name\": \"a\", \"type\": \"float\", \"value\": \"2.5\"}],"
	" \"host\": {\"global\": [\"n\"], \"local\": [\"local\"], \"args\": [\"n\", \"a\", \"x\", \"y\"]},"
	" \"cost\": {\"bytes\": \"12*n\"},"
	" \"check\": {\"against\": \"scalar\", \"rel\": 1e-6},"
	" \"variants\": [{\"id\": \"scalar\", \"kernel\": \"saxpy\"},"
	"              {\"id\": \"vec4\", \"kernel\": \"saxpy4\", \"host\": {\"global\": [\"n/4\"]}}]},"
	" \"params\": {\"n\": [65536, 262144]}, \"repeat\": 5}";

/* SAXPY with path (a JSON pointer of object keys and indices, "/" between)
 * set to value (JSON text; NULL deletes it). Caller frees. */
static json_t *saxpy_with(const char *path, const char *value)
{
	json_t *body = json_loads(SAXPY, 0, NULL), *at = body, *v = value ? json_loads(value, JSON_DECODE_ANY, NULL) : NULL;
	char keys[256], *save = NULL, *key, *next;

	snprintf(keys, sizeof(keys), "%s", path);
	key = strtok_r(keys, "/", &save);
	while (key && (next = strtok_r(NULL, "/", &save))) {
		at = json_is_array(at) ? json_array_get(at, strtoul(key, NULL, 10)) : json_object_get(at, key);
		key = next;
	}
	if (json_is_array(at))
		json_array_set_new(at, strtoul(key, NULL, 10), v);
	else if (v)
		json_object_set_new(at, key, v);
	else
		json_object_del(at, key);
	return body;
}

void test_own_experiment_is_accepted_and_stored_with_its_definition(void)
{
	struct wl_catalog *cat = check_load_catalog();
	json_t *body = json_loads(SAXPY, 0, NULL), *norm = NULL;
	struct wl_run_request rr = { 0 };
	struct wl_error err;
	long long count = 0;

	if (!cat)
		return;
	CHECK(body && wl_request_validate(cat, body, &norm, &count, &err) == 0, "the example passes: %s", err.msg);
	CHECK(count == 4, "2 points x 2 variants, got %lld", count);
	CHECK(norm && strcmp(json_string_value(json_object_get(norm, "experiment")), "saxpy") == 0 &&
		      json_equal(json_object_get(norm, "definition"), json_object_get(body, "experiment")),
	      "stored as its id with its definition as given");
	/* The stored form is read back as the runner and the server read it,
	 * and posted again ("Run again") it passes the same. */
	CHECK(norm && wl_run_request_parse(cat, norm, &rr, &err) == 0, "%s", err.msg);
	if (rr.exp) {
		const long long at[] = { 65536, 256 };

		CHECK(rr.own && rr.exp == rr.own && rr.exp->own && rr.exp->data && rr.exp->data->nbuffers == 2,
		      "its own experiment, with its buffers");
		CHECK(rr.exp->reference == 0, "measured against the variant it is checked against");
		CHECK(wl_variant_cost(rr.exp, &rr.exp->variants[1], WL_COST_BYTES, at) == 12.0 * 65536, "its cost.bytes");
		CHECK(wl_variant_cost(rr.exp, &rr.exp->variants[1], WL_COST_MEMORY, at) == 8.0 * 65536,
		      "memory: every buffer, from the buffers");
		CHECK(rr.pts.count == 2, "two points");
	}
	wl_run_request_free(&rr);
	if (norm) {
		json_t *again = NULL;

		CHECK(wl_request_validate(cat, norm, &again, &count, &err) == 0 && json_equal(again, norm),
		      "a stored request posted again is itself: %s", err.msg);
		json_decref(again);
	}
	/* Without cost.bytes, each buffer with an init is read once and each
	 * output written once: x, and y both ways. */
	json_decref(norm);
	norm = NULL;
	json_decref(body);
	body = saxpy_with("experiment/cost", NULL);
	CHECK(wl_request_validate(cat, body, &norm, &count, &err) == 0, "%s", err.msg);
	if (norm && wl_run_request_parse(cat, norm, &rr, &err) == 0) {
		const long long at[] = { 1024, 256 };

		CHECK(wl_variant_cost(rr.exp, &rr.exp->variants[0], WL_COST_BYTES, at) == 12.0 * 1024,
		      "12 bytes an element from the buffers, got %g",
		      wl_variant_cost(rr.exp, &rr.exp->variants[0], WL_COST_BYTES, at));
		wl_run_request_free(&rr);
	}
	json_decref(norm);
	json_decref(body);
	wl_catalog_free(cat);
}

/* A source of bytes bytes: the example's, padded with a comment. */
static char *long_source(size_t bytes)
{
	char *s = malloc(bytes + 1);

	memset(s, ' ', bytes);
	memcpy(s, "\"//", 3);
	s[bytes - 1] = '"';
	s[bytes] = '\0';
	return s;
}

void test_own_experiment_refuses_bad_input_naming_the_field(void)
{
	static const struct {
		const char *path, *value, *field, *message;
	} rows[] = {
		{ "experiment/buffers/0/count", "\"n*n*n*n\"", "experiment.buffers[0].count",
		  "buffer 'x' of 'n*n*n*n' elements: the value overflows 64 bits at n=65536" },
		{ "experiment/buffers/0/type", "\"float5\"", "experiment.buffers[0].type", "'float5' is no type (allowed: char" },
		{ "experiment/buffers/0/init", "\"gaussian\"", "experiment.buffers[0].init", "'gaussian' is no init (allowed: zeros" },
		{ "experiment/buffers/0/init", "\"random_int:5:1\"", "experiment.buffers[0].init", "lo <= hi" },
		{ "experiment/buffers/0/init", "\"csr_cols:8\"", "experiment.buffers[0].init", "integer indices" },
		{ "experiment/buffers/0/init", NULL, "experiment.buffers[0]", "never filled" },
		{ "experiment/buffers/0/name", "\"a\"", "experiment.scalars[0].name", "'a' is named twice" },
		{ "experiment/buffers/0/name", "\"n\"", "experiment.buffers[0].name", "a parameter's name too" },
		{ "experiment/buffers/0/colour", "1", "experiment.buffers[0]", "unknown key 'colour'" },
		{ "experiment/scalars/0/type", "\"float4\"", "experiment.scalars[0].type", "no scalar type" },
		{ "experiment/scalars/0/value", "\"two\"", "experiment.scalars[0].value", "'two' is no number" },
		{ "experiment/host/args/1", "\"b\"", "experiment.variants[0].host.args[1]", "'b' is no buffer, scalar" },
		{ "experiment/host/global/0", "\"q\"", "experiment.variants[0].host.global", "unknown variable 'q'" },
		{ "experiment/variants/1/host/global/0", "\"n/\"", "experiment.variants[1].host.global", "ends where an operand" },
		{ "experiment/cost/bytes", "\"q*2\"", "experiment.cost.bytes", "unknown parameter 'q'" },
		{ "experiment/check", "{\"against\": \"vec8\"}", "experiment.check.against", "'vec8' is no variant (allowed: scalar, vec4)" },
		{ "experiment/check", "{\"against\": \"scalar\", \"rel\": -1}", "experiment.check.rel", ">= 0" },
		{ "experiment/check", NULL, "experiment.check", "is required" },
		{ "experiment/check", "\"some\"", "experiment.check", "or \"none\"" },
		{ "experiment/variants/1/kernel", "\"saxpy8\"", "experiment.variants[1].kernel", "'saxpy8' is not defined in the source (it defines: saxpy, saxpy4)" },
		{ "experiment/source", "\"#include </etc/passwd>\\n__kernel void saxpy() {}\"", "experiment.source", "#include" },
		{ "experiment/id", "\"copy\"", "experiment.id", "'copy' is a catalog experiment's" },
		{ "experiment/id", "\"Saxpy!\"", "experiment.id", "a-z, 0-9" },
		{ "experiment/buffers", NULL, "experiment.buffers", "is required" },
		{ "experiment/defines", "[\"tile\"]", "experiment.defines[0]", "'tile' is no parameter" },
		{ "experiment/defines", "[{\"name\": \"W\", \"value\": \"n/(local - 256)\"}]", "experiment.defines[0]",
		  "W: division by zero at n=65536, local=256" },
		{ "experiment/defines", "[{\"name\": \"W\", \"value\": \"m\"}]", "experiment.defines[0]", "unknown variable 'm'" },
		{ "kernels", "[{\"name\": \"k\", \"like\": \"scalar\", \"source\": \"x\"}]", "kernels", "its kernels as its variants" },
		{ "experiment", "7", "experiment", "expected a catalog experiment's id or an experiment of your own" },
	};
	struct wl_catalog *cat = check_load_catalog();

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *body = saxpy_with(rows[i].path, rows[i].value), *norm = NULL;
		struct wl_error err;
		long long count;

		wl_error_clear(&err);
		CHECK(wl_request_validate(cat, body, &norm, &count, &err) < 0, "row %zu (%s) passed", i, rows[i].path);
		CHECK(strcmp(err.field, rows[i].field) == 0, "row %zu (%s = %s): field '%s', expected '%s' (%s)", i,
		      rows[i].path, rows[i].value ? rows[i].value : "(none)", err.field, rows[i].field, err.msg);
		CHECK(strstr(err.msg, rows[i].message) != NULL, "row %zu (%s): message '%s' lacks '%s'", i, rows[i].path,
		      err.msg, rows[i].message);
		json_decref(norm);
		json_decref(body);
	}
	/* Sizes: 17 buffers, 17 scalars, 9 variants, 64 KiB and one byte of source. */
	if (cat) {
		static const struct {
			const char *list, *item, *field, *message;
			size_t n;
		} many[] = {
			{ "buffers", "{\"name\": \"b%zu\", \"type\": \"float\", \"count\": \"n\", \"init\": \"zeros\"}",
			  "experiment.buffers", "at most 16", 17 },
			{ "scalars", "{\"name\": \"s%zu\", \"type\": \"int\", \"value\": 1}", "experiment.scalars", "at most 16", 17 },
			{ "variants", "{\"id\": \"v%zu\", \"kernel\": \"saxpy\"}", "experiment.variants", "at most 8", 9 },
		};
		char *source = long_source(65537 + 2);	/* and its quotes */

		for (size_t k = 0; k < sizeof(many) / sizeof(many[0]); k++) {
			json_t *list = json_array(), *body, *norm = NULL;
			struct wl_error err;
			long long count;
			char item[200], path[64];

			for (size_t j = 0; j < many[k].n; j++) {
				snprintf(item, sizeof(item), many[k].item, j);
				json_array_append_new(list, json_loads(item, 0, NULL));
			}
			snprintf(path, sizeof(path), "experiment/%s", many[k].list);
			body = saxpy_with(path, "[]");
			json_object_set_new(json_object_get(body, "experiment"), many[k].list, list);
			CHECK(wl_request_validate(cat, body, &norm, &count, &err) < 0 && strcmp(err.field, many[k].field) == 0 &&
				      strstr(err.msg, many[k].message),
			      "%zu %s: field '%s', message '%s'", many[k].n, many[k].list, err.field, err.msg);
			json_decref(body);
		}
		{
			json_t *body = saxpy_with("experiment/source", source), *norm = NULL;
			struct wl_error err;
			long long count;

			CHECK(wl_request_validate(cat, body, &norm, &count, &err) < 0 &&
				      strcmp(err.field, "experiment.source") == 0 && strstr(err.msg, "at most 65536"),
			      "a long source: field '%s', message '%s'", err.field, err.msg);
			json_decref(body);
		}
		free(source);
	}
	wl_catalog_free(cat);
}

/* A tuning run of someone else's code counts nothing unless it asks: each
 * such kernel is profiled alone, which would be most of a space's time.
 * The same experiment untuned, or tuned with "counters": "on", counts; so
 * does a tuning run of the catalog's own kernels. */
void test_own_tuning_run_counts_only_when_asked(void)
{
	static const struct {
		const char *tune;	/* the request's "tune", or NULL */
		const char *counters;	/* its "counters", or NULL */
		const char *want;
	} rows[] = {
		{ NULL, NULL, "on" },
		{ "{\"params\": [\"local\"]}", NULL, "off" },
		{ "{\"params\": [\"local\"]}", "\"on\"", "on" },
		{ "{\"params\": [\"local\"]}", "\"off\"", "off" },
	};
	struct wl_catalog *cat = check_load_catalog();
	json_t *catalog_tuned = json_loads("{\"experiment\":\"transpose\",\"params\":{\"tile\":[16,32]},"
					   "\"tune\":{\"params\":[\"tile\"]}}", 0, NULL);
	struct wl_error err;
	long long count = 0;
	json_t *norm = NULL;

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *body = saxpy_with("tune", rows[i].tune);

		if (rows[i].tune)
			json_object_set_new(json_object_get(body, "params"), "local", json_pack("[i,i]", 128, 256));
		if (rows[i].counters)
			json_object_set_new(body, "counters", json_loads(rows[i].counters, JSON_DECODE_ANY, NULL));
		norm = NULL;
		CHECK(wl_request_validate(cat, body, &norm, &count, &err) == 0, "row %zu: %s", i, err.msg);
		CHECK(norm && strcmp(json_string_value(json_object_get(norm, "counters")) ?: "", rows[i].want) == 0,
		      "row %zu: counters '%s', expected '%s'", i,
		      norm ? json_string_value(json_object_get(norm, "counters")) : "(refused)", rows[i].want);
		json_decref(norm);
		json_decref(body);
	}
	norm = NULL;
	CHECK(cat && wl_request_validate(cat, catalog_tuned, &norm, &count, &err) == 0 &&
		      strcmp(json_string_value(json_object_get(norm, "counters")) ?: "", "on") == 0,
	      "a tuning run of the catalog's kernels counts: %s", err.msg);
	json_decref(norm);
	json_decref(catalog_tuned);
	wl_catalog_free(cat);
}
