/* CUDA beside OpenCL: every catalog experiment has CUDA twins of
 * its kernels, each compiles with NVRTC (where this machine has it; where
 * not, the test says "skipped", never passes silently), and a machine
 * without CUDA's libraries says why instead of failing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "compiler_account.h"
#include "check.h"
#include "cuda_driver.h"
#include "cuda_languages.h"
#include "cupti_counters.h"
#include "cuda_compile.h"
#include "cuda_device.h"
#include "cuda_nvrtc.h"
#include "source.h"

/* NVRTC into nv, or the test marked skipped (returns -1). */
static int nvrtc_or_skip(struct wl_nvrtc *nv)
{
	char why[256];

	if (wl_nvrtc_open(NULL, nv, why, sizeof(why)) == 0)
		return 0;
	snprintf(check_skipped, sizeof(check_skipped), "no NVRTC: %s", why);
	return -1;
}

/* Compile exp's CUDA source with options; every variant's kernel must be an
 * entry of the PTX. */
static void compile_family(const struct wl_nvrtc *nv, const struct wl_catalog *cat, const struct wl_experiment *exp,
			   const char *const *options, int noptions)
{
	struct wl_source src = { 0 };
	struct wl_error err;
	char path[512], entry[160];
	char *ptx = NULL, *log = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", cat->dir, exp->cuda_source);
	if (wl_source_load(path, &src, &err) < 0) {
		CHECK(0, "%s: %s", exp->id, err.msg);
		return;
	}
	CHECK(!strstr(src.text, "#include"), "%s includes nothing (a CUDA source may not)", exp->cuda_source);
	if (wl_nvrtc_compile(nv, src.text, exp->cuda_source, 75, 0, options, noptions, &ptx, &len, &log, &err) < 0) {
		CHECK(0, "%s (%s): %s", exp->cuda_source, noptions ? options[0] : "no options", err.msg);
	} else {
		for (size_t v = 0; v < exp->nvariants; v++) {
			snprintf(entry, sizeof(entry), ".entry %s(", exp->variants[v].kernel);
			CHECK(strstr(ptx, entry), "%s: the PTX has no %s", exp->cuda_source, entry);
		}
	}
	free(ptx);
	free(log);
	wl_source_free(&src);
}

void test_every_catalog_cuda_kernel_compiles_with_nvrtc(void)
{
	static const char *const small_group[] = { "-D LOCAL_SIZE=64", "-D TILE_SIZE=64", "-D TILE_DIM=16",
						   "-D BLOCK_ROWS=4" };
	static const char *const single[] = { "-D WL_FP32" };
	struct wl_catalog *cat = check_load_catalog();
	struct wl_nvrtc nv;

	for (size_t i = 0; cat && i < cat->nexperiments; i++)
		CHECK(cat->experiments[i].cuda_source, "%s has CUDA twins", cat->experiments[i].id);
	if (!cat || nvrtc_or_skip(&nv) < 0) {
		wl_catalog_free(cat);
		return;
	}
	for (size_t i = 0; i < cat->nexperiments; i++) {
		const struct wl_experiment *exp = &cat->experiments[i];

		if (!exp->cuda_source)
			continue;
		/* As the sources' defaults have them, and with the sizes the
		 * runner passes for other points. */
		compile_family(&nv, cat, exp, NULL, 0);
		compile_family(&nv, cat, exp, small_group, 4);
		if (exp->needs_fp64)
			compile_family(&nv, cat, exp, single, 1);
	}
	wl_catalog_free(cat);
}

void test_nvrtc_refuses_what_does_not_compile(void)
{
	struct wl_nvrtc nv;
	struct wl_error err;
	char *ptx = (char *)1, *log = (char *)1;
	size_t len;

	if (nvrtc_or_skip(&nv) < 0)
		return;
	/* A cubin with ptxas's report, for the H100. */
	CHECK(wl_nvrtc_compile(&nv, "extern \"C\" __global__ void k(float *o) { o[threadIdx.x] = 1.0f; }", "ok.cu",
			       90, 1, NULL, 0, &ptx, &len, &log, &err) == 0 && len > 100 && memcmp(ptx, "\177ELF", 4) == 0 &&
	      strstr(log, "registers"), "a cubin: %s", err.msg);
	free(ptx);
	free(log);
	CHECK(wl_nvrtc_compile(&nv, "extern \"C\" __global__ void k(float *o) { o[0] = undeclared; }", "bad.cu", 75,
			       0, NULL, 0, &ptx, &len, &log, &err) < 0 && err.kind == WL_ERR_BUILD &&
	      strstr(err.msg, "bad.cu") && strstr(err.msg, "undeclared") && !ptx && !log,
	      "the compiler's complaint: %s", err.msg);
}

