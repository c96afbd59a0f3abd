/* The runner's pure parts: statistics, the random inputs, the transpose
 * reference, exact verification and device ids. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "check.h"
#include "checker.h"
#include "cl_device.h"
#include "cl_program.h"
#include "dev_buffer.h"
#include "program_disk.h"
#include "experiment.h"
#include "experiments.h"
#include "references.h"
#include "rng.h"
#include "stats.h"

void test_stats_summarise_samples(void)
{
	static const struct {
		double samples[6];
		size_t n;
		double median, min, max;
	} rows[] = {
		{ { 5 }, 1, 5, 5, 5 },
		{ { 3, 1, 2 }, 3, 2, 1, 3 },
		{ { 4, 1, 3, 2 }, 4, 2.5, 1, 4 },
		{ { 1, 1, 1, 9, 9 }, 5, 1, 1, 9 },
		{ { 0.5, 0.25, 100, 0.75, 0.5, 0.5 }, 6, 0.5, 0.25, 100 },
	};
	struct wl_stats s;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		CHECK(wl_stats_summary(rows[i].samples, rows[i].n, &s) == 0, "row %zu", i);
		CHECK(s.median == rows[i].median && s.min == rows[i].min && s.max == rows[i].max,
		      "row %zu: median %g min %g max %g, expected %g %g %g", i, s.median, s.min, s.max,
		      rows[i].median, rows[i].min, rows[i].max);
	}
	CHECK(wl_stats_summary(rows[0].samples, 0, &s) < 0, "no samples is an error");
}

void test_rng_is_reproducible_and_never_zero(void)
{
	enum { N = 100000 };
	float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
	struct wl_rng r;
	size_t zeros = 0, negative = 0, out_of_range = 0;

	wl_rng_seed(&r, 42);
	wl_rng_fill_float(&r, a, N);
	wl_rng_seed(&r, 42);
	wl_rng_fill_float(&r, b, N);
	CHECK(memcmp(a, b, N * sizeof(float)) == 0, "same seed, same inputs");
	wl_rng_seed(&r, wl_rng_derive(42, 1));
	wl_rng_fill_float(&r, b, N);
	CHECK(memcmp(a, b, N * sizeof(float)) != 0, "another stream, other inputs");
	for (size_t i = 0; i < N; i++) {
		zeros += a[i] == 0.0f;
		negative += a[i] < 0;
		out_of_range += a[i] < -1.0f || a[i] >= 1.0f;
	}
	CHECK(zeros == 0, "%zu zeros", zeros);
	CHECK(out_of_range == 0, "%zu values outside [-1, 1)", out_of_range);
	CHECK(negative > N / 3 && negative < 2 * N / 3, "both signs: %zu negative of %d", negative, N);
	/* SplitMix64's published first output for seed 0. */
	wl_rng_seed(&r, 0);
	CHECK(wl_rng_next(&r) == 0xe220a8397b1dcdafULL, "SplitMix64 reference value");
	free(a);
	free(b);
}

void test_transpose_reference_transposes(void)
{
	static const size_t sizes[] = { 1, 3, 64, 65, 200 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k], bad = 0;
		float *in = malloc(n * n * sizeof(float)), *out = malloc(n * n * sizeof(float));

		for (size_t i = 0; i < n * n; i++)
			in[i] = (float)i;
		for (size_t o = 0; o < n * n; o++)
			out[o] = in[wl_transpose_source(o, n)];
		for (size_t y = 0; y < n; y++)
			for (size_t x = 0; x < n; x++)
				bad += out[x * n + y] != in[y * n + x];
		CHECK(bad == 0, "n=%zu: %zu elements misplaced", n, bad);
		free(in);
		free(out);
	}
}

