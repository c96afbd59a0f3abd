/* The model's ceilings (catalog/ceilings.h) on cases worked by hand, and the
 * departure causes (server/ceiling_view.h): a cause the kernel's accesses
 * exclude is never named. */
#include <math.h>
#include <string.h>

#include "ceiling_view.h"
#include "ceilings.h"
#include "predict.h"
#include "catalog.h"
#include "check.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) <= 1e-9 * fabs((double)(b)))

/* A device of 10 compute units: DRAM 1000 GB/s, cache 4000 GB/s over 50 MB,
 * an empty kernel 5 µs, a warp's request every 100 ns, 2000 local passes per
 * µs per unit, 64-byte bursts, 64 warps resident per unit. */
static const struct wl_device_model dev = {
	.dram_gbps = 1000, .cache_gbps = 4000, .cache_bytes = 50e6, .launch_us = 5, .latency_ns = 500,
	.warp_interval_ns = 100, .local_per_us = 2000, .burst_bytes = 64, .compute_units = 10, .warp = 32,
	.resident_warps = 64,
};

/* The counts of a launch, in wl_launch_work's order up to the footprint. */
static const struct wl_launch_work *work(double groups, double items, double requests, double moved, double burst,
					 double store_moved, double store_burst, double local, double barriers,
					 double footprint)
{
	static struct wl_launch_work w;

	w = (struct wl_launch_work){ .groups = groups, .items = items, .global_requests = requests,
				     .moved_bytes = moved, .burst_bytes = burst, .store_moved_bytes = store_moved,
				     .store_burst_bytes = store_burst, .local_wavefronts = local, .barriers = barriers,
				     .footprint_bytes = footprint };
	return &w;
}