void test_cuda_absent_is_said_not_failed(void)
{
	struct wl_nvrtc nv;
	struct wl_cuda_devices devices;
	char why[256];

	CHECK(wl_nvrtc_open("libnvrtc-absent.so", &nv, why, sizeof(why)) < 0 && !nv.handle &&
	      strstr(why, "no NVRTC"), "%s", why);
	CHECK(wl_cuda_devices_load("libcuda-absent.so.1", &devices, why, sizeof(why)) < 0 && devices.count == 0 &&
	      strstr(why, "no CUDA driver"), "%s", why);
}

/* The languages and counters a device is said to have, part by part. */
void test_device_languages_say_why(void)
{
	struct wl_cuda_devices none = { 0 }, one = { .count = 1, .list = { { 0, 0x1b, 0, 52428800 } } };
	struct wl_nvrtc nv = { .handle = &nv, .major = 13, .minor = 0 }, absent = { 0 };
	struct wl_pci_address gpu = { 0, 0x1b, 0, 0 }, other = { 0, 0x2c, 0, 0 };
	struct wl_cuda_parts parts = { .driver = &none, .driver_why = "no CUDA driver (libcuda.so.1: not found)",
				       .nvrtc = &absent, .nvrtc_why = "no NVRTC (libnvrtc.so: not found)",
				       .cupti_why = "no CUPTI (libcupti.so: not found)" };
	char params[512], why[256];
	FILE *f;
	json_t *j;

#define SAYS(pci, lang, cuda_reason, counters_reason)                                                          \
	do {                                                                                                 \
		j = wl_cuda_languages(&parts, pci);                                                          \
		CHECK(j && json_array_size(json_object_get(j, "languages")) == (lang ? 2u : 1u) &&          \
		      strstr(json_string_value(json_object_get(json_object_get(j, "cuda"), "reason")) ?: "",  \
			     cuda_reason) &&                                                                 \
		      strstr(json_string_value(json_object_get(json_object_get(j, "counters"), "reason")) ?: \
				     "available", counters_reason), "%s", j ? json_dumps(j, 0) : "NULL");    \
		json_decref(j);                                                                              \
	} while (0)

	SAYS(NULL, 0, "not an NVIDIA GPU", "no CUDA: not an NVIDIA GPU");
	SAYS(&gpu, 0, "no CUDA driver (libcuda.so.1", "no CUDA: no CUDA driver");
	parts.driver = &one;
	SAYS(&other, 0, "does not know the device at 0000:2c:00", "no CUDA");
	SAYS(&gpu, 0, "no NVRTC (libnvrtc.so", "no CUDA: no NVRTC");
	parts.nvrtc = &nv;
	SAYS(&gpu, 1, "", "no CUPTI (libcupti.so");
	parts.cupti = 1;
	snprintf(params, sizeof(params), "%s/nvidia-params", check_tmpdir);
	f = fopen(params, "w");
	if (f) {
		fputs("ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\n", f);
		fclose(f);
	}
	parts.profiling_params = params;
	SAYS(&gpu, 1, "", "not permitted: the driver lets only administrators profile");
	parts.admin = 1;
	SAYS(&gpu, 1, "", "available");
#undef SAYS
	CHECK(!wl_cupti_loads("libcupti-absent.so", why, sizeof(why)) && strstr(why, "no CUPTI"), "%s", why);
}

/* A counter data image the H100 recorded (copy float at n = 64 Mi, CUDA,
 * bench/gpu.sh with COUNTER_DUMP=1) evaluates on the host to the values
 * the runner read from it then: 2 Mi load requests of 4 sectors each, as
 * many stores, and about 256 MiB read from DRAM and as much written. */
void test_counters_evaluate_from_an_h100_image(void)
{
	static const char *const keys[WL_COUNTERS] = { "global_load_sectors", "global_load_requests",
		"global_store_sectors", "global_store_requests", "shared_load_wavefronts", "shared_store_wavefronts",
		"shared_loads", "shared_stores", "shared_load_bank_conflicts", "dram_read_bytes", "dram_write_bytes",
		"l2_hit_pct" };
	double values[WL_COUNTERS];
	char why[300], *data = NULL;
	size_t size = 0;
	json_t *want = json_load_file("tests/fixtures/nvidia-h100/counters-copy-float.json", 0, NULL);
	FILE *f = fopen("tests/fixtures/nvidia-h100/counters-copy-float.bin", "rb");

	if (f && fseek(f, 0, SEEK_END) == 0 && (size = (size_t)ftell(f)) > 0 && (data = malloc(size)) &&
	    fseek(f, 0, SEEK_SET) == 0 && fread(data, 1, size, f) != size)
		size = 0;
	if (f)
		fclose(f);
	CHECK(want && data && size > 0, "the fixture");
	if (want && data && size > 0) {
		int rc = wl_counters_evaluate(NULL, json_string_value(json_object_get(want, "chip")), data, size, values,
					      why, sizeof(why));

		if (rc < 0 && strstr(why, "no CUPTI")) {
			snprintf(check_skipped, sizeof(check_skipped), "%s", why);
		} else if (rc < 0) {
			CHECK(0, "evaluation: %s", why);
		} else {
			for (int i = 0; i < WL_COUNTERS; i++)
				CHECK(fabs(values[i] - json_number_value(json_object_get(json_object_get(want, "values"), keys[i]))) <=
					      1e-9 * fabs(values[i]),
				      "%s: %g", keys[i], values[i]);
			CHECK(values[WL_CTR_GLOBAL_LOAD_SECTORS] == 4 * values[WL_CTR_GLOBAL_LOAD_REQUESTS] &&
			      values[WL_CTR_GLOBAL_LOAD_REQUESTS] == 2097152, "4 sectors a request, 2 Mi requests");
		}
	}
	free(data);
	json_decref(want);
}