void test_exact_verification_reports_first_difference(void)
{
	float want[6] = { 1, 2, 3, 4, 5, 6 }, got[6];
	struct wl_measurement m;
	uint32_t poison = 0xFFFFFFFFu;

	memcpy(got, want, sizeof(got));
	memset(&m, 0, sizeof(m));
	CHECK(wl_verify_exact_float(got, want, 6, 3, &m) == 1 && m.error[0] == 0, "equal passes");
	got[4] = 7;
	memcpy(&got[5], &poison, sizeof(float));	/* an element never written */
	CHECK(wl_verify_exact_float(got, want, 6, 3, &m) == 0, "difference fails");
	CHECK(strstr(m.error, "2 of 6 elements differ") && strstr(m.error, "[1][1]"),
	      "message names count and place: %s", m.error);
	/* -0.0 == 0.0 as floats, but a copy must keep the bits. */
	memset(&m, 0, sizeof(m));
	want[0] = 0.0f;
	memcpy(got, want, sizeof(got));
	got[0] = -0.0f;
	CHECK(wl_verify_exact_float(got, want, 6, 0, &m) == 0, "bitwise, not ==");
}

static float transposed_at(const void *ctx, size_t o)
{
	return wl_rng_float_at(*(const uint64_t *)ctx, wl_transpose_source(o, 300));
}

/* A reference evaluated per element finds one wrong element among 90000, and
 * names it. */
void test_verification_against_a_function_of_the_index(void)
{
	enum { N = 300 };
	float *got = malloc(N * N * sizeof(float));
	struct wl_measurement m;
	uint64_t base = 99;

	for (size_t o = 0; o < N * N; o++)
		got[o] = transposed_at(&base, o);
	memset(&m, 0, sizeof(m));
	CHECK(wl_verify_exact_float_fn(got, transposed_at, &base, N * N, N, &m) == 1 && !m.error[0],
	      "the exact transpose passes: %s", m.error);
	got[7 * N + 11] = -got[7 * N + 11];
	CHECK(wl_verify_exact_float_fn(got, transposed_at, &base, N * N, N, &m) == 0, "one flip fails");
	CHECK(strstr(m.error, "1 of 90000 elements differ") && strstr(m.error, "[7][11]"), "%s", m.error);
	free(got);
}

/* Checks handed to the background thread end with the same verdicts as in
 * turn, one after another: starting the second waits for the first, and
 * waiting for the memory a check reads returns only once it has ended. */
void test_checks_run_in_the_background(void)
{
	enum { N = 300 };
	float *good = malloc(N * N * sizeof(float)), *bad = malloc(N * N * sizeof(float));
	struct wl_measurement *m = calloc(2, sizeof(*m));
	struct wl_checker *c = NULL;
	struct wl_error err;
	uint64_t base = 7;

	if (!good || !bad || !m || wl_checker_new(2, &c, &err) < 0) {
		CHECK(0, "set-up");
		goto out;
	}
	for (size_t o = 0; o < N * N; o++)
		good[o] = bad[o] = transposed_at(&base, o);
	bad[N * N - 1] += 1;
	m[0].verified = m[1].verified = -1;
	wl_checker_start(c, &(struct wl_exact_check){ .got = good, .want = transposed_at, .ctx = &base,
						       .n = N * N, .row_len = N }, &m[0]);
	wl_checker_start(c, &(struct wl_exact_check){ .got = bad, .array = good, .n = N * N,
						       .row_len = N }, &m[1]);
	CHECK(m[0].verified == 1 && !m[0].error[0], "the first check ended before the second began: %d %s",
	      m[0].verified, m[0].error);
	wl_checker_wait_reading(c, good, N * N * sizeof(float));
	wl_checker_wait_reading(c, bad, N * N * sizeof(float));
	CHECK(m[1].verified == 0 && strstr(m[1].error, "1 of 90000 elements differ") &&
		      strstr(m[1].error, "[299][299]"),
	      "the wrong element found in the background: %d %s", m[1].verified, m[1].error);
	wl_checker_wait(c);
out:
	wl_checker_free(c);
	free(good);
	free(bad);
	free(m);
}

