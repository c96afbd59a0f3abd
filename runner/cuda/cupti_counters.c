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
#define CUPTI_USER_RANGE 2
#define CUPTI_KERNEL_REPLAY 2
#define CUPTI_USER_REPLAY 3
#define MAX_PASSES 64
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
struct rp_push { size_t structSize; void *pPriv; void *object; const char *name; };
struct rp_data_info { size_t structSize; void *pPriv; const uint8_t *data; size_t size; size_t ranges; };
struct rp_range_info { size_t structSize; void *pPriv; const uint8_t *data; size_t size; size_t index;
		       const char *delimiter; const char *name; };
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
		data_init, set_config, start, stop, decode, evaluate, prof_init, push, pop, data_info, range_info;
	int (*result_string)(int, const char **);
	call_fn passes;			/* cuptiProfilerHostGetNumOfPasses, where there is one */
	void *host, *context;
	void *object;			/* the range profiler, enabled from the first profile to close */
	char chip_name[64];
	uint8_t *config, *data, *availability;
	size_t config_size_bytes, data_size_bytes;
	size_t ranges;			/* how many ranges c->data holds */
	int each;			/* the enabled profiler's sessions take user ranges */
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
		{ "cuptiRangeProfilerPushRange", offsetof(struct wl_counters, push) },
		{ "cuptiRangeProfilerPopRange", offsetof(struct wl_counters, pop) },
		{ "cuptiRangeProfilerGetCounterDataInfo", offsetof(struct wl_counters, data_info) },
		{ "cuptiRangeProfilerCounterDataGetRangeInfo", offsetof(struct wl_counters, range_info) },
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

/* Enable the range profiler on the context; its counter data image is
 * sized afresh (size_data): the size is asked of each new profiler object,
 * and a worker that skipped it for a second object crashed there (CUPTI
 * 13.0, H100). */
static int enable(struct wl_counters *c, char *why, size_t len)
{
	struct rp_enable en = { SIZE_TO(struct rp_enable, object), NULL, c->context, NULL };

	if (check(c, c->enable(&en), "cuptiRangeProfilerEnable", why, len) < 0)
		return -1;
	c->object = en.object;
	c->ranges = 0;
	return 0;
}

/* How many ranges the enabled profiler's sessions hold: a session of
 * several is configured for the most there may be, since the first
 * configuration of a profiler object sets what it keeps (CUPTI 13.0 on an
 * H100 kept twice the first session's count of ranges and evaluated the
 * rest as NaN); a launch alone takes one. */
static size_t capacity(const struct wl_counters *c)
{
	return c->each ? WL_COUNTERS_RANGES_MAX : 1;
}

/* The counter data image sized for capacity(c) ranges of the metrics,
 * asked once of each enabled profiler object. */
static int size_data(struct wl_counters *c, char *why, size_t len)
{
	const size_t ranges = capacity(c);
	struct rp_data_size ds = { SIZE_TO(struct rp_data_size, size), NULL, c->object, metrics, WL_COUNTERS, ranges,
				   (uint32_t)ranges, 0 };

	if (c->ranges == ranges)
		return 0;
	if (check(c, c->data_size(&ds), "cuptiRangeProfilerGetCounterDataSize", why, len) < 0)
		return -1;
	if (ds.size != c->data_size_bytes) {
		free(c->data);
		c->data_size_bytes = 0;
		c->ranges = 0;
		if (!(c->data = malloc(ds.size))) {
			snprintf(why, len, "out of memory");
			return -1;
		}
		c->data_size_bytes = ds.size;
	}
	c->ranges = ranges;
	return 0;
}

static void disable(struct wl_counters *c)
{
	struct rp_object d = { SIZE_TO(struct rp_object, object), NULL, c->object };

	if (c->object)
		c->disable(&d);
	c->object = NULL;
	c->ranges = 0;
}

/* A profile's image and one range's values into $WARPLAB_COUNTER_DUMP,
 * numbered (the image holds every range of its session). */