void test_ceilings_by_hand(void)
{
	struct wl_ceilings c;
	struct wl_device_model d32 = dev;

	/* A copy: 10,000 groups of 256 moving 2,048 bytes each in whole
	 * bursts: 20.48 MB at 1000 GB/s = 0.02048 ms, + 5 µs; every byte passes
	 * the cache on its way, 20.48 MB at 4000 GB/s = 0.00512 ms. Latency:
	 * 80,000 warps in 125 waves of 640, 2 requests each at 100 ns: 0.025
	 * ms — larger: the copy is latency-bound on this small device. */
	CHECK(wl_ceilings_compute(&dev, work(10000, 256, 16, 2048, 2048, 0, 0, 0, 0, 0), &c) == 0, "copy");
	CHECK(NEAR(c.ms[WL_CEIL_DRAM], 0.02048) && NEAR(c.ms[WL_CEIL_CACHE], 0.00512) && c.ms[WL_CEIL_LOCAL] == 0,
	      "dram %g, cache %g", c.ms[WL_CEIL_DRAM], c.ms[WL_CEIL_CACHE]);
	CHECK(c.warps == 80000 && c.waves == 125 && NEAR(c.ms[WL_CEIL_LATENCY], 0.025), "latency %g in %g waves",
	      c.ms[WL_CEIL_LATENCY], c.waves);
	/* The time: the 3-norm of 0.025, 0.02048 and 0.00512 + 0.005. */
	CHECK(c.binding == WL_CEIL_LATENCY &&
	      NEAR(c.total_ms, cbrt(0.025 * 0.025 * 0.025 + 0.02048 * 0.02048 * 0.02048 + 0.00512 * 0.00512 * 0.00512) + 0.005) &&
	      NEAR(c.margin, 0.025 / 0.02048), "binding %s, total %g", wl_ceiling_name(c.binding), c.total_ms);
	/* The same copy where the compiler's account allows 8 resident warps per
	 * unit (255 registers): 80,000 warps in 1,000 waves of 80, 0.2 ms. */
	{
		struct wl_device_model spill = dev;

		spill.resident_warps = 8;
		CHECK(wl_ceilings_compute(&spill, work(10000, 256, 16, 2048, 2048, 0, 0, 0, 0, 0), &c) == 0 &&
		      c.waves == 1000 && NEAR(c.ms[WL_CEIL_LATENCY], 0.2), "at 8 warps: %g waves, %g ms", c.waves,
		      c.ms[WL_CEIL_LATENCY]);
	}
	/* A stride of 16 floats: 32 sectors of 32 bytes per request, each its
	 * own 64-byte burst: DRAM reads 8.192 MB of sectors in 16.384 MB of
	 * bursts; a device moving single sectors moves the 8.192. */
	CHECK(wl_ceilings_compute(&dev, work(1000, 256, 8, 8192, 16384, 0, 0, 0, 0, 0), &c) == 0 &&
	      NEAR(c.dram_bytes, 16384000) && NEAR(c.ms[WL_CEIL_DRAM], 0.016384), "bursts: %g bytes, %g ms",
	      c.dram_bytes, c.ms[WL_CEIL_DRAM]);
	d32.burst_bytes = 32;
	CHECK(wl_ceilings_compute(&d32, work(1000, 256, 8, 8192, 16384, 0, 0, 0, 0, 0), &c) == 0 &&
	      NEAR(c.ms[WL_CEIL_DRAM], 0.008192), "sectors: %g ms", c.ms[WL_CEIL_DRAM]);
	/* Buffers of 1 MB the 50 MB cache holds, asked 100 MB of: DRAM moves 1 MB
	 * (0.001 ms), the cache serves the 100 MB (0.025 ms) and binds. */
	CHECK(wl_ceilings_compute(&dev, work(1000, 256, 8, 100000, 100000, 0, 0, 0, 0, 1e6), &c) == 0 &&
	      c.reuse && NEAR(c.dram_bytes, 1e6) && NEAR(c.ms[WL_CEIL_CACHE], 0.025) && c.binding == WL_CEIL_CACHE,
	      "reuse: dram %g bytes, cache %g ms, binding %s", c.dram_bytes, c.ms[WL_CEIL_CACHE], wl_ceiling_name(c.binding));
	/* The same with 20 MB of stores into those buffers: the cache keeps
	 * what is written again too, and DRAM moves the 1 MB once. */
	CHECK(wl_ceilings_compute(&dev, work(1000, 256, 8, 100000, 100000, 20000, 20000, 0, 0, 1e6), &c) == 0 &&
	      c.reuse && NEAR(c.dram_bytes, 1e6), "written again: %g bytes", c.dram_bytes);
	/* Buffers of 120 MB, larger than the 50 MB cache, loaded 1 GB over:
	 * counts with no reuse distance (no load's touches) say nothing of
	 * what the cache keeps between them, and every byte of the buffers
	 * comes once, 120 MB; the cache serves the 1 GB. */
	CHECK(wl_ceilings_compute(&dev, work(1000, 256, 8, 1e6, 1e6, 0, 0, 0, 0, 120e6), &c) == 0 &&
	      c.reuse && NEAR(c.dram_bytes, 120e6) && NEAR(c.ms[WL_CEIL_CACHE], 1e9 / 4000e6),
	      "once: %g bytes from DRAM", c.dram_bytes);
	/* Local memory: 100 groups of 1,000 passes over 10 units at 2000 per µs
	 * = 5 µs; nothing else comes near. */
	CHECK(wl_ceilings_compute(&dev, work(100, 256, 1, 128, 128, 0, 0, 1000, 0, 0), &c) == 0 &&
	      NEAR(c.ms[WL_CEIL_LOCAL], 0.005) && c.binding == WL_CEIL_LOCAL, "local %g", c.ms[WL_CEIL_LOCAL]);
	/* Little's law with too few warps: 32 groups of one warp, 2,048 requests
	 * each (seed 000's MyAdd at n = 1024): one wave, 2,048 x 100 ns. */
	CHECK(wl_ceilings_compute(&dev, work(32, 32, 2048, 65536, 131072, 0, 0, 0, 0, 0), &c) == 0 &&
	      NEAR(c.ms[WL_CEIL_LATENCY], 0.2048) && c.binding == WL_CEIL_LATENCY && c.waves == 1,
	      "latency %g", c.ms[WL_CEIL_LATENCY]);
	/* Barriers: 800 groups of 8 warps, 8 resident per unit, 80 per wave on 10
	 * units: 10 waves of 9 barriers 150 ns apart = 13.5 µs. */
	{
		struct wl_device_model db = dev;

		db.barrier_ns = 150;
		CHECK(wl_ceilings_compute(&db, work(800, 256, 1, 128, 128, 0, 0, 0, 9, 0), &c) == 0 &&
		      NEAR(c.ms[WL_CEIL_BARRIER], 0.0135) && c.binding == WL_CEIL_BARRIER,
		      "barriers %g", c.ms[WL_CEIL_BARRIER]);
	}
	/* Nothing to time. */
	CHECK(wl_ceilings_compute(&dev, work(0, 256, 1, 1, 1, 0, 0, 0, 0, 0), &c) < 0 && c.total_ms == 0,
	      "no groups: no time");
}

void test_departures_name_only_causes_the_kernel_can_have(void)
{
	json_t *banks = json_string("bank conflicts and partition camping: the model's time counts global sectors only");
	json_t *x = json_string("x");
	struct wl_prediction global = { .has_global = 1 }, tiled = { .has_global = 1, .has_local = 1 };
	struct wl_ceilings c = { .binding = WL_CEIL_DRAM, .warps = 100000, .waves = 20 };
	char buf[700];
	const char *why;

	/* A copy of a tile without local memory, slower than predicted: the
	 * catalog's bank conflicts are not its cause, and nothing else shows. */
	CHECK(wl_departure_cause(&c, &dev, &global, 0.2, banks, NULL, buf, sizeof(buf)) == NULL && !buf[0],
	      "no bank conflicts without local memory: %s", buf);
	CHECK((why = wl_departure_cause(&c, &dev, &tiled, 0.2, banks, NULL, buf, sizeof(buf))) && strstr(why, "bank"),
	      "with local memory the catalog's cause stands");
	/* Too few warps for the device: said, whatever the catalog says. */
	c.warps = 8;
	c.waves = 1;
	CHECK((why = wl_departure_cause(&c, &dev, &global, 0.2, banks, NULL, buf, sizeof(buf))) &&
	      strstr(why, "too little parallelism: 8 warps in all for 10 compute units"), "%s", buf);
	/* Latency binding at full occupancy. */
	c.warps = 100000;
	c.binding = WL_CEIL_LATENCY;
	CHECK((why = wl_departure_cause(&c, &dev, &global, 0.4, NULL, NULL, buf, sizeof(buf))) &&
	      strstr(why, "latency not hidden"), "%s", buf);
	/* Faster where the buffers fit the cache: reuse. */
	c.binding = WL_CEIL_CACHE;
	c.reuse = 1;
	c.dram_bytes = 24e6;
	c.cache_bytes = 4e9;
	c.footprint_bytes = 24e6;
	CHECK((why = wl_departure_cause(&c, &dev, &global, 3, x, NULL, buf, sizeof(buf))) && strstr(why, "reuse in the caches") &&
	      strstr(why, "(24 MB) fit the last-level cache"), "%s", buf);
	/* Buffers larger than the cache are never said to fit it; the first
	 * level's share is said where it serves some. */
	c.footprint_bytes = 434e6;
	c.first_level = 1;
	c.hit_share = 0.875;
	CHECK((why = wl_departure_cause(&c, &dev, &global, 3, x, NULL, buf, sizeof(buf))) && !strstr(why, "fit") &&
	      strstr(why, "serves 88% of its requests") && strstr(why, "(434 MB, more than"), "%s", buf);
	/* Without ceilings (no facts), the catalog's cause, filtered the same. */
	CHECK(wl_departure_cause(NULL, &dev, &global, 0.2, banks, NULL, buf, sizeof(buf)) == NULL, "filtered without ceilings too");
	json_decref(banks);
	json_decref(x);
}