void test_device_ids_are_slugs(void)
{
	static const struct {
		const char *name, *slug;
	} rows[] = {
		{ "NVIDIA H100 80GB HBM3", "nvidia-h100-80gb-hbm3" },
		{ "pthread-skylake-avx512-AMD EPYC", "pthread-skylake-avx512-amd-epyc" },
		{ "  Weird__Name!! ", "weird-name" },
		{ "", "device" },
	};
	char out[80];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		wl_device_slug(rows[i].name, out, sizeof(out));
		CHECK(strcmp(out, rows[i].slug) == 0, "'%s' -> '%s', expected '%s'", rows[i].name, out,
		      rows[i].slug);
	}
	CHECK(strcmp(wl_cl_error_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES") == 0, "error names");
	CHECK(strcmp(wl_cl_error_name(-9999), "CL_UNKNOWN_ERROR") == 0, "unknown code");
	CHECK(wl_fnv1a64("", 0) == 0xcbf29ce484222325ULL && wl_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL,
	      "FNV-1a 64 reference values");
}

/* The fills compute each element from its index on every core: the values are
 * those of one core drawing in order, whatever the number of threads, and the
 * generator continues where the fill ended. */
void test_rng_fills_are_counter_based(void)
{
	enum { N = 200000 };
	float *par = malloc(N * sizeof(float));
	struct wl_rng a, b;
	size_t differ = 0;

	wl_rng_seed(&a, 7);
	wl_rng_seed(&b, 7);
	wl_rng_fill_float(&a, par, N);
	for (size_t i = 0; i < N; i++) {
		int32_t v = (int32_t)(wl_rng_next(&b) >> 40) - (1 << 23);
		float want = (float)(v ? v : 1) / (float)(1 << 23);

		differ += memcmp(&par[i], &want, sizeof(want)) != 0;
	}
	CHECK(differ == 0, "%zu of %d elements differ from the sequential stream", differ, N);
	CHECK(wl_rng_next(&a) == wl_rng_next(&b), "the stream goes on from the same place");
	/* Any element alone, and a skip that leaves the stream where a fill does. */
	differ = 0;
	for (size_t i = 0; i < N; i += 997)
		differ += memcmp(&par[i], &(float){ wl_rng_float_at(7, i) }, sizeof(float)) != 0;
	CHECK(differ == 0, "%zu elements computed alone differ", differ);
	wl_rng_seed(&a, 7);
	wl_rng_skip(&a, N);
	wl_rng_next(&b);
	wl_rng_seed(&b, 7);
	wl_rng_fill_float(&b, par, N);
	CHECK(wl_rng_next(&a) == wl_rng_next(&b), "a skip of n is a fill of n");
	free(par);
}

/* The inputs a kernel reads are made on the device (PoCL here) by the same
 * counter-based generator the host uses for the reference: the same values,
 * never zero, and other values for another seed. */
void test_device_random_inputs_match_the_host(void)
{
	enum { N = 300000 };
	struct wl_devices devs = { 0 };
	struct wl_program_cache *programs = wl_program_cache_new(NULL);
	float *host = malloc(N * sizeof(float)), *dev = malloc(N * sizeof(float)), *other = malloc(N * sizeof(float));
	struct wl_error err;

	CHECK(wl_devices_find("cpu", NULL, &devs, &err) == 0 && devs.count > 0, "a PoCL device: %s", err.msg);
	for (size_t kind = 0; devs.count && kind < 2; kind++) {
		struct wl_point pt = { .dev = &devs.list[0], .programs = programs, .backend = &wl_backend_opencl };
		int max = kind ? 8 : 0;
		struct wl_rng r;
		struct wl_buf buf = { 0 };
		size_t differ = 0, zeros = 0, same = 0;

		CHECK(wl_cl_device_open(pt.dev, &err) == 0, "%s", err.msg);
		wl_rng_seed(&r, 42);
		CHECK(wl_point_random(&pt, &r, N, max, host, WL_BUF_SCRATCH, &buf, &err) == 0, "%s", err.msg);
		CHECK(wl_buf_made(&buf) && wl_point_read(&pt, &buf, N * sizeof(float), dev, &err) == 0, "read back");
		wl_buf_release(&buf);
		wl_rng_seed(&r, 43);
		CHECK(wl_point_random(&pt, &r, N, max, other, WL_BUF_SCRATCH, &buf, &err) == 0, "%s", err.msg);
		wl_buf_release(&buf);
		for (size_t i = 0; i < N; i++) {
			differ += memcmp(&host[i], &dev[i], sizeof(float)) != 0;
			zeros += dev[i] == 0.0f;
			same += host[i] == other[i];
		}
		CHECK(differ == 0, "%s: %zu of %d device values differ from the host's", max ? "small ints" : "floats",
		      differ, N);
		CHECK(zeros == 0, "%zu zeros", zeros);
		CHECK(same < N / 2, "another seed, other values (%zu equal)", same);
	}
	/* Without a host copy: the device's values are the ones evaluated per
	 * index, and the generator moves on as after a fill. */
	if (devs.count) {
		struct wl_point pt = { .dev = &devs.list[0], .programs = programs, .backend = &wl_backend_opencl };
		struct wl_rng r, filled;
		struct wl_buf buf = { 0 };
		size_t differ = 0;

		wl_rng_seed(&r, 5);
		CHECK(wl_point_random(&pt, &r, N, 0, NULL, WL_BUF_SCRATCH, &buf, &err) == 0, "%s", err.msg);
		CHECK(wl_buf_made(&buf) && wl_point_read(&pt, &buf, N * sizeof(float), dev, &err) == 0, "read back");
		wl_buf_release(&buf);
		for (size_t i = 0; i < N; i++)
			differ += memcmp(&dev[i], &(float){ wl_rng_float_at(5, i) }, sizeof(float)) != 0;
		CHECK(differ == 0, "%zu of %d device values differ from wl_rng_float_at", differ, N);
		wl_rng_seed(&filled, 5);
		wl_rng_fill_float(&filled, host, N);
		CHECK(r.state == filled.state, "the generator advanced as a fill would");
	}
	free(host);
	free(dev);
	free(other);
	wl_program_cache_free(programs);
	wl_devices_free(&devs);
}

/* The number of files in dir; the last one seen into path; all removed, with
 * dir, when remove is set. */
static int scan_files(const char *dir, char *path, size_t len, int remove)
{
	DIR *d = opendir(dir);
	int n = 0;

	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		snprintf(path, len, "%s/%s", dir, e->d_name);
		if (remove)
			unlink(path);
	}
	if (d)
		closedir(d);
	if (remove)
		rmdir(dir);
	return n;
}