/* Modules compiled ahead, with no device (NVRTC needs no context): each
 * source with its options once on the list; one that does not compile adds
 * nothing (its run compiles it again and says why). */
void test_cuda_modules_compile_ahead_without_a_device(void)
{
	struct wl_cuda_compiled *list = NULL;
	struct wl_source ok, bad;
	struct wl_nvrtc nv;
	struct wl_error err;
	size_t count = 0;

	if (nvrtc_or_skip(&nv) < 0)
		return;
	CHECK(wl_source_from_text("extern \"C\" __global__ void k(float *o) { o[threadIdx.x] = W; }", &ok, &err) == 0 &&
	      wl_source_from_text("extern \"C\" __global__ void k(float *o) { o[0] = undeclared; }", &bad, &err) == 0,
	      "sources");
	CHECK(wl_cuda_compile(&nv, 90, &ok, "-D W=2", &list, &err) == 0, "%s", err.msg);
	CHECK(wl_cuda_compile(&nv, 90, &ok, "-D W=3", &list, &err) == 0, "%s", err.msg);
	CHECK(wl_cuda_compile(&nv, 90, &bad, "", &list, &err) < 0 && err.kind == WL_ERR_BUILD, "refused: %s", err.msg);
	CHECK(wl_cuda_compile(&nv, 90, &ok, "-fast", &list, &err) < 0, "an option NVRTC has no twin for");
	for (const struct wl_cuda_compiled *c = list; c; c = wl_cuda_compiled_next(c))
		count++;
	CHECK(count == 2, "two compiled, %zu on the list", count);
	/* The worker takes the list; a run takes one module off it and frees
	 * that one alone: the other stays to be taken. */
	wl_cuda_compiled_adopt(list);
	{
		struct wl_cuda_compiled *three = wl_cuda_compiled_take(&ok, "-D W=3"), *two;

		CHECK(three && !three->next && strcmp(three->options, "-D W=3") == 0, "one module taken, alone");
		wl_cuda_compiled_free(three);
		two = wl_cuda_compiled_take(&ok, "-D W=2");
		CHECK(two && strcmp(two->options, "-D W=2") == 0 && two->bin && two->len > 0,
		      "the other is still there after the first is freed");
		CHECK(!wl_cuda_compiled_take(&ok, "-D W=2"), "taken once");
		wl_cuda_compiled_free(two);
	}
	wl_cuda_compiled_release();
	wl_source_free(&ok);
	wl_source_free(&bad);
}

/* A kernel that does not fit the device (4 MiB of __shared__ on an H100,
 * which has 227 KiB a block) fails its build with NVRTC's error and
 * ptxas's figures in the message, which a custom kernel's failure shows as
 * its build log. */
void test_nvrtc_says_why_a_kernel_does_not_fit(void)
{
	static const char src[] = "extern \"C\" __global__ void big(float *o)\n{\n"
				  "\t__shared__ float tile[1 << 20];\n"
				  "\ttile[threadIdx.x] = o[threadIdx.x];\n\t__syncthreads();\n"
				  "\to[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];\n}\n";
	struct wl_nvrtc nv;
	struct wl_error err;
	char *bin = NULL, *log = NULL;
	size_t len;
	json_t *figures;

	if (nvrtc_or_skip(&nv) < 0)
		return;
	/* NVRTC 13 fails it with ptxas's figures alone in its log: the error
	 * carries both, and the figures say what the kernel asks for (which the
	 * CUDA side sets against the device's limit, on a GPU). */
	CHECK(wl_nvrtc_compile(&nv, src, "big.cu", 90, 1, NULL, 0, &bin, &len, &log, &err) < 0 &&
		      err.kind == WL_ERR_BUILD && strstr(err.msg, "big.cu") && strstr(err.msg, "NVRTC_ERROR_"),
	      "NVRTC's error in the message: %s", err.msg);
	figures = wl_ptxas_figures(err.msg);
	CHECK(json_integer_value(json_object_get(json_object_get(figures, "big"), "shared_bytes")) == 4194304,
	      "the kernel's 4 MiB read from the message: %s", err.msg);
	json_decref(figures);
	CHECK(!bin && !log, "nothing to free");
}