/* The stride's time at c = 1 over the struct's, as the run measured it. */
static double struct_over_stride;

static double baseline_ratio(const void *arg, const char *other)
{
	(void)arg;
	return strcmp(other, "stride") == 0 ? struct_over_stride : 0;
}

/* The cause sentences a reader saw contradict the figures beside them
 * (the page's causes), fed to the catalog's own causes: each is said only where its
 * conditions hold at the result. */
void test_catalog_causes_cannot_contradict_the_row(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *banks = cat ? wl_catalog_find(cat, "banks") : NULL;
	const struct wl_experiment *copy = cat ? wl_catalog_find(cat, "copy") : NULL;
	const struct wl_experiment *transpose = cat ? wl_catalog_find(cat, "transpose") : NULL;
	const struct wl_variant_def *st = banks ? wl_experiment_variant(banks, "struct", NULL) : NULL;
	const struct wl_variant_def *stride = banks ? wl_experiment_variant(banks, "stride", NULL) : NULL;
	const struct wl_variant_def *fl = copy ? wl_experiment_variant(copy, "float", NULL) : NULL;
	const struct wl_variant_def *pad = transpose ? wl_experiment_variant(transpose, "padded", NULL) : NULL;
	struct wl_prediction conflicted = { .has_local = 1, .conflict_degree = 8 }, free_tile = { .has_global = 1, .has_local = 1, .conflict_degree = 1 };
	struct wl_prediction streaming = { .has_global = 1 };
	struct wl_device_model gpu = dev, cpu = dev;
	struct wl_cause_facts f = { .baseline_ratio = baseline_ratio };
	char buf[1024];

	if (!st || !stride || !fl || !pad) {
		CHECK(0, "the catalog's banks, copy and transpose variants");
		wl_catalog_free(cat);
		return;
	}
	gpu.launch_us = 4.7;
	cpu.warp = 0;
	/* "at c = 1 the struct kernel is already slower than the stride's":
	 * beside 197 ms (struct) and 352 ms (stride) it is not said. */
	struct_over_stride = 197.0 / 352.0;
	f.median_ms = 500;
	CHECK(!wl_departure_cause(NULL, &gpu, &conflicted, 3, st->model->faster, &f, buf, sizeof(buf)) ||
		      !strstr(buf, "its baseline"), "struct faster than stride at c = 1: %s", buf);
	struct_over_stride = 2.1;
	CHECK(wl_departure_cause(NULL, &gpu, &conflicted, 3, st->model->faster, &f, buf, sizeof(buf)) &&
		      strstr(buf, "its baseline"), "struct twice as slow at c = 1: said");
	/* "at this size the copy is too short" at n = 64 Mi (0.227 ms against a
	 * 4.7 µs launch): not said; at 20 µs it is. */
	f.median_ms = 0.227;
	CHECK(!wl_departure_cause(NULL, &gpu, &streaming, 0.4, fl->model->slower, &f, buf, sizeof(buf)),
	      "a long copy is not too short: %s", buf);
	f.median_ms = 0.02;
	CHECK(wl_departure_cause(NULL, &gpu, &streaming, 0.4, fl->model->slower, &f, buf, sizeof(buf)) &&
		      strstr(buf, "too short"), "a short one is");
	/* Padded: 1-way and no drops — neither bank conflicts nor partition
	 * camping; with drops, camping alone. */
	f.median_ms = 1;
	f.drops = 0;
	CHECK(!wl_departure_cause(NULL, &gpu, &free_tile, 0.4, pad->model->slower, &f, buf, sizeof(buf)),
	      "padded, 1-way, no drops: %s", buf);
	f.drops = 1;
	CHECK(wl_departure_cause(NULL, &gpu, &free_tile, 0.4, pad->model->slower, &f, buf, sizeof(buf)) &&
		      strstr(buf, "partition camping") && !strstr(buf, "bank"), "with drops: %s", buf);
	/* A CPU has no banks: "wide local-memory ports or broadcast within a
	 * bank" is not said of a PoCL result. */
	CHECK(!wl_departure_cause(NULL, &cpu, &conflicted, 3, stride->model->faster, &f, buf, sizeof(buf)),
	      "no banks on a CPU: %s", buf);
	CHECK(wl_departure_cause(NULL, &gpu, &conflicted, 3, stride->model->faster, &f, buf, sizeof(buf)) &&
		      strstr(buf, "within a bank"), "a GPU has them");
	wl_catalog_free(cat);
}