/* Built binaries are kept on disk and loaded by the next cache (a restarted
 * worker), used only for exactly their source; a user's kernel is not kept;
 * a damaged file means a build from source. */
void test_programs_are_kept_on_disk_across_restarts(void)
{
	static const char text[] = "__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2; }\n";
	char dir[] = "/tmp/warplab-programs-XXXXXX", path[512];
	struct wl_devices devs = { 0 };
	struct wl_source src, custom;
	struct wl_error err;
	long built, loaded;

	CHECK(mkdtemp(dir) != NULL, "temporary folder");
	CHECK(wl_devices_find("cpu", NULL, &devs, &err) == 0 && devs.count > 0, "a PoCL device: %s", err.msg);
	CHECK(wl_source_from_text(text, &src, &err) == 0 && wl_source_from_text(text, &custom, &err) == 0, "sources");
	src.keep_binary = 1;
	for (int round = 0; devs.count && round < 3; round++) {
		struct wl_program_cache *cache = wl_program_cache_new(dir);
		cl_program program;
		cl_kernel k;
		cl_int rc;

		/* Before the third round the kept file is damaged: cut short. */
		if (round == 2)
			CHECK(scan_files(dir, path, sizeof(path), 0) == 1 && truncate(path, 200) == 0, "cut %s", path);
		CHECK(wl_program_get(cache, &devs.list[0], &src, "-D X=1", &program, &err) == 0, "%s", err.msg);
		k = clCreateKernel(program, "twice", &rc);
		CHECK(k != NULL, "the kernel is there: %s", wl_cl_error_name(rc));
		if (k)
			clReleaseKernel(k);
		wl_program_cache_counts(cache, &built, &loaded);
		CHECK(round == 1 ? built == 0 && loaded == 1 : built == 1 && loaded == 0,
		      "round %d: built %ld, loaded %ld", round, built, loaded);
		if (round == 0) {
			/* Not kept: a user's kernel. */
			CHECK(wl_program_get(cache, &devs.list[0], &custom, "-D Y=1", &program, &err) == 0, "%s", err.msg);
			CHECK(scan_files(dir, path, sizeof(path), 0) == 1, "one file, the catalog's");
		}
		wl_program_cache_free(cache);
	}
	/* A kept binary answers only for its own key and source. */
	{
		struct wl_program_file kept = { (unsigned char *)"BIN", 3, "ptxas info    : Used 8 registers",
						".version 8.0" }, got;

		CHECK(wl_program_disk_save(dir, "k", "abc", 3, &kept, &err) == 0, "%s", err.msg);
		CHECK(wl_program_disk_load(dir, "k", "abc", 3, &got) == 0 && got.binary_len == 3 &&
		      memcmp(got.binary, "BIN", 3) == 0 && strcmp(got.log, kept.log) == 0 &&
		      strcmp(got.ptx, kept.ptx) == 0, "saved and loaded, with the build's log and PTX");
		free(got.binary);
		free(got.log);
		free(got.ptx);
		CHECK(wl_program_disk_load(dir, "k", "abd", 3, &got) < 0 && got.binary == NULL, "another source: none");
		CHECK(wl_program_disk_load(dir, "other", "abc", 3, &got) < 0, "another key: none");
	}
	wl_source_free(&src);
	wl_source_free(&custom);
	wl_devices_free(&devs);
	scan_files(dir, path, sizeof(path), 1);
}

