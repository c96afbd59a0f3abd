/* CUPTI's range profiler (see cupti_counters.h). Its parameter structures
 * are written here as cupti_profiler_target.h, cupti_profiler_host.h,
 * cupti_range_profiler.h and cupti_target.h declare them (each begins with
 * its own size, so CUPTI reads only the fields this code knows). */
#include "cupti_counters.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

#define CUPTI_ERROR_INSUFFICIENT_PRIVILEGES 35
#define CUPTI_AUTO_RANGE 1
#define CUPTI_KERNEL_REPLAY 2
#define CUPTI_PROFILER_TYPE_RANGE_PROFILER 0
#define SIZE_TO(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

static const char *const metrics[WL_COUNTERS] = {
	"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	"smsp__inst_executed_op_shared_ld.sum",
	"smsp__inst_executed_op_shared_st.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
	"dram__bytes_read.sum", "dram__bytes_write.sum",
	"lts__t_sector_hit_rate.pct",
};

static const char *const names[WL_COUNTERS] = {
	"global_load_sectors", "global_load_requests", "global_store_sectors", "global_store_requests",
	"shared_load_wavefronts", "shared_store_wavefronts", "shared_loads", "shared_stores",
	"shared_load_bank_conflicts", "dram_read_bytes",
	"dram_write_bytes", "l2_hit_pct",
};

struct plain { size_t structSize; void *pPriv; };
struct chip_name { size_t structSize; void *pPriv; size_t deviceIndex; const char *pChipName; };
struct availability { size_t structSize; void *pPriv; void *ctx; size_t size; uint8_t *image; };
struct host_init { size_t structSize; void *pPriv; int profilerType; const char *pChipName;
		   const uint8_t *pCounterAvailabilityImage; void *pHostObject; };
struct host_object { size_t structSize; void *pPriv; void *pHostObject; };
struct add_metrics { size_t structSize; void *pPriv; void *pHostObject; const char *const *names; size_t n; };
struct config_size { size_t structSize; void *pPriv; void *pHostObject; size_t size; };
struct config_image { size_t structSize; void *pPriv; void *pHostObject; size_t size; uint8_t *image; };
struct rp_enable { size_t structSize; void *pPriv; void *ctx; void *object; };
struct rp_object { size_t structSize; void *pPriv; void *object; };
struct rp_data_size { size_t structSize; void *pPriv; void *object; const char *const *names; size_t n;
		      size_t maxRanges; uint32_t maxNodes; size_t size; };
struct rp_data_init { size_t structSize; void *pPriv; void *object; size_t size; uint8_t *data; };
struct rp_config { size_t structSize; void *pPriv; void *object; size_t configSize; const uint8_t *config;
		   size_t dataSize; uint8_t *data; int range; int replay; size_t maxRangesPerPass;
		   uint16_t numNestingLevels; uint16_t minNestingLevel; size_t passIndex; uint16_t targetNestingLevel; };
struct rp_stop { size_t structSize; void *pPriv; void *object; size_t passIndex; size_t targetNestingLevel;
		 uint8_t isAllPassSubmitted; };
struct rp_decode { size_t structSize; void *pPriv; void *object; size_t dropped; };
struct evaluate { size_t structSize; void *pPriv; void *pHostObject; const uint8_t *data; size_t dataSize;
		  size_t rangeIndex; const char *const *names; size_t n; double *values; };
struct num_passes { size_t structSize; void *pPriv; size_t configSize; const uint8_t *config; size_t passes; };

typedef int (*call_fn)(void *);

struct wl_counters {
	void *lib;
	call_fn chip, avail, host_init, host_deinit, add, config_size, config_image, enable, disable, data_size,
		data_init, set_config, start, stop, decode, evaluate, prof_init;
	int (*result_string)(int, const char **);
	call_fn passes;			/* cuptiProfilerHostGetNumOfPasses, where there is one */
	void *host, *context;
	void *object;			/* the range profiler, enabled from the first profile to close */
	char chip_name[64];
	uint8_t *config, *data, *availability;
	size_t config_size_bytes, data_size_bytes;
};

static const char *result(const struct wl_counters *c, int rc)
{
	const char *s = NULL;

	if (c->result_string && c->result_string(rc, &s) == 0 && s)
		return s;
	return "CUPTI error";
}