void test_device_model_reads_the_facts(void)
{
	json_t *device = json_pack("{s:i, s:i, s:{s:i}, s:{s:{s:f}, s:{s:f}, s:{s:f}, s:{s:f}, s:{s:f}, s:{s:i}, s:{s:f}}}",
				   "compute_units", 132, "warp_width", 32, "cache", "bytes", 52428800, "facts",
				   "launch_us", "value", 5.9, "latency_ns", "value", 348.0, "warp_interval_ns",
				   "value", 84.0, "local_wavefronts_per_us", "value", 1978.0, "cache_gbps", "value",
				   6960.0, "burst_bytes", "value", 64, "groups_per_us", "value", 1650.0);
	json_t *bare = json_pack("{s:i}", "compute_units", 2);
	struct wl_device_model d;

	CHECK(wl_device_model_from_json(device, 2959, 0, &d) == 1 && d.compute_units == 132 && d.launch_us == 5.9 &&
	      d.warp_interval_ns == 84 && d.burst_bytes == 64 && d.cache_bytes == 52428800 && d.resident_warps == 64 &&
	      d.dram_gbps == 2959 && d.groups_per_us == 1650, "the H100's facts read");
	CHECK(wl_device_model_from_json(bare, 100, 0, &d) == 0 && d.dram_gbps == 100 && d.launch_us == 0,
	      "no facts: the copy ceiling alone");
	/* A CPU (no warp width): no banks, no warps in flight; and a cache
	 * probe slower than DRAM is no ceiling. */
	json_object_del(device, "warp_width");
	CHECK(wl_device_model_from_json(device, 9000, 0, &d) == 1 && d.local_per_us == 0 && d.warp_interval_ns == 0 &&
	      d.cache_gbps == 0 && d.groups_per_us == 0 && d.launch_us == 5.9, "a CPU's model");
	json_decref(device);
	json_decref(bare);
}

/* The catalog's reductions cross a barrier after their load and one per
 * step of the tree: 9 at 256 work-items, 10 at 512; the tiled transpose one. */
void test_declared_barriers_are_counted(void)
{
	struct wl_catalog *cat = check_load_catalog();
	const struct wl_experiment *red = cat ? wl_catalog_find(cat, "reduction") : NULL;
	const struct wl_experiment *tr = cat ? wl_catalog_find(cat, "transpose") : NULL;
	struct wl_prediction p;
	struct wl_error err;
	long long v[4];

	if (!red || !tr) {
		CHECK(0, "the catalog");
		wl_catalog_free(cat);
		return;
	}
	for (int local = 256; local <= 512; local *= 2) {
		v[wl_experiment_param(red, "n")] = 1 << 20;
		v[wl_experiment_param(red, "local")] = local;
		CHECK(wl_model_predict(wl_experiment_variant(red, "sequential", NULL)->model, v, (int)red->nparams, 32, 0, &p,
				       &err) == 0 && p.barriers == (local == 256 ? 9 : 10),
		      "sequential at %d: %g barriers (%s)", local, p.barriers, err.msg);
	}
	v[wl_experiment_param(tr, "n")] = 256;
	v[wl_experiment_param(tr, "tile")] = 32;
	v[wl_experiment_param(tr, "rows")] = 8;
	CHECK(wl_model_predict(wl_experiment_variant(tr, "tiled", NULL)->model, v, (int)tr->nparams, 32, 0, &p, &err) == 0 &&
	      p.barriers == 1, "tiled: %g barriers", p.barriers);
	CHECK(wl_model_predict(wl_experiment_variant(tr, "naive", NULL)->model, v, (int)tr->nparams, 32, 0, &p, &err) == 0 &&
	      p.barriers == 0, "naive: none declared");
	wl_catalog_free(cat);
}

/* The catalog's min-plus v0, predicted at n = 64 into *p — over the
 * launch's sample of work-groups, or where first_only is set over its first
 * alone (the declaration read without its grid) —; -1 (a failed check,
 * nothing left to free) where it cannot be; else m->cat is the caller's to
 * free. */
struct minplus_v0 {
	struct wl_catalog *cat;
	const struct wl_experiment *mp;
	const struct wl_variant_def *v0;
	long long v[4];
};

static int minplus_v0_at_64(struct minplus_v0 *m, struct wl_prediction *p, int first_only)
{
	struct wl_error err;
	struct wl_model first;

	memset(m, 0, sizeof(*m));
	m->cat = check_load_catalog();
	m->mp = m->cat ? wl_catalog_find(m->cat, "minplus") : NULL;
	m->v0 = m->mp ? wl_experiment_variant(m->mp, "v0", NULL) : NULL;
	if (m->v0)
		m->v[wl_experiment_param(m->mp, "n")] = 64;
	if (m->v0) {
		first = *m->v0->model;
		first.has_grid = first.has_grid && !first_only;
	}
	if (!m->v0 || wl_model_predict(&first, m->v, (int)m->mp->nparams, 32, 0, p, &err) < 0) {
		CHECK(0, "the catalog's min-plus v0 at n = 64: %s", m->v0 ? err.msg : "not found");
		wl_catalog_free(m->cat);
		return -1;
	}
	return 0;
}

