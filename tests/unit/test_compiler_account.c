/* The compiler's account read from what NVIDIA's OpenCL said on the H100
 * (tests/fixtures/nvidia-h100, driver 580.159.04), and occupancy worked by
 * hand against the repository's kernels/gpu_limits.json. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compiler_account.h"
#include "gpu_limits.h"
#include "occupancy.h"

#define FIXTURES "tests/fixtures/nvidia-h100/"

static char *fixture(const char *name)
{
	char path[256];
	FILE *f;
	long len;
	char *text = NULL;

	snprintf(path, sizeof(path), FIXTURES "%s", name);
	f = fopen(path, "rb");
	if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = calloc(1, (size_t)len + 1)) && fread(text, 1, (size_t)len, f) != (size_t)len) {
		free(text);
		text = NULL;
	}
	if (f)
		fclose(f);
	CHECK(text != NULL, "fixture %s", path);
	return text;
}

static long long num(const json_t *obj, const char *name)
{
	const json_t *v = json_object_get(obj, name);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

void test_ptxas_figures_from_the_h100(void)
{
	static const struct {
		const char *log, *kernel;
		long long registers, barriers, shared, stack, spill_stores, spill_loads;
	} rows[] = {
		{ "transpose.log", "mtran_padded", 28, 1, 4228, 0, 0, 0 },
		{ "transpose.log", "mtran_coalesced", 28, 1, 4100, 0, 0, 0 },
		{ "transpose.log", "mtran_diagonal", 26, 1, 4228, 0, 0, 0 },
		{ "transpose.log", "mtran", 10, 0, 0, 0, 0, 0 },
		{ "spill.log", "copy_spill", 255, 0, 0, 360, 664, 632 },
		{ "spill.log", "copy_spill2", 255, 0, 0, 232, 232, 232 },
	};
	json_t *none;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *log = fixture(rows[i].log);
		json_t *all = log ? wl_ptxas_figures(log) : NULL, *k = json_object_get(all, rows[i].kernel);

		CHECK(k != NULL, "%s: %s reported", rows[i].log, rows[i].kernel);
		CHECK(num(k, "registers") == rows[i].registers && num(k, "barriers") == rows[i].barriers &&
		      num(k, "shared_bytes") == rows[i].shared && num(k, "stack_bytes") == rows[i].stack &&
		      num(k, "spill_store_bytes") == rows[i].spill_stores &&
		      num(k, "spill_load_bytes") == rows[i].spill_loads,
		      "%s: %s: %lld registers, %lld barriers, %lld B shared, %lld B stack, %lld/%lld B spilled",
		      rows[i].log, rows[i].kernel, num(k, "registers"), num(k, "barriers"), num(k, "shared_bytes"),
		      num(k, "stack_bytes"), num(k, "spill_store_bytes"), num(k, "spill_load_bytes"));
		CHECK(json_is_string(json_object_get(k, "target")) &&
		      strcmp(json_string_value(json_object_get(k, "target")), "sm_90a") == 0, "target sm_90a");
		json_decref(all);
		free(log);
	}
	/* PoCL's log of a good build, or nothing at all: no figures, no guess. */
	none = wl_ptxas_figures("warning: <source>:3:5: unused variable 'x'\n");
	CHECK(none && json_object_size(none) == 0, "no ptxas lines: no figures");
	json_decref(none);
	none = wl_ptxas_figures("");
	CHECK(none && json_object_size(none) == 0, "an empty log: no figures");
	json_decref(none);
}

/* The memory instruction of view at its line, and the source line it maps to. */
static const json_t *memory_at(const json_t *view, size_t k, long long *source)
{
	const json_t *m = json_array_get(json_object_get(view, "memory"), k);

	*source = json_integer_value(json_array_get(json_object_get(view, "source_lines"),
						    (size_t)num(m, "line")));
	return m;
}

static int is(const json_t *m, const char *key, const char *value)
{
	const char *v = json_string_value(json_object_get(m, key));

	return v && strcmp(v, value) == 0;
}