/* rc of what, into why; -1 unless it is 0. */
static int check(const struct wl_counters *c, int rc, const char *what, char *why, size_t len)
{
	if (rc == 0)
		return 0;
	if (rc == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
		snprintf(why, len, "not permitted: the driver lets only administrators profile (%s; "
			 "NVreg_RestrictProfilingToAdminUsers, docs/operations.md)", what);
	else
		snprintf(why, len, "%s: %s (%d)", what, result(c, rc), rc);
	return -1;
}

static int bind(struct wl_counters *c, char *why, size_t len)
{
	static const struct { const char *name; size_t offset; } entries[] = {
		{ "cuptiDeviceGetChipName", offsetof(struct wl_counters, chip) },
		{ "cuptiProfilerGetCounterAvailability", offsetof(struct wl_counters, avail) },
		{ "cuptiProfilerHostInitialize", offsetof(struct wl_counters, host_init) },
		{ "cuptiProfilerHostDeinitialize", offsetof(struct wl_counters, host_deinit) },
		{ "cuptiProfilerHostConfigAddMetrics", offsetof(struct wl_counters, add) },
		{ "cuptiProfilerHostGetConfigImageSize", offsetof(struct wl_counters, config_size) },
		{ "cuptiProfilerHostGetConfigImage", offsetof(struct wl_counters, config_image) },
		{ "cuptiRangeProfilerEnable", offsetof(struct wl_counters, enable) },
		{ "cuptiRangeProfilerDisable", offsetof(struct wl_counters, disable) },
		{ "cuptiRangeProfilerGetCounterDataSize", offsetof(struct wl_counters, data_size) },
		{ "cuptiRangeProfilerCounterDataImageInitialize", offsetof(struct wl_counters, data_init) },
		{ "cuptiRangeProfilerSetConfig", offsetof(struct wl_counters, set_config) },
		{ "cuptiRangeProfilerStart", offsetof(struct wl_counters, start) },
		{ "cuptiRangeProfilerStop", offsetof(struct wl_counters, stop) },
		{ "cuptiRangeProfilerDecodeData", offsetof(struct wl_counters, decode) },
		{ "cuptiProfilerHostEvaluateToGpuValues", offsetof(struct wl_counters, evaluate) },
		{ "cuptiProfilerInitialize", offsetof(struct wl_counters, prof_init) },
	};

	*(void **)&c->result_string = dlsym(c->lib, "cuptiGetResultString");
	*(void **)&c->passes = dlsym(c->lib, "cuptiProfilerHostGetNumOfPasses");
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		void *f = dlsym(c->lib, entries[i].name);

		if (!f) {
			snprintf(why, len, "this CUPTI has no %s (the range profiler needs CUDA 12.6 or later)",
				 entries[i].name);
			return -1;
		}
		memcpy((char *)c + entries[i].offset, &f, sizeof(f));
	}
	return 0;
}

void *wl_cupti_open(const char *lib, char *why, size_t len)
{
	static const char *const libs[] = { WL_CUPTI_LIBS };
	size_t n = lib ? 1 : sizeof(libs) / sizeof(libs[0]);

#ifdef __SANITIZE_ADDRESS__
	/* CUPTI opens libnvperf_host with RTLD_DEEPBIND, which the sanitizer's
	 * runtime aborts on (make test SANITIZE=1). */
	(void)lib;
	(void)libs;
	(void)n;
	snprintf(why, len, "no CUPTI under AddressSanitizer (CUPTI loads libnvperf_host with RTLD_DEEPBIND, which it refuses)");
	return NULL;
#endif

	for (size_t i = 0; i < n; i++) {
		void *h = dlopen(lib ? lib : libs[i], RTLD_NOW | RTLD_LOCAL);

		if (h)
			return h;
	}
	snprintf(why, len, "no CUPTI (%s)", lib ? lib : "none of libcupti.so, libcupti.so.13, libcupti.so.12 loads");
	return NULL;
}