/* Min-plus v0 at n = 64, by hand: work-groups of 16 x 16, 16 of them; a warp
 * is 16 rows (gid0) by 2 columns (gid1). Per group: the row load d[n*gid0 + k]
 * is 16 sectors a request (16 rows 256 bytes apart), 8 warps x 64 k = 512
 * requests; the column load d[n*k + gid1] 1 sector, 512 requests; the store
 * 16 sectors, 8 requests: 8,832 sectors, 282,624 bytes; 4,521,984 in all.
 * The buffers (8 n^2 = 32,768 bytes) fit the cache: DRAM moves them once,
 * 32,768 bytes; the cache serves the 4,521,984 requested (these counts say
 * nothing of the first level's hits: no load's touches are given). */
void test_minplus_reuse_by_hand(void)
{
	struct minplus_v0 m;
	struct wl_prediction p;
	struct wl_ceilings c;
	double stores = 0, store_sectors = 0;
	const struct wl_variant_def *v0;

	if (minplus_v0_at_64(&m, &p, 0) < 0)
		return;
	v0 = m.v0;
	CHECK(p.groups == 16 && p.items == 256 && NEAR(p.moved_bytes, 282624),
	      "16 groups of 256 moving 282,624 bytes each: %g, %g, %g", p.groups, p.items, p.moved_bytes);
	for (int i = 0; i < p.naccesses; i++)
		if (v0->model->accesses[i].store) {
			stores += p.access[i].burst_bytes;
			store_sectors += p.access[i].moved_bytes;
		}
	CHECK(NEAR(stores, 8192), "the stores' bursts: %g bytes a group", stores);
	CHECK(wl_ceilings_compute(&dev, work(p.groups, p.items, 1032, p.moved_bytes, p.burst_bytes,
							    store_sectors, stores, 0, 0,
							    wl_variant_cost(m.mp, v0, WL_COST_MEMORY, m.v)), &c) == 0 &&
	      c.reuse && NEAR(c.dram_bytes, 32768) && NEAR(c.cache_bytes, 4521984) && NEAR(c.ms[WL_CEIL_CACHE], 4521984 / 4000e6),
	      "reuse: %g bytes from DRAM, %g from the cache", c.dram_bytes, c.cache_bytes);
	wl_catalog_free(m.cat);
}

/* The first level on a device of 10 units serving 1,000 one-line requests,
 * 2,000 bank passes and 4,000 lines per µs each. 100 groups, each with a
 * load of 1,000 requests of 16 lines on 4 banks (the lines take longest: 4
 * µs) and one of 1,000 single-line requests (1 µs): 100 x 5 µs over 10
 * units = 0.05 ms. Latency: 32 groups of one warp, 2,048 requests of which
 * the first level serves 1,536 (10 ns apart; the 512 others 100 ns):
 * 66,560 ns. DRAM: loads whose first misses are an eighth of their sectors
 * move an eighth of their bursts; the stores all theirs. */
void test_first_level_ceiling_by_hand(void)
{
	struct wl_device_model d = dev;
	struct wl_launch_work w = { .groups = 100, .items = 256, .global_requests = 2000, .moved_bytes = 1e5,
				    .burst_bytes = 1e5, .nloads = 2 };
	struct wl_ceilings c;

	d.l1_requests_per_us = 1000;
	d.l1_passes_per_us = 2000;
	d.l1_lines_per_us = 4000;
	d.l1_interval_ns = 10;
	w.loads[0] = (struct wl_first_level){ .requests = 1000, .passes = 4000, .lines = 16000 };
	w.loads[1] = (struct wl_first_level){ .requests = 1000, .passes = 1000, .lines = 1000 };
	CHECK(wl_ceilings_compute(&d, &w, &c) == 0 && NEAR(c.ms[WL_CEIL_L1], 0.05) && !c.first_level,
	      "first level %g ms", c.ms[WL_CEIL_L1]);
	/* Without the facts (a CPU, an older runner), no such ceiling. */
	CHECK(wl_ceilings_compute(&dev, &w, &c) == 0 && c.ms[WL_CEIL_L1] == 0, "unmeasured: %g", c.ms[WL_CEIL_L1]);
	{
		/* One load of 2,048 requests, a sector each, 1,536 of them
		 * touched again at once. */
		struct wl_launch_work lat = { .groups = 32, .items = 32, .global_requests = 2048, .moved_bytes = 65536,
					      .burst_bytes = 131072, .nloads = 1 };

		lat.loads[0] = (struct wl_first_level){ .requests = 2048, .touches = 2048 };
		lat.loads[0].reuse[0] = 1536;
		CHECK(wl_ceilings_compute(&d, &lat, &c) == 0 && NEAR(c.ms[WL_CEIL_LATENCY], 0.06656) &&
		      NEAR(c.hit_share, 0.75), "latency with hits %g ms", c.ms[WL_CEIL_LATENCY]);
	}
	{
		/* 1,000 groups: a load of 2,500 sector touches (80,000 bytes,
		 * bursts of 160,000), 312.5 of them first touches (10,000
		 * bytes), and 20,000 bytes of stores (bursts of 40,000): DRAM
		 * reads 10 MB and writes 20 MB of sectors, 60 MB in whole
		 * bursts (lone sectors, and nothing says a neighbour fills
		 * the other halves: the footprint is not known). */
		struct wl_launch_work w2 = { .groups = 1000, .items = 256, .global_requests = 8, .moved_bytes = 100000,
					     .burst_bytes = 200000, .store_moved_bytes = 20000,
					     .store_burst_bytes = 40000, .nloads = 1 };

		w2.loads[0] = (struct wl_first_level){ .requests = 4, .touches = 2500 };
		w2.loads[0].reuse[0] = 2187.5;
		CHECK(wl_ceilings_compute(&d, &w2, &c) == 0 && c.first_level && NEAR(c.dram_bytes, 60e6) &&
		      NEAR(c.ms[WL_CEIL_DRAM], 0.06), "first misses to DRAM: %g bytes, %g ms", c.dram_bytes,
		      c.ms[WL_CEIL_DRAM]);
	}
}