static void dump(const struct wl_counters *c, const double *values, size_t range)
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
	o = json_pack("{s:s, s:I, s:o}", "chip", c->chip_name, "range", (json_int_t)range, "values",
		      wl_counters_json(values));
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

/* Range index of the image into values[WL_COUNTERS]; -1 with why. */
static int evaluate_range(struct wl_counters *c, size_t index, double *values, char *why, size_t len)
{
	struct evaluate ev = { SIZE_TO(struct evaluate, values), NULL, c->host, c->data, c->data_size_bytes, index,
			       metrics, WL_COUNTERS, values };

	return check(c, c->evaluate(&ev), "cuptiProfilerHostEvaluateToGpuValues", why, len);
}

/* The image's n user ranges, each by its name (its launch's index) into
 * values[i * WL_COUNTERS ...]: -1 with why unless every launch has its
 * range there. */
static int evaluate_named(struct wl_counters *c, size_t n, double *values, char *why, size_t len)
{
	struct rp_data_info info = { SIZE_TO(struct rp_data_info, ranges), NULL, c->data, c->data_size_bytes, 0 };
	size_t found = 0;

	if (check(c, c->data_info(&info), "cuptiRangeProfilerGetCounterDataInfo", why, len) < 0)
		return -1;
	for (size_t r = 0; r < info.ranges; r++) {
		struct rp_range_info ri = { SIZE_TO(struct rp_range_info, name), NULL, c->data, c->data_size_bytes, r,
					    "/", NULL };
		char *end;
		unsigned long i;

		if (check(c, c->range_info(&ri), "cuptiRangeProfilerCounterDataGetRangeInfo", why, len) < 0)
			return -1;
		if (!ri.name)
			continue;
		i = strtoul(ri.name, &end, 10);
		if (end == ri.name || *end || i >= n)
			continue;
		if (evaluate_range(c, r, values + i * WL_COUNTERS, why, len) < 0)
			return -1;
		found++;
	}
	if (found != n) {
		snprintf(why, len, "the profiler kept %zu of %zu ranges", found, n);
		return -1;
	}
	return 0;
}

/* What one session profiles: n launches, each after its prologue. */
struct session {
	size_t n;
	int each;			/* a range per launch, replayed by calling them again */
	int (*prepare)(void *, size_t);
	int (*launch)(void *, size_t);
	void *arg;
};

/* One pass of s: each launch after its prologue, inside a range of its own
 * where s->each (user ranges: the prologue's work is outside every range). */
static int one_pass(struct wl_counters *c, const struct session *s, char *why, size_t len)
{
	struct rp_object pop = { SIZE_TO(struct rp_object, object), NULL, c->object };

	for (size_t i = 0; i < s->n; i++) {
		/* Ranges of one name are one range to the profiler: each is
		 * named by its index. */
		char name[24];
		struct rp_push push = { SIZE_TO(struct rp_push, name), NULL, c->object, name };

		snprintf(name, sizeof(name), "%zu", i);
		if (s->prepare && s->prepare(s->arg, i) != 0) {
			snprintf(why, len, "the launch before a profiled one failed");
			return -1;
		}
		if (s->each && check(c, c->push(&push), "cuptiRangeProfilerPushRange", why, len) < 0)
			return -1;
		if (s->launch(s->arg, i) != 0) {
			snprintf(why, len, "the profiled launch failed");
			if (s->each)
				c->pop(&pop);
			return -1;
		}
		if (s->each && check(c, c->pop(&pop), "cuptiRangeProfilerPopRange", why, len) < 0)
			return -1;
	}
	return 0;
}

/* s on the enabled profiler: the image emptied, the configuration set, the
 * passes between start and stop, decoded and evaluated range by range. One
 * launch alone is replayed by the driver, which restores the memory it may
 * write; a session of several calls them all again for each pass (user
 * replay), so that its fixed cost (some 16 ms a pass on an H100) is paid
 * once for all of them. */
