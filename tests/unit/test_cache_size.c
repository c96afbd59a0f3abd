/* Where a device's cache size comes from and what a cold launch flushes: the
 * flush for a known, a probed and an unknown size, and the CUDA driver's
 * answer where the library is absent (as on every PoCL machine). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cache_probe.h"
#include "check.h"
#include "cold_flush.h"
#include "cuda_driver.h"

void test_cold_flush_is_never_less_than_safe(void)
{
	static const struct wl_device gpu = { .max_alloc = 20ULL << 30, .global_mem = 80ULL << 30 };
	static const struct wl_device small = { .max_alloc = 256ULL << 20, .global_mem = 1ULL << 30 };
	const struct {
		const struct wl_device *dev;
		long long cache;
		size_t max, flush;
	} rows[] = {
		{ &gpu, 52428800, 0, 4 * 52428800ULL },	/* the H100's L2, from the driver: 200 MiB */
		{ &gpu, 52428800, 1ULL << 30, 4 * 52428800ULL },
		{ &gpu, 1 << 20, 0, 8ULL << 20 },		/* a small probed cache: at least 8 MiB */
		{ &gpu, 0, 0, 512ULL << 20 },			/* unknown: more than any cache */
		{ &gpu, 0, 1ULL << 30, 512ULL << 20 },
		{ &gpu, 0, 8ULL << 20, 8ULL << 20 },		/* an operator's cap wins */
		{ &small, 0, 0, 256ULL << 20 },			/* a quarter of a small device */
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t got = wl_cache_flush_bytes(rows[i].dev, rows[i].cache, rows[i].max);

		CHECK(got == rows[i].flush, "row %zu: %zu bytes, expected %zu", i, got, rows[i].flush);
	}
}

void test_cuda_driver_absent_is_said_not_failed(void)
{
	struct wl_cuda_devices cuda;
	char why[256] = "";

	CHECK(wl_cuda_devices_load("libwarplab-no-such-cuda.so.1", &cuda, why, sizeof(why)) < 0,
	      "no library, no answer");
	CHECK(cuda.count == 0, "no devices");
	CHECK(strstr(why, "no CUDA driver (libwarplab-no-such-cuda.so.1)") != NULL, "says why: %s", why);
	CHECK(wl_cuda_l2_bytes(&cuda, 0, 0x1b, 0) == 0, "no size for any address");
	/* A table as the H100's driver fills it: matched by the whole address. */
	cuda.count = 2;
	cuda.list[0].domain = 0, cuda.list[0].bus = 0x1b, cuda.list[0].slot = 0, cuda.list[0].l2_bytes = 52428800;
	cuda.list[1].domain = 0, cuda.list[1].bus = 0x2c, cuda.list[1].slot = 0, cuda.list[1].l2_bytes = 62914560;
	CHECK(wl_cuda_l2_bytes(&cuda, 0, 0x1b, 0) == 52428800, "the first GPU's L2");
	CHECK(wl_cuda_l2_bytes(&cuda, 0, 0x2c, 0) == 62914560, "the second GPU's L2");
	CHECK(wl_cuda_l2_bytes(&cuda, 1, 0x1b, 0) == 0, "another domain is another device");
}

/* Write text to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

void test_a_cpus_cache_comes_from_sysfs(void)
{
	static const char *const levels[][3] = {
		{ "index0", "1\n", "32K\n" }, { "index1", "1\n", "32K\n" },
		{ "index2", "2\n", "1024K\n" }, { "index3", "3\n", "32768K\n" },
	};
	char cpu[400], dir[500];

	snprintf(cpu, sizeof(cpu), "%s/cpu0", check_tmpdir);
	mkdir(cpu, 0700);
	snprintf(dir, sizeof(dir), "%s/cache", cpu);
	mkdir(dir, 0700);
	CHECK(wl_cpu_cache_bytes(cpu) == 0, "no cache entries: 0");
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/cache/%s", cpu, levels[i][0]);
		mkdir(dir, 0700);
		put(dir, "level", levels[i][1]);
		put(dir, "size", levels[i][2]);
	}
	CHECK(wl_cpu_cache_bytes(cpu) == 32768LL * 1024, "the L3: %lld", wl_cpu_cache_bytes(cpu));
	CHECK(wl_cpu_cache_bytes("/nonexistent/cpu0") == 0, "no sysfs: 0");
}