/* Min-plus v0 at n = 64, its first level by hand. The model simulates 8
 * iterations of k (64 requests over 8 warps) and scales them to 64. The row
 * load d[n*gid0 + k]: every warp of the group reads the same 16 rows, each
 * in one sector over k = 0..7, so of its 8 x 8 x 16 sector touches 16 are
 * first touches (128 of 8,192 once scaled), the rest reuse in the first
 * level; its 16 words sit 64 floats apart, all in bank k: a 16-way
 * conflict over 16 lines. The column load d[n*k + gid1]: warps 0-3 and 4-7
 * read one sector each per k (columns 0-7, 8-15), and the first of them
 * the row load has just read (row k, words 0-7): 1 first touch of 8 (64 of
 * 512). What reaches the next level: 192 sectors and the stores' 4,096
 * bytes, 10,240 bytes. Requests the first level serves: 512 x 63/64 + 512 x
 * 7/8 = 952 of 1,032. Of the row's touches, 7,168 are the 7 other warps'
 * on the same k (in flight together: the first level merges them), 896
 * the first warp's on the next k, 16 to 32 lines later but for 56 nearer:
 * a first level of 32 lines per group (8 groups of 8 warps per unit, 32
 * KB) serves all of it; one of 8 lines serves the merged and the 56, and
 * the 840 others reach on with the 128 first touches — 1,032 sectors with
 * the column's 64, and the stores: 37,120 bytes; 451.5 + 448 requests hit. */
void test_minplus_first_level_by_hand(void)
{
	struct minplus_v0 m;
	struct wl_prediction p;
	struct wl_device_model d = dev;
	const struct wl_first_level *row, *col;

	/* The first group's, as worked out here: each group of the sample
	 * has rows and columns of its own. */
	if (minplus_v0_at_64(&m, &p, 1) < 0)
		return;
	/* The launch's 16 groups, each counted as the first. */
	p.groups = p.work.groups = 16;
	row = &p.work.loads[0];
	col = &p.work.loads[1];
	CHECK(p.naccesses == 3 && p.access[0].moved_bytes == 262144 && p.access[0].bank_degree == 16 &&
	      p.access[0].lines_per_request == 16 && p.work.nloads == 2,
	      "row load: %g bytes, %g-way over %g lines", p.access[0].moved_bytes, p.access[0].bank_degree,
	      p.access[0].lines_per_request);
	CHECK(row->touches == 8192 && row->requests == 512 && col->touches == 512 && col->requests == 512,
	      "touches %g and %g", row->touches, col->touches);
	for (int pass = 0; pass < 3; pass++) {
		static const double lines[] = { 0, 32, 8 }, reach[] = { 10240, 10240, 37120 }, hit[] = { 952, 952, 899.5 };
		struct wl_point_in in = { .exp = m.mp, .copy_gbps = 1000, .device = &d, .declared = m.v0->model,
					  .p = &p, .work = 1, .median_ms = 1 };
		json_t *o, *work;

		d.l1_bytes = lines[pass] * 128 * 8;
		o = wl_predict_point(&in);
		work = json_object_get(o, "work");
		CHECK(json_number_value(json_object_get(work, "reach_bytes")) == reach[pass] &&
		      fabs(json_number_value(json_object_get(work, "l1_hit_requests")) - hit[pass]) < 1e-9,
		      "%g lines a group: %g bytes reach on, %g requests hit", lines[pass],
		      json_number_value(json_object_get(work, "reach_bytes")),
		      json_number_value(json_object_get(work, "l1_hit_requests")));
		json_decref(o);
	}
	wl_catalog_free(m.cat);
}

/* DRAM's rate by what a warp's loads move in its life: a copy of one float
 * per work-item (128 bytes a warp) streams at the 4-byte lanes' share of
 * the copy ceiling, one of a float4 (512) at the whole, one of a float2
 * (256) at the 8-byte lanes', and between two points on a log scale; a
 * kernel that stores only, or a device without the facts, at the ceiling. */