static int profile_session(struct wl_counters *c, const struct session *s, double *values, char *why, size_t len)
{
	struct rp_data_init di = { SIZE_TO(struct rp_data_init, data), NULL, c->object, c->data_size_bytes, c->data };
	struct rp_config cfg = { SIZE_TO(struct rp_config, targetNestingLevel), NULL, c->object, c->config_size_bytes,
				 c->config, c->data_size_bytes, c->data,
				 s->each ? CUPTI_USER_RANGE : CUPTI_AUTO_RANGE,
				 s->each ? CUPTI_USER_REPLAY : CUPTI_KERNEL_REPLAY, capacity(c), 1, 1, 0, 1 };
	struct rp_object start = { SIZE_TO(struct rp_object, object), NULL, c->object };
	struct rp_decode dec = { SIZE_TO(struct rp_decode, dropped), NULL, c->object, 0 };
	int pass = 0;

	if (check(c, c->data_init(&di), "cuptiRangeProfilerCounterDataImageInitialize", why, len) < 0 ||
	    check(c, c->set_config(&cfg), "cuptiRangeProfilerSetConfig", why, len) < 0)
		return -1;
	for (;;) {
		struct rp_stop stop = { SIZE_TO(struct rp_stop, isAllPassSubmitted), NULL, c->object, 0, 0, 0 };

		if (check(c, c->start(&start), "cuptiRangeProfilerStart", why, len) < 0)
			return -1;
		if (one_pass(c, s, why, len) < 0) {
			c->stop(&stop);
			return -1;
		}
		if (check(c, c->stop(&stop), "cuptiRangeProfilerStop", why, len) < 0)
			return -1;
		if (stop.isAllPassSubmitted || !s->each)
			break;
		if (++pass == MAX_PASSES) {
			snprintf(why, len, "the profiler asked for more than %d passes", MAX_PASSES);
			return -1;
		}
	}
	if (check(c, c->decode(&dec), "cuptiRangeProfilerDecodeData", why, len) < 0)
		return -1;
	if (dec.dropped) {
		snprintf(why, len, "the profiler dropped %zu of %zu ranges", dec.dropped, s->n);
		return -1;
	}
	return s->each ? evaluate_named(c, s->n, values, why, len) : evaluate_range(c, 0, values, why, len);
}

/* The profiler stays enabled on the context from the first profile to
 * wl_counters_close: enabling it anew made each profile's first start cost
 * some 130 ms on an H100, more than the profile itself (4 passes, ~80 ms),
 * and kept enabled it leaves the timed launches as they were (medians
 * within 0.2%, bench/RESULTS.md). */
static int run_session(struct wl_counters *c, const struct session *s, double *values, char *why, size_t len)
{
	if (s->n == 0)
		return 0;
	/* A profiler configured for one kind of range refuses the other's
	 * ranges (CUPTI 13.0): a change of kind enables it afresh. */
	if (c->object && c->each != s->each)
		disable(c);
	c->each = s->each;
	if (s->n > WL_COUNTERS_RANGES_MAX) {
		snprintf(why, len, "%zu launches in one profile, more than %d", s->n, WL_COUNTERS_RANGES_MAX);
		return -1;
	}
	if ((!c->object && enable(c, why, len) < 0) || size_data(c, why, len) < 0 ||
	    profile_session(c, s, values, why, len) < 0) {
		/* A failed profile may leave the profiler in any state: the
		 * next one starts from a fresh enable. */
		disable(c);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		dump(c, values + i * WL_COUNTERS, i);
	return 0;
}

int wl_counters_profile_each(struct wl_counters *c, size_t n, int (*prepare)(void *, size_t),
			     int (*launch)(void *, size_t), void *arg, double *values, char *why, size_t len)
{
	struct session s = { n, 1, prepare, launch, arg };

	return run_session(c, &s, values, why, len);
}

struct one_launch {
	int (*launch)(void *);
	void *arg;
};

static int launch_one(void *arg, size_t i)
{
	const struct one_launch *o = arg;

	(void)i;
	return o->launch(o->arg);
}

int wl_counters_profile(struct wl_counters *c, int (*launch)(void *), void *arg, double *values, char *why,
			size_t len)
{
	struct one_launch o = { launch, arg };
	struct session s = { 1, 0, NULL, launch_one, &o };

	return run_session(c, &s, values, why, len);
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
