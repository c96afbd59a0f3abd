/* Custom kernels before they are queued: the request's "kernels" field is
 * validated (every refusal names its field and says what is allowed), no
 * spelling of a file-reading directive gets through, and the source scanner
 * finds the kernels, signatures and templates of the repository's .cl files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "custom_kernels.h"
#include "directive_check.h"
#include "kernel_scan.h"
#include "request.h"

#define GOOD_SOURCE "__kernel void mine(__global float *o, __global const float *i, int n) { o[0] = i[0]; }"

/* A transpose request with kernels (a JSON array text) and extra top-level
 * fields; validated into *norm. */
static int validate_kernels(const struct wl_catalog *cat, json_t *kernels, const char *variants,
			    json_t **norm, long long *count, struct wl_error *err)
{
	json_t *body = json_pack("{s:s, s:{s:[i,i]}, s:o}", "experiment", "transpose", "params", "n",
				 256, 512, "kernels", kernels);
	int rc;

	if (variants)
		json_object_set_new(body, "variants", json_loads(variants, 0, NULL));
	wl_error_clear(err);
	rc = wl_request_validate(cat, body, norm, count, err);
	json_decref(body);
	return rc;
}

static json_t *one_kernel(const char *name, const char *like, const char *entry, const char *source)
{
	json_t *k = json_pack("{s:s, s:s, s:s}", "name", name, "like", like, "source", source);

	if (entry)
		json_object_set_new(k, "entry", json_string(entry));
	return json_pack("[o]", k);
}

void test_custom_kernels_are_validated_and_counted(void)
{
	struct wl_catalog *cat = check_load_catalog();
	json_t *norm = NULL, *k;
	long long count = 0;
	struct wl_error err;

	if (!cat)
		return;
	CHECK(validate_kernels(cat, one_kernel("mine", "padded", NULL, GOOD_SOURCE), NULL, &norm, &count,
			       &err) == 0, "%s", err.msg);
	CHECK(count == 2 * (5 + 1), "2 points x (5 built-ins + 1 custom): %lld", count);
	k = json_array_get(json_object_get(norm, "kernels"), 0);
	CHECK(k && strcmp(json_string_value(json_object_get(k, "entry")), "mine") == 0,
	      "the only kernel is the entry");
	CHECK(k && strcmp(json_string_value(json_object_get(k, "source")), GOOD_SOURCE) == 0,
	      "the source travels in the normalized request");
	json_decref(norm);
	norm = NULL;

	/* With its own kernel a run may leave out every built-in; entry picks
	 * one of several kernels. */
	CHECK(validate_kernels(cat,
			       one_kernel("two", "naive", "b",
					  "kernel void a(global float *o) { } "
					  "__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void b(__global float *o, __global const float *i, int n) { }"),
			       "[]", &norm, &count, &err) == 0, "%s", err.msg);
	CHECK(count == 2, "2 points x 1 custom: %lld", count);
	CHECK(json_array_size(json_object_get(norm, "variants")) == 0, "no built-ins");
	json_decref(norm);
	norm = NULL;

	/* Directives people use stay allowed; an #include inside a comment or a
	 * string is no directive. */
	CHECK(validate_kernels(cat,
			       one_kernel("p", "padded", NULL,
					  "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
					  "#define PAD 2\n#if PAD > 1\n#undef PAD\n#define PAD 3\n#endif\n"
					  "// #include \"/etc/passwd\"\n/* #include <x> */\n"
					  "__kernel void p(__global float *o, __global const float *i, int n) {\n"
					  "#pragma unroll\n  for (int k = 0; k < 4; k++) o[k] = i[k];\n"
					  "  const char *s = \"#include\";\n}\n"),
			       NULL, &norm, &count, &err) == 0, "%s", err.msg);
	json_decref(norm);
	wl_catalog_free(cat);
}