void test_dram_streams_at_what_warps_keep_in_flight(void)
{
	struct wl_device_model d = dev;
	struct wl_ceilings c;
	/* 10,000 groups of 256 (8 warps): loads moving 1 KiB per group (128
	 * bytes a warp) and stores as much, in whole bursts. */
	struct wl_launch_work w = *work(10000, 256, 16, 2048, 2048, 1024, 1024, 0, 0, 0);

	CHECK(wl_ceilings_compute(&d, &w, &c) == 0 && NEAR(c.ms[WL_CEIL_DRAM], 0.02048), "no facts: the ceiling, %g",
	      c.ms[WL_CEIL_DRAM]);
	d.dram_lane_share[0] = 0.5;
	d.dram_lane_share[1] = 0.8;
	d.dram_lane_share[2] = 1;
	CHECK(wl_ceilings_compute(&d, &w, &c) == 0 && NEAR(c.ms[WL_CEIL_DRAM], 0.02048 / 0.5),
	      "128 bytes a warp: at half, %g", c.ms[WL_CEIL_DRAM]);
	w.moved_bytes = 1024 + 2048, w.burst_bytes = w.moved_bytes;
	CHECK(wl_ceilings_compute(&d, &w, &c) == 0 && NEAR(c.ms[WL_CEIL_DRAM], 0.03072 / 0.8),
	      "256 bytes a warp: at the 8-byte lanes' share, %g", c.ms[WL_CEIL_DRAM]);
	w.moved_bytes = 1024 + 4096, w.burst_bytes = w.moved_bytes;
	CHECK(wl_ceilings_compute(&d, &w, &c) == 0 && NEAR(c.ms[WL_CEIL_DRAM], 0.0512), "512 bytes a warp: the ceiling, %g",
	      c.ms[WL_CEIL_DRAM]);
	w.moved_bytes = 1024 + 8 * 181.0193359837562, w.burst_bytes = w.moved_bytes;	/* 128 * 2^0.5 a warp */
	CHECK(wl_ceilings_compute(&d, &w, &c) == 0 &&
	      NEAR(c.ms[WL_CEIL_DRAM], w.burst_bytes * 10000 / 1e12 * 1e3 / (0.5 * sqrt(0.8 / 0.5))),
	      "halfway from 128 to 256 on a log scale: halfway between the shares, %g", c.ms[WL_CEIL_DRAM]);
	w.moved_bytes = w.store_moved_bytes = 1024, w.burst_bytes = 1024;
	CHECK(wl_ceilings_compute(&d, &w, &c) == 0 && NEAR(c.ms[WL_CEIL_DRAM], 0.01024), "stores only: the ceiling, %g",
	      c.ms[WL_CEIL_DRAM]);
}

/* A GPU starts work-groups at a rate of its own: a million groups of 64
 * copying a float each are bound by their starts, not by DRAM; the same
 * bytes in 4,096 groups of 256 are DRAM's. */
void test_tiny_groups_are_bound_by_their_starts(void)
{
	struct wl_device_model d = dev;
	struct wl_ceilings c;
	struct wl_launch_work tiny = *work(1048576, 64, 4, 256, 256, 128, 128, 0, 0, 0);
	struct wl_launch_work big = *work(65536, 256, 16, 1024, 1024, 512, 512, 0, 0, 0);

	d.warp_interval_ns = 0;	/* no latency ceiling in the way */
	CHECK(wl_ceilings_compute(&d, &tiny, &c) == 0 && c.ms[WL_CEIL_GROUPS] == 0 && c.binding == WL_CEIL_DRAM,
	      "without the fact: no such ceiling, %g ms", c.ms[WL_CEIL_GROUPS]);
	d.groups_per_us = 1650;
	CHECK(wl_ceilings_compute(&d, &tiny, &c) == 0 && NEAR(c.ms[WL_CEIL_GROUPS], 1048576 / 1650.0 / 1000) &&
		      c.binding == WL_CEIL_GROUPS,
	      "a million groups: %g ms of starts against DRAM's %g, bound by %s", c.ms[WL_CEIL_GROUPS],
	      c.ms[WL_CEIL_DRAM], wl_ceiling_name(c.binding));
	/* The front end starts groups while the compute units work: the time
	 * is the starts' alone, not their norm with DRAM's. */
	CHECK(NEAR(c.total_ms, c.ms[WL_CEIL_GROUPS] + c.launch_ms), "the starts alone: %g ms", c.total_ms);
	CHECK(strcmp(wl_ceiling_name(WL_CEIL_GROUPS), "groups") == 0, "its name");
	tiny.groups_chosen = 1;
	CHECK(wl_ceilings_compute(&d, &tiny, &c) == 0 && c.ms[WL_CEIL_GROUPS] == 0 && c.binding == WL_CEIL_DRAM,
	      "the driver's choice of group size: the model's groups are a guess, no such ceiling (%g ms)",
	      c.ms[WL_CEIL_GROUPS]);
	CHECK(wl_ceilings_compute(&d, &big, &c) == 0 && c.binding == WL_CEIL_DRAM &&
		      NEAR(c.ms[WL_CEIL_GROUPS], 65536 / 1650.0 / 1000),
	      "the same bytes in larger groups: DRAM's, %g against %g", c.ms[WL_CEIL_DRAM], c.ms[WL_CEIL_GROUPS]);
	/* Starts larger than each other ceiling but under their norm change
	 * nothing: what binds is the largest of the others. */
	big.local_wavefronts = 18;
	d.groups_per_us = 65536 / 0.07 / 1000;
	CHECK(wl_ceilings_compute(&d, &big, &c) == 0 && c.ms[WL_CEIL_LOCAL] > 0.8 * c.ms[WL_CEIL_DRAM] &&
		      c.ms[WL_CEIL_GROUPS] > c.ms[WL_CEIL_DRAM] &&
		      c.ms[WL_CEIL_GROUPS] < cbrt(pow(c.ms[WL_CEIL_DRAM], 3) + pow(c.ms[WL_CEIL_LOCAL], 3)) &&
		      c.binding == WL_CEIL_DRAM && c.margin >= 1,
	      "dram %g, local %g, starts %g under their norm: bound by %s, margin %g", c.ms[WL_CEIL_DRAM],
	      c.ms[WL_CEIL_LOCAL], c.ms[WL_CEIL_GROUPS], wl_ceiling_name(c.binding), c.margin);
	big.local_wavefronts = 0;
	d.groups_per_us = 0;
	CHECK(wl_ceilings_compute(&d, &big, &c) == 0, "again without the fact");
	{
		double without = c.total_ms;

		d.groups_per_us = 1650;
		CHECK(wl_ceilings_compute(&d, &big, &c) == 0 && NEAR(c.total_ms, without),
		      "hidden under DRAM: the time as without it, %g against %g", c.total_ms, without);
	}
}