/* The host side: the chip's counters, the configuration of the metrics. */
static int configure(struct wl_counters *c, int ordinal, char *why, size_t len)
{
	struct plain init = { SIZE_TO(struct plain, pPriv), NULL };
	struct chip_name chip = { SIZE_TO(struct chip_name, pChipName), NULL, (size_t)ordinal, NULL };
	struct availability av = { SIZE_TO(struct availability, image), NULL, c->context, 0, NULL };
	struct host_init hi = { SIZE_TO(struct host_init, pHostObject), NULL, CUPTI_PROFILER_TYPE_RANGE_PROFILER,
				NULL, NULL, NULL };
	struct add_metrics add = { SIZE_TO(struct add_metrics, n), NULL, NULL, metrics, WL_COUNTERS };
	struct config_size cs = { SIZE_TO(struct config_size, size), NULL, NULL, 0 };
	struct config_image ci = { SIZE_TO(struct config_image, image), NULL, NULL, 0, NULL };

	if (check(c, c->prof_init(&init), "cuptiProfilerInitialize", why, len) < 0 ||
	    check(c, c->chip(&chip), "cuptiDeviceGetChipName", why, len) < 0 ||
	    check(c, c->avail(&av), "cuptiProfilerGetCounterAvailability", why, len) < 0)
		return -1;
	if (!(c->availability = malloc(av.size ? av.size : 1))) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	av.image = c->availability;
	if (check(c, c->avail(&av), "cuptiProfilerGetCounterAvailability", why, len) < 0)
		return -1;
	hi.pChipName = chip.pChipName;
	snprintf(c->chip_name, sizeof(c->chip_name), "%s", chip.pChipName ? chip.pChipName : "");
	hi.pCounterAvailabilityImage = c->availability;
	if (check(c, c->host_init(&hi), "cuptiProfilerHostInitialize", why, len) < 0)
		return -1;
	c->host = add.pHostObject = cs.pHostObject = ci.pHostObject = hi.pHostObject;
	if (check(c, c->add(&add), "the counters on this GPU (cuptiProfilerHostConfigAddMetrics)", why, len) < 0 ||
	    check(c, c->config_size(&cs), "cuptiProfilerHostGetConfigImageSize", why, len) < 0)
		return -1;
	if (!(c->config = malloc(cs.size))) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	ci.size = c->config_size_bytes = cs.size;
	ci.image = c->config;
	return check(c, c->config_image(&ci), "cuptiProfilerHostGetConfigImage", why, len);
}

/* How many passes the metrics take (each a replay of the profiled launch,
 * at some 20 ms each on an H100 whatever the kernel), said once in the log:
 * a profile's cost follows from it. */
static void say_passes(const struct wl_counters *c)
{
	struct num_passes np = { SIZE_TO(struct num_passes, passes), NULL, c->config_size_bytes, c->config, 0 };

	if (c->passes && c->passes(&np) == 0)
		wl_log_info("counters: %d metrics on %s in %zu passes of kernel replay", WL_COUNTERS, c->chip_name,
			    np.passes);
}

int wl_counters_open(const char *lib, void *context, int ordinal, struct wl_counters **out, char *why, size_t len)
{
	struct wl_counters *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	c->context = context;
	if (!(c->lib = wl_cupti_open(lib, why, len)) || bind(c, why, len) < 0 || configure(c, ordinal, why, len) < 0) {
		wl_counters_close(c);
		return -1;
	}
	say_passes(c);
	*out = c;
	return 0;
}

/* Enable the range profiler on the context, and size the counter data
 * image for it (one range of the metrics; the buffer is kept while its size
 * stays). The size is asked of each new profiler object: a worker that
 * skipped it for a second object crashed there (CUPTI 13.0, H100). */
static int enable(struct wl_counters *c, char *why, size_t len)
{
	struct rp_enable en = { SIZE_TO(struct rp_enable, object), NULL, c->context, NULL };
	struct rp_data_size ds = { SIZE_TO(struct rp_data_size, size), NULL, NULL, metrics, WL_COUNTERS, 1, 1, 0 };

	if (check(c, c->enable(&en), "cuptiRangeProfilerEnable", why, len) < 0)
		return -1;
	c->object = ds.object = en.object;
	if (check(c, c->data_size(&ds), "cuptiRangeProfilerGetCounterDataSize", why, len) < 0)
		return -1;
	if (ds.size != c->data_size_bytes) {
		free(c->data);
		c->data_size_bytes = 0;
		if (!(c->data = malloc(ds.size))) {
			snprintf(why, len, "out of memory");
			return -1;
		}
		c->data_size_bytes = ds.size;
	}
	return 0;
}

static void disable(struct wl_counters *c)
{
	struct rp_object d = { SIZE_TO(struct rp_object, object), NULL, c->object };

	if (c->object)
		c->disable(&d);
	c->object = NULL;
}

/* The profile's image and values into $WARPLAB_COUNTER_DUMP, numbered. */
static void dump(const struct wl_counters *c, const double *values)
{
	static int seq;
	const char *dir = getenv(WL_COUNTER_DUMP_ENV);
	char path[4096];
	FILE *f;
	json_t *o;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/counters-%d.bin", dir, seq);
	if ((f = fopen(path, "wb"))) {
		fwrite(c->data, 1, c->data_size_bytes, f);
		fclose(f);
	}
	o = json_pack("{s:s, s:o}", "chip", c->chip_name, "values", wl_counters_json(values));
	snprintf(path, sizeof(path), "%s/counters-%d.json", dir, seq++);
	if (o)
		json_dump_file(o, path, JSON_INDENT(1));
	json_decref(o);
}