void test_custom_kernels_refusals_name_the_field(void)
{
	static const struct {
		const char *name, *like, *entry, *source;
		const char *field, *message;
	} rows[] = {
		{ "1mine", "padded", NULL, GOOD_SOURCE, "kernels[0].name", "'1mine' is not allowed" },
		{ "my-kernel", "padded", NULL, GOOD_SOURCE, "kernels[0].name", "a letter or '_'" },
		{ "", "padded", NULL, GOOD_SOURCE, "kernels[0].name", "is not allowed" },
		{ "a1234567890123456789012345678901234567890123456789012345678901234", "padded", NULL, GOOD_SOURCE,
		  "kernels[0].name", "up to 63" },
		{ "padded", "padded", NULL, GOOD_SOURCE, "kernels[0].name", "'padded' is the name of a built-in variant of transpose" },
		{ "mine", "fast", NULL, GOOD_SOURCE, "kernels[0].like", "'fast' is not a variant of transpose (allowed: copy, naive, tiled, padded, diagonal)" },
		{ "mine", "padded", "other", GOOD_SOURCE, "kernels[0].entry", "'other' is not a __kernel function of the source (its kernels: mine)" },
		{ "mine", "padded", NULL, "void helper(void) { }", "kernels[0].source", "defines no __kernel function" },
		{ "mine", "padded", NULL, "__kernel void a(void) { } __kernel void b(void) { }", "kernels[0].entry", "2 kernels (a, b); name the one to run" },
		{ "mine", "padded", NULL, "__kernel void mine(void);", "kernels[0].source", "defines no __kernel function" },
		/* Every spelling of a directive that reads a file. */
		{ "mine", "padded", NULL, "#include \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "line 1 uses #include" },
		{ "mine", "padded", NULL, "\n\n  #  include </etc/passwd>\n" GOOD_SOURCE, "kernels[0].source", "line 3 uses #include" },
		{ "mine", "padded", NULL, "# /* a comment */ include \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "uses #include" },
		{ "mine", "padded", NULL, "#/* over\nlines */include \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "line 1 uses #include" },
		{ "mine", "padded", NULL, "/* c */ #include \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "uses #include" },
		{ "mine", "padded", NULL, "#inc\\\nlude \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "uses #include" },
		{ "mine", "padded", NULL, "#\\  \ninclude \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "uses #include" },
		{ "mine", "padded", NULL, "%:include \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "uses #include" },
		{ "mine", "padded", NULL, "?\?=include \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "uses #include" },
		{ "mine", "padded", NULL, "#include_next <stdio.h>\n" GOOD_SOURCE, "kernels[0].source", "uses #include_next" },
		{ "mine", "padded", NULL, "#import \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "uses #import" },
		{ "mine", "padded", NULL, "#embed \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", "uses #embed" },
		{ "mine", "padded", NULL, "#if __has_include(\"/etc/passwd\")\n#endif\n" GOOD_SOURCE, "kernels[0].source", "line 1 uses __has_include" },
		{ "mine", "padded", NULL, "#define X 1 \\\n#include \"/etc/passwd\"\n" GOOD_SOURCE, "kernels[0].source", NULL },
	};
	struct wl_catalog *cat = check_load_catalog();

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *norm = NULL;
		long long count;
		struct wl_error err;
		int rc = validate_kernels(cat, one_kernel(rows[i].name, rows[i].like, rows[i].entry, rows[i].source),
					  NULL, &norm, &count, &err);

		if (!rows[i].message) {
			/* The #include is inside a #define's continued line: the
			 * compiler sees no directive, and neither do we. */
			CHECK(rc == 0, "row %zu: %s", i, err.msg);
			json_decref(norm);
			continue;
		}
		CHECK(rc < 0 && norm == NULL, "row %zu (%s) passed", i, rows[i].source);
		CHECK(strcmp(err.field, rows[i].field) == 0, "row %zu: field '%s', expected '%s'", i, err.field,
		      rows[i].field);
		CHECK(strstr(err.msg, rows[i].message) != NULL, "row %zu: message '%s' lacks '%s'", i, err.msg,
		      rows[i].message);
		json_decref(norm);
	}
	wl_catalog_free(cat);
}

void test_custom_kernels_limits_and_shapes(void)
{
	struct wl_catalog *cat = check_load_catalog();
	json_t *norm = NULL, *list;
	long long count;
	struct wl_error err;
	char *big;
	size_t half = WL_CUSTOM_SOURCE_MAX / 2 + 16;

	if (!cat)
		return;
	/* 64 KiB of source in all: two kernels just over half each. */
	big = malloc(half + 1);
	memset(big, ' ', half);
	memcpy(big, GOOD_SOURCE, strlen(GOOD_SOURCE));
	big[half] = '\0';
	list = json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:s}]", "name", "a", "like", "padded", "source", big,
			 "name", "b", "like", "naive", "source", big);
	CHECK(validate_kernels(cat, list, NULL, &norm, &count, &err) < 0, "over 64 KiB in all passed");
	CHECK(strcmp(err.field, "kernels[1].source") == 0 && strstr(err.msg, "at most 65536"), "%s: %s",
	      err.field, err.msg);
	free(big);

	list = json_array();
	for (int i = 0; i < WL_CUSTOM_MAX + 1; i++) {
		char name[8];

		snprintf(name, sizeof(name), "k%d", i);
		json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "name", name, "like", "naive",
						      "source", GOOD_SOURCE));
	}
	CHECK(validate_kernels(cat, list, NULL, &norm, &count, &err) < 0, "9 kernels passed");
	CHECK(strcmp(err.field, "kernels") == 0 && strstr(err.msg, "at most 8"), "%s: %s", err.field, err.msg);

	list = json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:s}]", "name", "a", "like", "padded", "source",
			 GOOD_SOURCE, "name", "a", "like", "naive", "source", GOOD_SOURCE);
	CHECK(validate_kernels(cat, list, NULL, &norm, &count, &err) < 0, "a name used twice passed");
	CHECK(strcmp(err.field, "kernels[1].name") == 0 && strstr(err.msg, "used twice"), "%s", err.msg);

	CHECK(validate_kernels(cat, json_string("x"), NULL, &norm, &count, &err) < 0 &&
	      strcmp(err.field, "kernels") == 0, "not an array: %s", err.msg);
	CHECK(validate_kernels(cat, json_pack("[{s:s, s:s}]", "name", "a", "like", "padded"), NULL, &norm,
			       &count, &err) < 0 && strcmp(err.field, "kernels[0].source") == 0 &&
	      strstr(err.msg, "is required"), "no source: %s", err.msg);
	CHECK(validate_kernels(cat, json_pack("[{s:s, s:s, s:s, s:s}]", "name", "a", "like", "padded",
					      "source", GOOD_SOURCE, "options", "-I/etc"),
			       NULL, &norm, &count, &err) < 0 && strcmp(err.field, "kernels[0].options") == 0,
	      "build options are not the user's to set: %s", err.msg);
	wl_catalog_free(cat);
}

