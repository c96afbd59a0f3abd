/* A kernel's parameters read from its signature (kernel_params.h), one row
 * per signature: OpenCL's address spaces with and without underscores,
 * const, restrict, volatile, vector types, attributes, arrays and unnamed
 * parameters; CUDA's __restrict__, its pointers as device memory and C's
 * spellings of the integers; odd spacing and comments anywhere. Each
 * parameter is written "name:type:elem:pointer:space:flags" (elem "?" where
 * none, space "-" for a value, flags c const, r restrict, v volatile). And
 * the draft built on them (source_scan.h) is an experiment a request may
 * bring as it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "kernel_params.h"
#include "kernel_scan.h"
#include "request_own.h"
#include "source_scan.h"

static const struct {
	enum wl_language lang;
	const char *source;
	const char *expected;
} ROWS[] = {
	{ WL_LANG_OPENCL,
	  "__kernel void k(__global const float *x, __global float4 *restrict y, __local int *tmp, uint n) {}",
	  "x:__global const float *:float:1:global:c; y:__global float4 *restrict:float4:1:global:r; "
	  "tmp:__local int *:int:1:local:-; n:uint:uint:0:-:-" },
	{ WL_LANG_OPENCL,
	  "kernel void k(global const float* restrict a, constant float *c, local float4 *l, const int n) {}",
	  "a:global const float* restrict:float:1:global:cr; c:constant float *:float:1:constant:-; "
	  "l:local float4 *:float4:1:local:-; n:const int:int:0:-:c" },
	{ WL_LANG_OPENCL,
	  "__kernel void k( __global/*in*/const   float*x , // the output\n  __global float *\n y ,\tint/*count*/n ) {}",
	  "x:__global const float*:float:1:global:c; y:__global float *:float:1:global:-; n:int:int:0:-:-" },
	{ WL_LANG_OPENCL,
	  "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(__global float *a) {}",
	  "a:__global float *:float:1:global:-" },
	{ WL_LANG_OPENCL, "__kernel void k(void) {}", "" },
	{ WL_LANG_OPENCL, "__kernel void k( ) {}", "" },
	{ WL_LANG_OPENCL, "__kernel void k(__global float x[], __global const int idx[16]) {}",
	  "x:__global float []:float:1:global:-; idx:__global const int [16]:int:1:global:c" },
	{ WL_LANG_OPENCL, "__kernel void k(__global float * const p, const __global float * restrict q) {}",
	  "p:__global float * const:float:1:global:-; q:const __global float * restrict:float:1:global:cr" },
	{ WL_LANG_OPENCL, "__kernel void k(__global float *, int) {}",
	  ":__global float *:float:1:global:-; :int:int:0:-:-" },
	{ WL_LANG_OPENCL,
	  "__kernel void k(unsigned char c, unsigned long u, half h, read_only image2d_t img, __global volatile int *flag) {}",
	  "c:unsigned char:uchar:0:-:-; u:unsigned long:ulong:0:-:-; h:half:?:0:-:-; img:read_only image2d_t:?:0:-:-; "
	  "flag:__global volatile int *:int:1:global:v" },
	{ WL_LANG_OPENCL, "__kernel void k(__global struct pt *p, double2 d) {}",
	  "p:__global struct pt *:?:1:global:-; d:double2:double2:0:-:-" },
	{ WL_LANG_OPENCL, "__kernel void k(float *generic_ptr, __private int x) {}",
	  "generic_ptr:float *:float:1:-:-; x:__private int:int:0:-:-" },
	{ WL_LANG_CUDA,
	  "extern \"C\" __global__ void k(const float* __restrict__ x, float *y, int n, unsigned int m, size_t len) {}",
	  "x:const float* __restrict__:float:1:global:cr; y:float *:float:1:global:-; n:int:int:0:-:-; "
	  "m:unsigned int:uint:0:-:-; len:size_t:ulong:0:-:-" },
	{ WL_LANG_CUDA, "__global__ void __launch_bounds__(256) k(double2 *out, const double *__restrict in, int64_t big) {}",
	  "out:double2 *:double2:1:global:-; in:const double *__restrict:double:1:global:cr; big:int64_t:long:0:-:-" },
	{ WL_LANG_CUDA, "__global__ void k(int global, unsigned long long n, uint8_t *bytes) {}",
	  "global:int:int:0:-:-; n:unsigned long long:ulong:0:-:-; bytes:uint8_t *:uchar:1:global:-" },
};