void test_ptx_lines_map_to_source_lines(void)
{
	char *ptx = fixture("copy.ptx"), *tptx = fixture("transpose.ptx");
	char *clean = ptx ? wl_ptx_for_users(ptx, strlen(ptx)) : NULL;
	json_t *v4 = clean ? wl_ptx_kernel_view(clean, "copy_float4") : NULL;
	json_t *v1 = clean ? wl_ptx_kernel_view(clean, "copy_float") : NULL;
	json_t *padded = tptx ? wl_ptx_kernel_view(tptx, "mtran_padded") : NULL;
	const json_t *m, *line;
	long long source = 0;
	size_t i;

	CHECK(clean && strstr(clean, ".file\t1 \"<source>\"") && !strstr(clean, "/work/"),
	      "the prober's folder is gone from .file");
	CHECK(wl_ptx_is_text((const unsigned char *)ptx, strlen(ptx)), "PTX is text");
	CHECK(!wl_ptx_is_text((const unsigned char *)"\177ELF\2\1\1", 7), "an ELF is not");
	CHECK(v4 && json_array_size(json_object_get(v4, "memory")) == 2, "copy_float4: one load, one store");
	m = v4 ? memory_at(v4, 0, &source) : NULL;
	CHECK(m && is(m, "op", "ld") && is(m, "space", "global") && num(m, "vector") == 4 && num(m, "bits") == 32 &&
	      num(m, "bytes") == 16 && source == 36,
	      "copy_float4 loads 16 bytes per work-item with ld.global.v4.f32, from line 36 (got line %lld)", source);
	m = v4 ? memory_at(v4, 1, &source) : NULL;
	CHECK(m && is(m, "op", "st") && num(m, "vector") == 4 && source == 36, "and stores them on the same line");
	CHECK(v4 && num(json_object_get(v4, "counts"), "global ld v4") == 1, "counted as global ld v4");
	m = v1 ? memory_at(v1, 0, &source) : NULL;
	CHECK(m && num(m, "vector") == 1 && num(m, "bytes") == 4 && source == 20, "copy_float: a scalar load, line 20");
	json_array_foreach(json_object_get(v4, "lines"), i, line)
		CHECK(!strstr(json_string_value(line), ".loc"), "no .loc line is shown (line %zu)", i);
	CHECK(v4 && strstr(json_string_value(json_array_get(json_object_get(v4, "lines"), 0)), ".entry copy_float4"),
	      "the view starts at the entry");
	CHECK(padded && num(json_object_get(padded, "counts"), "shared st scalar") >= 1 &&
	      num(json_object_get(padded, "counts"), "shared ld scalar") >= 1 &&
	      num(json_object_get(padded, "counts"), "global ld scalar") >= 1,
	      "mtran_padded goes through local (shared) memory");
	CHECK(clean && !wl_ptx_kernel_view(clean, "copy_float8"), "no such entry: none");
	CHECK(clean && !wl_ptx_kernel_view(clean, "copy_float4_"), "a longer name is another entry");
	json_decref(v4);
	json_decref(v1);
	json_decref(padded);
	free(clean);
	free(ptx);
	free(tptx);
}

/* Occupancy of use on the architecture cc of the repository's limits. */
static json_t *occupancy_on(const json_t *limits, const char *cc, long long items, long long registers,
			    long long local)
{
	json_t *device = json_pack("{s:s, s:s}", "vendor", "NVIDIA Corporation", "compute_capability", cc);
	const char *why = NULL;
	const json_t *arch = wl_gpu_limits_for(limits, device, &why);
	struct wl_group_use use = { items, registers, local };
	json_t *out;

	CHECK(arch != NULL, "limits for %s: %s", cc, why ? why : "");
	out = wl_occupancy(arch, why, &use);
	json_decref(device);
	return out;
}

static int limited_by(const json_t *occ, const char *what)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(occ, "limited_by"), i, v)
		if (strcmp(json_string_value(v), what) == 0)
			return 1;
	return 0;
}