/* How many times needle is in text. */
static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
		n++;
	return n;
}

/* Each family's .cl file and its CUDA twin: every variant's kernel is found
 * with its signature (past CUDA's __launch_bounds__), and its template keeps
 * the file's preamble and drops the other kernels. */
void test_kernel_scanner_reads_the_repository_sources(void)
{
	struct wl_catalog *cat = check_load_catalog();
	struct wl_kernel_list *list = malloc(sizeof(*list));
	struct wl_error err;

	for (size_t e = 0; cat && list && e < 2 * cat->nexperiments; e++) {
		const struct wl_experiment *exp = &cat->experiments[e / 2];
		const char *file = e % 2 ? exp->cuda_source : exp->source;
		char path[512], *text = NULL;
		size_t len = 0;
		FILE *f;

		if (!file)
			continue;
		snprintf(path, sizeof(path), "%s/%s", cat->dir, file);
		f = fopen(path, "rb");
		CHECK(f != NULL, "open %s", path);
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		len = (size_t)ftell(f);
		fseek(f, 0, SEEK_SET);
		text = calloc(1, len + 1);
		CHECK(fread(text, 1, len, f) == len, "read %s", path);
		fclose(f);
		CHECK(wl_kernels_scan(text, len, list, &err) == 0, "%s: %s", path, err.msg);
		CHECK(list->count >= exp->nvariants, "%s: %zu kernels for %zu variants", path, list->count,
		      exp->nvariants);
		for (size_t v = 0; v < exp->nvariants; v++) {
			const struct wl_kernel_span *k = wl_kernels_find(list, exp->variants[v].kernel);
			char *tmpl = wl_kernel_template(text, len, exp->variants[v].kernel);
			struct wl_kernel_list *again = malloc(sizeof(*again));

			CHECK(k != NULL, "%s: no kernel %s", path, exp->variants[v].kernel);
			CHECK(tmpl != NULL, "%s: no template for %s", path, exp->variants[v].kernel);
			if (k && tmpl && again) {
				char what[64];
				int line;

				CHECK(wl_kernels_scan(tmpl, strlen(tmpl), again, &err) == 0 && again->count == 1 &&
				      strcmp(again->items[0].name, k->name) == 0,
				      "%s: the template of %s holds %zu kernels", path, k->name, again->count);
				CHECK(wl_source_check_directives(tmpl, strlen(tmpl), what, sizeof(what), &line) == 0,
				      "%s: the template of %s is a valid custom kernel", path, k->name);
				/* CUDA's kernel starts at its linkage: the others' go with them. */
				CHECK(count_of(tmpl, "extern \"C\"") == count_of(tmpl, "__global__"),
				      "%s: the template of %s keeps another kernel's extern \"C\"", path, k->name);
				CHECK(e % 2 == 0 || strncmp(text + k->decl, "extern \"C\"", 10) == 0,
				      "%s: %s starts at its extern \"C\"", path, k->name);
			}
			free(again);
			free(tmpl);
		}
		free(text);
	}
	/* The transpose padded kernel, read closely. */
	if (cat && list) {
		const char *src =
			"#define T 32\n\n// copies\n__kernel __attribute__((reqd_work_group_size(T, 8, 1)))\n"
			"void copy(__global float *o, __global const float *i, int n)\n{ o[0] = i[0]; }\n\n"
			"/* pads\n * the tile */\n__kernel void padded(__global float *o,\n  __global const float *i, int n)\n"
			"{\n\t__local float tile[T][T + 1];\n\tif (n) { tile[0][0] = 1; }\n}\n\n"
			"__kernel void proto(int);\nkernel void noargs(void) { }\n";
		char *sig, *tmpl;
		const struct wl_kernel_span *k;

		CHECK(wl_kernels_scan(src, strlen(src), list, &err) == 0 && list->count == 3, "3 kernels, not the prototype: %zu",
		      list->count);
		k = wl_kernels_find(list, "padded");
		CHECK(k && k->nparams == 3 && k->line == 10 && k->first_line == 8, "padded: %d params, line %d, first %d",
		      k ? k->nparams : -1, k ? k->line : -1, k ? k->first_line : -1);
		sig = k ? wl_kernel_signature(src, k) : NULL;
		CHECK(sig && strcmp(sig, "__kernel void padded(__global float *o, __global const float *i, int n)") == 0,
		      "signature: %s", sig ? sig : "(none)");
		free(sig);
		k = wl_kernels_find(list, "noargs");
		CHECK(k && k->nparams == 0, "(void) is no parameter");
		tmpl = wl_kernel_template(src, strlen(src), "padded");
		CHECK(tmpl && strstr(tmpl, "#define T 32") && strstr(tmpl, "/* pads") && !strstr(tmpl, "copies") &&
		      !strstr(tmpl, "void copy(") && !strstr(tmpl, "noargs") && strstr(tmpl, "proto"),
		      "template: %s", tmpl ? tmpl : "(none)");
		free(tmpl);
	}
	free(list);
	wl_catalog_free(cat);
}