/* The parameters as the rows write them. */
static void render(const struct wl_kernel_param *p, size_t n, char *out, size_t size)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && at < size; i++) {
		const char *space = wl_addr_space_name(p[i].space);
		char flags[4] = "";

		if (p[i].is_const)
			strcat(flags, "c");
		if (p[i].is_restrict)
			strcat(flags, "r");
		if (p[i].is_volatile)
			strcat(flags, "v");
		at += snprintf(out + at, size - at, "%s%s:%s:%s:%d:%s:%s", i ? "; " : "", p[i].name, p[i].type,
			       p[i].elem[0] ? p[i].elem : "?", p[i].pointer, space ? space : "-", flags[0] ? flags : "-");
	}
}

/* Kernel k of source (the first one) read into p and *n: 0, or -1 with err. */
static int read_first(const char *source, enum wl_language lang, struct wl_kernel_param *p, size_t *n,
		      struct wl_error *err)
{
	struct wl_kernel_list *list = malloc(sizeof(*list));
	int rc = -1;

	if (list && wl_kernels_scan(source, strlen(source), list, err) == 0 && list->count == 1)
		rc = wl_kernel_params_read(source, &list->items[0], lang, p, n, err);
	free(list);
	return rc;
}

void test_kernel_params_read_as_written(void)
{
	static struct wl_kernel_param p[WL_KERNEL_PARAMS_MAX];
	char seen[2048], many[4096] = "__kernel void k(", name[96];
	struct wl_error err;
	size_t n;

	for (size_t r = 0; r < sizeof(ROWS) / sizeof(ROWS[0]); r++) {
		wl_error_clear(&err);
		if (read_first(ROWS[r].source, ROWS[r].lang, p, &n, &err) < 0) {
			CHECK(0, "row %zu %s: failed: %s", r, ROWS[r].source, err.msg);
			continue;
		}
		render(p, n, seen, sizeof(seen));
		CHECK(strcmp(seen, ROWS[r].expected) == 0, "row %zu %s\n      expected %s\n      seen     %s", r,
		      ROWS[r].source, ROWS[r].expected, seen);
	}
	/* More parameters than there is room for, and a name too long, fail
	 * saying so. */
	for (int i = 0; i <= WL_KERNEL_PARAMS_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%sint a%d", i ? ", " : "", i);
	strcat(many, ") {}");
	CHECK(read_first(many, WL_LANG_OPENCL, p, &n, &err) < 0 && n == 0 && strstr(err.msg, "more than 32 parameters"),
	      "33 parameters: %s", err.msg);
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(many, sizeof(many), "__kernel void k(int %s) {}", name);
	CHECK(read_first(many, WL_LANG_OPENCL, p, &n, &err) < 0 && strstr(err.msg, "longer than 63 bytes"),
	      "a long name: %s", err.msg);
}

/* The draft of source, or NULL with a failed CHECK. */
static json_t *draft_of(const struct wl_catalog *cat, const char *source, enum wl_language lang, json_t **notes)
{
	struct wl_error err;
	json_t *out = NULL, *draft;

	CHECK(wl_source_scan(cat, source, strlen(source), lang, &out, &err) == 0, "%s: %s", source, err.msg);
	draft = json_incref(json_object_get(out, "draft"));
	*notes = json_incref(json_object_get(out, "notes"));
	json_decref(out);
	return draft;
}

void test_source_scan_drafts_an_experiment_a_request_takes(void)
{
	static const char saxpy[] =
		"__kernel void saxpy(uint n, float a, __global const float *x, __global float *y) { }\n"
		"__kernel void saxpy4(uint n, float a, __global const float4 *x, __global float4 *y) { }\n";
	static const char reduce[] =
		"__kernel void copy(__global const int *in, __global int *out, __local int *tmp, ulong count) { }\n"
		"__kernel void copy2(__global const int *in, __global int *out, __local int *tmp, ulong count, int m) { }\n"
		"__kernel void copy3(__global const int *in, __global int *out, __local double4 *tmp, ulong count) { }\n";
	struct wl_catalog *cat = check_load_catalog();
	struct wl_experiment own;
	struct wl_error err;
	json_t *notes = NULL, *d;
	char *text;

	if (!cat)
		return;
	d = draft_of(cat, saxpy, WL_LANG_OPENCL, &notes);
	text = json_dumps(d, JSON_COMPACT);
	CHECK(wl_request_own_read(cat, d, &own, &err) == 0, "the draft is an own experiment: %s\n      %s", err.msg, text);
	wl_experiment_clear(&own);
	CHECK(text && strstr(text, "\"buffers\":[{\"name\":\"x\",\"type\":\"float\",\"count\":\"n\",\"init\":\"random\"},"
				   "{\"name\":\"y\",\"type\":\"float\",\"count\":\"n\",\"output\":true}]") &&
		      strstr(text, "\"scalars\":[{\"name\":\"a\",\"type\":\"float\",\"value\":\"1.5\"}]") &&
		      strstr(text, "\"args\":[\"n\",\"a\",\"x\",\"y\"]") && strstr(text, "\"against\":\"saxpy\""),
	      "%s", text);
	CHECK(json_array_size(notes) == 0, "no notes for SAXPY");
	free(text);
	json_decref(d);
	json_decref(notes);

	/* A catalog id is not taken; local memory, a long scalar and a second
	 * signature are drafted as the header says. */
	d = draft_of(cat, reduce, WL_LANG_OPENCL, &notes);
	text = json_dumps(d, JSON_COMPACT);
	CHECK(text && strstr(text, "\"id\":\"copy_own\"") && strstr(text, "\"init\":\"random_int:0:255\"") &&
		      strstr(text, "\"args\":[\"in\",\"out\",{\"local\":\"local*4\"},\"count\"]") &&
		      strstr(text, "{\"name\":\"count\",\"type\":\"ulong\",\"value\":\"n\"}") &&
		      strstr(text, "\"host\":{\"args\":[\"in\",\"out\",{\"local\":\"local*4\"},\"count\",\"n\"]}") &&
		      strstr(text, "\"host\":{\"args\":[\"in\",\"out\",{\"local\":\"local*32\"},\"count\"]}"),
	      "%s", text);
	CHECK(wl_request_own_read(cat, d, &own, &err) == 0, "the draft is an own experiment: %s\n      %s", err.msg, text);
	wl_experiment_clear(&own);
	free(text);
	json_decref(d);
	json_decref(notes);

	/* One kernel checks nothing; what the draft cannot pass is noted. */
	d = draft_of(cat, "__kernel void one(__global float *y, read_only image2d_t img) { }", WL_LANG_OPENCL, &notes);
	CHECK(json_is_string(json_object_get(d, "check")) &&
		      strcmp(json_string_value(json_object_get(d, "check")), "none") == 0,
	      "one kernel: check none");
	CHECK(json_array_size(notes) == 1 && strstr(json_string_value(json_array_get(notes, 0)), "'img' (read_only image2d_t)"),
	      "the image is noted: %s", json_string_value(json_array_get(notes, 0)));
	json_decref(d);
	json_decref(notes);
	wl_catalog_free(cat);
}