/* Pinned staging: a first area is pinned at the size asked for (pinning is
 * what costs), a growing one by at least half of what it had, so a sweep
 * of rising sizes pins a few times and never much more than it needs. */
void test_staging_grows_by_half_but_starts_at_its_size(void)
{
	const size_t mib = (size_t)1 << 20;
	size_t had = 0, pinned = 0, pins = 0;

	CHECK(wl_staging_size(64 * mib, 0) == 64 * mib, "a first area is what it holds");
	CHECK(wl_staging_size(64 * mib + 1, 0) == 65 * mib, "rounded up to a whole MiB");
	CHECK(wl_staging_size(65 * mib, 64 * mib) == 96 * mib, "grown by half of what it had");
	CHECK(wl_staging_size(256 * mib, 64 * mib) == 256 * mib, "a jump is pinned at its size");
	/* The transpose sweep, n = 256 .. 8192 by 256: its outputs of n * n floats. */
	for (size_t n = 256; n <= 8192; n += 256) {
		size_t bytes = n * n * sizeof(float);

		if (bytes > had) {
			had = wl_staging_size(bytes, had);
			pinned += had;
			pins++;
		}
	}
	CHECK(pins <= 16, "a few pins for 32 sizes, got %zu", pins);
	CHECK(had < 2 * 8192 * 8192 * sizeof(float) && pinned < 4 * 8192 * 8192 * sizeof(float),
	      "never much more than needed: %zu MiB last, %zu MiB in all", had / mib, pinned / mib);
}

/* The catalog's programs built ahead on a thread of their own: once joined,
 * the cache has them (a run builds nothing); one that does not build is left
 * for the run that asks, which gets the compiler's log. */
void test_programs_built_ahead_are_found_built(void)
{
	static const char good[] = "__kernel void twice(__global float *x) { x[get_global_id(0)] *= WIDTH; }\n";
	static const char bad[] = "__kernel void broken(__global float *x) { x[0] = undeclared; }\n";
	struct wl_program_cache *cache = wl_program_cache_new(NULL);
	struct wl_devices devs = { 0 };
	struct wl_source ok, broken;
	struct wl_error err;
	long built, loaded;
	double ms;

	CHECK(wl_devices_find("cpu", NULL, &devs, &err) == 0 && devs.count > 0, "a PoCL device: %s", err.msg);
	CHECK(wl_source_from_text(good, &ok, &err) == 0 && wl_source_from_text(bad, &broken, &err) == 0, "sources");
	if (devs.count) {
		const struct wl_source *srcs[] = { &ok, &ok, &broken };
		const char *options[] = { "-D WIDTH=2", "-D WIDTH=3", "" };
		struct wl_program_ahead *ahead = wl_program_ahead_start(cache, &devs.list[0], srcs, options, 3, &err);
		cl_program program;

		CHECK(ahead != NULL, "started: %s", err.msg);
		CHECK(wl_program_ahead_join(cache, ahead, &ms) == 2, "the two that build are added");
		wl_program_cache_counts(cache, &built, &loaded);
		CHECK(built == 2 && loaded == 0, "built %ld, loaded %ld", built, loaded);
		CHECK(wl_program_get(cache, &devs.list[0], &ok, "-D WIDTH=3", &program, &err) == 0, "%s", err.msg);
		wl_program_cache_counts(cache, &built, &loaded);
		CHECK(built == 2, "a run finds it built: %ld builds", built);
		CHECK(wl_program_get(cache, &devs.list[0], &broken, "", &program, &err) < 0 && err.kind == WL_ERR_BUILD &&
		      strstr(wl_program_cache_build_log(cache), "undeclared"),
		      "the broken one fails where it is asked for, with its log: %s", err.msg);
		/* Nothing left to build: no thread, nothing added. */
		ahead = wl_program_ahead_start(cache, &devs.list[0], srcs, options, 2, &err);
		CHECK(wl_program_ahead_join(cache, ahead, &ms) == 0, "what the cache has is skipped");
	}
	wl_source_free(&ok);
	wl_source_free(&broken);
	wl_program_cache_free(cache);
	wl_devices_free(&devs);
}