/* A group that shares what it loads across a barrier: each wave of warps
 * waits out one whole round trip with nothing in flight, and DRAM streams
 * only between — the DRAM ceiling is its bytes' time and the drains', a
 * floor under the norm (where the bytes' alone count); a group without a
 * barrier, or without global loads, drains nothing. */
void test_a_barrier_after_loads_drains_the_warps_requests(void)
{
	struct wl_ceilings c;
	/* 10,000 groups of 256 (8 warps) moving 2,048 bytes each: 0.02048 ms
	 * of bytes; 80,000 warps in 125 waves of 640, each a 500 ns round trip:
	 * 0.0625 ms of drains. The latency ceiling, the pace alone: 0.025 ms. */
	struct wl_launch_work tile = *work(10000, 256, 16, 2048, 2048, 1024, 1024, 16, 1, 0);
	double bytes = 0.02048, others;

	tile.nloads = 1, tile.loads[0].requests = 8;
	CHECK(wl_ceilings_compute(&dev, &tile, &c) == 0 && c.waves == 125 && NEAR(c.drain_ms, 0.0625) &&
		      NEAR(c.ms[WL_CEIL_DRAM], bytes + 0.0625) && NEAR(c.ms[WL_CEIL_LATENCY], 0.025),
	      "loads, then a barrier: %g ms of drains in %g waves, DRAM %g, latency %g", c.drain_ms, c.waves,
	      c.ms[WL_CEIL_DRAM], c.ms[WL_CEIL_LATENCY]);
	others = pow(c.ms[WL_CEIL_CACHE], 3) + pow(c.ms[WL_CEIL_LOCAL], 3) + pow(c.ms[WL_CEIL_LATENCY], 3) +
		 pow(c.ms[WL_CEIL_BARRIER], 3);
	CHECK(c.ms[WL_CEIL_DRAM] > cbrt(pow(bytes, 3) + others) && NEAR(c.total_ms, bytes + 0.0625 + 0.005) &&
		      c.binding == WL_CEIL_DRAM && NEAR(c.margin, (bytes + 0.0625) / 0.025),
	      "the bytes' time and the drains' add: %g ms, bound by %s, margin %g", c.total_ms,
	      wl_ceiling_name(c.binding), c.margin);
	tile.barriers = 0;
	CHECK(wl_ceilings_compute(&dev, &tile, &c) == 0 && c.drain_ms == 0 && NEAR(c.ms[WL_CEIL_DRAM], bytes) &&
		      c.binding == WL_CEIL_LATENCY,
	      "no barrier: no drains, the norm (%g ms, %s)", c.total_ms, wl_ceiling_name(c.binding));
	tile.barriers = 4, tile.nloads = 0;
	CHECK(wl_ceilings_compute(&dev, &tile, &c) == 0 && c.drain_ms == 0, "barriers, no global load: no drains");
	/* Four times the elements a work-item in a quarter of the groups: the
	 * same bytes, a quarter of the waves to drain, under the norm now. */
	tile = *work(2500, 256, 64, 8192, 8192, 4096, 4096, 64, 1, 0);
	tile.nloads = 1, tile.loads[0].requests = 32;
	CHECK(wl_ceilings_compute(&dev, &tile, &c) == 0 && c.waves == 32 && NEAR(c.drain_ms, 0.016) &&
		      NEAR(c.total_ms, fmax(cbrt(pow(bytes, 3) + pow(c.ms[WL_CEIL_CACHE], 3) + pow(c.ms[WL_CEIL_LOCAL], 3) +
						  pow(c.ms[WL_CEIL_LATENCY], 3) + pow(c.ms[WL_CEIL_BARRIER], 3)),
					     bytes + 0.016) + 0.005),
	      "more elements a work-item: fewer waves to drain, %g ms", c.drain_ms);
}