int wl_counters_evaluate(const char *lib, const char *chip, const void *data, size_t size, double *values,
			 char *why, size_t len)
{
	struct wl_counters c = { 0 };
	struct host_init hi = { SIZE_TO(struct host_init, pHostObject), NULL, CUPTI_PROFILER_TYPE_RANGE_PROFILER,
				chip, NULL, NULL };
	struct evaluate ev = { SIZE_TO(struct evaluate, values), NULL, NULL, data, size, 0, metrics, WL_COUNTERS, values };
	int rc;

	if (!(c.lib = wl_cupti_open(lib, why, len)) || bind(&c, why, len) < 0 ||
	    check(&c, c.host_init(&hi), "cuptiProfilerHostInitialize", why, len) < 0)
		return -1;
	ev.pHostObject = hi.pHostObject;
	rc = check(&c, c.evaluate(&ev), "cuptiProfilerHostEvaluateToGpuValues", why, len);
	{
		struct host_object d = { SIZE_TO(struct host_object, pHostObject), NULL, hi.pHostObject };

		c.host_deinit(&d);
	}
	return rc;
}

/* One profile on the enabled profiler: the image emptied of the last
 * range, the configuration set, the launch between start and stop (the
 * driver replays it once per pass, restoring the memory it may write),
 * decoded and evaluated. */
static int profile_once(struct wl_counters *c, int (*launch)(void *), void *arg, double *values, char *why,
			size_t len)
{
	struct rp_data_init di = { SIZE_TO(struct rp_data_init, data), NULL, c->object, c->data_size_bytes, c->data };
	struct rp_config cfg = { SIZE_TO(struct rp_config, targetNestingLevel), NULL, c->object, c->config_size_bytes,
				 c->config, c->data_size_bytes, c->data, CUPTI_AUTO_RANGE, CUPTI_KERNEL_REPLAY, 1, 1, 1,
				 0, 1 };
	struct rp_object start = { SIZE_TO(struct rp_object, object), NULL, c->object };
	struct rp_stop stop = { SIZE_TO(struct rp_stop, isAllPassSubmitted), NULL, c->object, 0, 0, 0 };
	struct rp_decode dec = { SIZE_TO(struct rp_decode, dropped), NULL, c->object, 0 };
	struct evaluate ev = { SIZE_TO(struct evaluate, values), NULL, c->host, c->data, c->data_size_bytes, 0,
			       metrics, WL_COUNTERS, values };

	if (check(c, c->data_init(&di), "cuptiRangeProfilerCounterDataImageInitialize", why, len) < 0 ||
	    check(c, c->set_config(&cfg), "cuptiRangeProfilerSetConfig", why, len) < 0 ||
	    check(c, c->start(&start), "cuptiRangeProfilerStart", why, len) < 0)
		return -1;
	if (launch(arg) != 0) {
		snprintf(why, len, "the profiled launch failed");
		c->stop(&stop);
		return -1;
	}
	if (check(c, c->stop(&stop), "cuptiRangeProfilerStop", why, len) < 0 ||
	    check(c, c->decode(&dec), "cuptiRangeProfilerDecodeData", why, len) < 0)
		return -1;
	return check(c, c->evaluate(&ev), "cuptiProfilerHostEvaluateToGpuValues", why, len);
}

/* The profiler stays enabled on the context from the first profile to
 * wl_counters_close: enabling it anew made each profile's first start cost
 * some 130 ms on an H100, more than the profile itself (4 passes, ~80 ms),
 * and kept enabled it leaves the timed launches as they were (medians
 * within 0.2%, bench/RESULTS.md). */
int wl_counters_profile(struct wl_counters *c, int (*launch)(void *), void *arg, double *values, char *why,
			size_t len)
{
	if (!c->object && enable(c, why, len) < 0) {
		disable(c);
		return -1;
	}
	if (profile_once(c, launch, arg, values, why, len) < 0) {
		/* A failed profile may leave the profiler in any state: the
		 * next one starts from a fresh enable. */
		disable(c);
		return -1;
	}
	dump(c, values);
	return 0;
}

void wl_counters_close(struct wl_counters *c)
{
	if (!c)
		return;
	if (c->lib && c->object)
		disable(c);
	if (c->host && c->host_deinit) {
		struct host_object d = { SIZE_TO(struct host_object, pHostObject), NULL, c->host };

		c->host_deinit(&d);
	}
	free(c->availability);
	free(c->config);
	free(c->data);
	free(c);
}

json_t *wl_counters_json(const double *values)
{
	json_t *o = json_object();

	for (int i = 0; o && i < WL_COUNTERS; i++)
		json_object_set_new(o, names[i], json_real(values[i]));
	return o;
}