/* A variant that a run knows as warm is timed without warm-ups: counted by
 * the launches the kernel itself counts, not by a clock. */
void test_warm_kernels_skip_their_warm_ups(void)
{
	static const char text[] = "__kernel void count(__global int *c) { c[0] += 1; }\n";
	struct wl_program_cache *programs = wl_program_cache_new(NULL);
	struct wl_warm_kernels warm = { 0 };
	struct wl_devices devs = { 0 };
	struct wl_source src;
	struct wl_error err;

	wl_warm_note(&warm, "slow", WL_WARM_AFTER_MS - 0.1);
	CHECK(!wl_warm_known(&warm, "slow"), "a median under WL_WARM_AFTER_MS is not warm");
	wl_warm_note(&warm, "slow", WL_WARM_AFTER_MS);
	wl_warm_note(&warm, "slow", 2 * WL_WARM_AFTER_MS);
	CHECK(wl_warm_known(&warm, "slow") && warm.count == 1, "noted once: %zu", warm.count);
	CHECK(!wl_warm_known(NULL, "slow") && !wl_warm_known(&warm, "other"), "unknown elsewhere");
	CHECK(wl_devices_find("cpu", NULL, &devs, &err) == 0 && devs.count > 0, "a PoCL device: %s", err.msg);
	CHECK(wl_source_from_text(text, &src, &err) == 0, "%s", err.msg);
	if (devs.count) {
		/* One warm-up: two may stop at one when the first is slow. */
		struct wl_point pt = { .dev = &devs.list[0], .programs = programs, .backend = &wl_backend_opencl, .source = &src, .warmup = 1,
				       .repeat = 3, .variant = "count", .warm = &warm };
		struct wl_launch l = { .dims = 1, .global = { 1 }, .local = { 1 } };
		struct wl_measurement *res = calloc(1, sizeof(*res));
		struct wl_buf counter = { 0 };
		cl_int launches = 0;

		CHECK(wl_cl_device_open(pt.dev, &err) == 0, "%s", err.msg);
		CHECK(wl_point_buffer(&pt, WL_BUF_SCRATCH, sizeof(cl_int), &launches, &counter, &err) == 0, "%s", err.msg);
		CHECK(wl_point_kernel(&pt, "", "count", &l, &err) == 0, "%s", err.msg);
		CHECK(wl_backend_opencl.arg_buffer(&l, 0, &counter, &err) == 0, "%s", err.msg);
		CHECK(wl_point_time(&pt, &l, res, &err) == 0, "%s", err.msg);
		CHECK(wl_point_read(&pt, &counter, sizeof(cl_int), &launches, &err) == 0 && launches == 4,
		      "not warm: one warm-up and three timed, %d launches", launches);
		wl_warm_note(&warm, "count", WL_WARM_AFTER_MS);
		CHECK(wl_point_time(&pt, &l, res, &err) == 0, "%s", err.msg);
		CHECK(wl_point_read(&pt, &counter, sizeof(cl_int), &launches, &err) == 0 && launches == 7,
		      "warm: three timed, none more (%d launches in all)", launches);
		wl_launch_release(&l);
		wl_buf_release(&counter);
		free(res);
	}
	wl_source_free(&src);
	wl_program_cache_free(programs);
	wl_devices_free(&devs);
}