void test_occupancy_by_hand_on_the_h100(void)
{
	json_error_t jerr;
	json_t *limits = json_load_file("kernels/gpu_limits.json", 0, &jerr), *occ, *bad, *pocl;
	const char *why = NULL;
	struct wl_error err;

	CHECK(limits && wl_gpu_limits_check(limits, &err) == 0, "the repository's limits load");
	if (!limits)
		return;
	/* The tiled transpose: 32x8 = 8 warps, 28 registers (896 per warp, 1024
	 * allocated; 16 warps per quarter of 65,536), 4,228 B + 1 KiB reserved =
	 * 5,376 B in 128-byte units (43 groups in 228 KiB). Warps and registers
	 * both stop at 8 groups: 64 warps, all the SM holds. */
	occ = occupancy_on(limits, "9.0", 256, 28, 4228);
	CHECK(num(occ, "groups") == 8 && num(occ, "warps") == 64 && num(occ, "max_warps") == 64 &&
	      json_real_value(json_object_get(occ, "fraction")) == 1.0,
	      "8 groups, 64 warps: got %lld, %lld", num(occ, "groups"), num(occ, "warps"));
	CHECK(limited_by(occ, "warps") && limited_by(occ, "registers") && !limited_by(occ, "local_memory"),
	      "limited by warps and registers alike");
	CHECK(num(json_object_get(occ, "by"), "local_memory") == 43 && num(json_object_get(occ, "by"), "groups") == 32,
	      "local memory alone allows 43, the group slots 32");
	json_decref(occ);
	/* 1,024 work-items (32 warps) of 64 registers: 2,048 per warp, 8 warps
	 * per quarter, 32 in all: one group, half the SM's 64 warps. */
	occ = occupancy_on(limits, "9.0", 1024, 64, 0);
	CHECK(num(occ, "groups") == 1 && num(occ, "warps") == 32 &&
	      json_real_value(json_object_get(occ, "fraction")) == 0.5 && limited_by(occ, "registers") &&
	      json_array_size(json_object_get(occ, "limited_by")) == 1 && num(json_object_get(occ, "by"), "warps") == 2,
	      "one group, 32 warps, by registers: got %lld groups", num(occ, "groups"));
	json_decref(occ);
	/* More registers than ptxas may give, or a group too big for the local
	 * memory: it can never run. */
	occ = occupancy_on(limits, "9.0", 256, 256, 0);
	CHECK(num(occ, "groups") == 0 && json_is_string(json_object_get(occ, "cannot_run")), "256 registers: cannot run");
	json_decref(occ);
	occ = occupancy_on(limits, "9.0", 256, 32, 240 * 1024);
	CHECK(num(occ, "groups") == 0 && json_is_string(json_object_get(occ, "cannot_run")), "240 KiB local: cannot run");
	json_decref(occ);
	/* A figure the compiler did not give is unknown, not zero. */
	occ = occupancy_on(limits, "9.0", 256, -1, 4228);
	CHECK(json_is_null(json_object_get(json_object_get(occ, "by"), "registers")) &&
	      json_array_size(json_object_get(occ, "unknown")) == 1 && num(occ, "groups") == 8,
	      "registers unknown: said so");
	json_decref(occ);
	/* Another vendor, another capability, or none recorded: unknown, why. */
	pocl = json_pack("{s:s}", "vendor", "AuthenticAMD");
	CHECK(!wl_gpu_limits_for(limits, pocl, &why) && why && strstr(why, "vendor"), "PoCL: no limits (%s)", why);
	occ = wl_occupancy(NULL, why, &(struct wl_group_use){ 256, -1, 0 });
	CHECK(occ && json_is_string(json_object_get(occ, "unknown_why")) && !json_object_get(occ, "groups"),
	      "without limits, only why");
	json_decref(occ);
	json_decref(pocl);
	pocl = json_pack("{s:s, s:s}", "vendor", "NVIDIA Corporation", "compute_capability", "1.0");
	CHECK(!wl_gpu_limits_for(limits, pocl, &why) && strstr(why, "compute capability"), "cc 1.0: unknown");
	json_decref(pocl);
	bad = json_pack("{s:{s:{s:i}}}", "nvidia", "9.9", "warp", 32);
	CHECK(wl_gpu_limits_check(bad, &err) < 0 && strstr(err.msg, "9.9") && strstr(err.msg, "\"warps\""),
	      "a bad entry is named: %s", err.msg);
	json_decref(bad);
	json_decref(limits);
}
