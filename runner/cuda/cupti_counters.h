/* Hardware counters for one launch of a CUDA kernel, through
 * CUPTI's range profiler and profiler host APIs (CUDA 12.6 and later), opened
 * at run time: nothing of CUPTI is needed to build. After a point is timed,
 * one more launch of each variant runs under the profiler (never while
 * timing; none where the run's request says "counters": "off"), alone (the
 * driver replays it as many times as its counters need passes: 4 on an
 * H100, some 16 ms each whatever the kernel) or with others in one session
 * that pays those passes once (wl_counters_profile_each). The profiler is enabled on the context
 * at the first profile and stays so until wl_counters_close, which the
 * timed launches do not feel. Where profiling is refused (the driver lets
 * only administrators profile) the reason says "not permitted". */
#ifndef WL_CUPTI_COUNTERS_H
#define WL_CUPTI_COUNTERS_H

#include <jansson.h>
#include <stddef.h>

/* The counters read, in the order values come back. */
enum wl_counter {
	WL_CTR_GLOBAL_LOAD_SECTORS, WL_CTR_GLOBAL_LOAD_REQUESTS, WL_CTR_GLOBAL_STORE_SECTORS,
	WL_CTR_GLOBAL_STORE_REQUESTS, WL_CTR_SHARED_LOAD_WAVEFRONTS, WL_CTR_SHARED_STORE_WAVEFRONTS,
	WL_CTR_SHARED_LOADS, WL_CTR_SHARED_STORES, WL_CTR_SHARED_LOAD_CONFLICTS,
	WL_CTR_DRAM_READ_BYTES, WL_CTR_DRAM_WRITE_BYTES, WL_CTR_L2_HIT_PCT, WL_COUNTERS
};

struct wl_counters;

/* The library names tried, in order, where none is given. */
#define WL_CUPTI_LIBS "libcupti.so", "libcupti.so.13", "libcupti.so.12", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"

/* CUPTI from lib (NULL: WL_CUPTI_LIBS in turn), kept open (the caller's to
 * dlclose); NULL with why ("no CUPTI (...)") where none loads, or where the
 * process runs under AddressSanitizer, which CUPTI's libraries defeat. */
void *wl_cupti_open(const char *lib, char *why, size_t len);

/* The profiler for context (a CUcontext) of the CUDA device ordinal, from
 * CUPTI in lib (NULL: the usual names). 0 with *out; -1 with why ("no
 * CUPTI (...)", "not permitted: ...", "counter X unknown on this GPU") and
 * *out NULL. */
int wl_counters_open(const char *lib, void *context, int ordinal, struct wl_counters **out, char *why, size_t len);

/* Profile one call of launch(arg) (which launches one kernel on the
 * context and returns 0) into values[WL_COUNTERS], enabling the profiler
 * on the context if it is not yet. -1 with why; the profiler is then
 * disabled, and the next profile enables it afresh. */
int wl_counters_profile(struct wl_counters *c, int (*launch)(void *), void *arg, double *values, char *why,
			size_t len);

/* The most launches one session profiles. */
#define WL_COUNTERS_RANGES_MAX 256

/* Profile n launches (at most WL_COUNTERS_RANGES_MAX) in one session of the profiler, into
 * values[i * WL_COUNTERS ...] for launch i: in each pass, for i = 0 .. n-1,
 * prepare(arg, i) (when not NULL: work outside every range, such as a
 * warm-up launch or a cache flush), then launch(arg, i) (one kernel, 0 on
 * success) in a range of its own. The passes call them all again (user
 * replay) and restore nothing: each launch must count the same when
 * repeated. -1 with why; the profiler is then disabled. */
int wl_counters_profile_each(struct wl_counters *c, size_t n, int (*prepare)(void *, size_t),
			     int (*launch)(void *, size_t), void *arg, double *values, char *why, size_t len);

/* Disable the profiler (where enabled) and free c; NULL is allowed. */
void wl_counters_close(struct wl_counters *c);

/* Evaluate a counter data image recorded on chip (e.g. "GH100") into
 * values[WL_COUNTERS] on the host alone, with CUPTI from lib (NULL: the
 * usual names): what wl_counters_profile does after its launch, for a
 * recorded image (the tests' fixture). -1 with why. */
int wl_counters_evaluate(const char *lib, const char *chip, const void *data, size_t size, double *values,
			 char *why, size_t len);

/* Where WARPLAB_COUNTER_DUMP names a directory, each profile also writes
 * its chip's name, counter data image and values there (for fixtures). */
#define WL_COUNTER_DUMP_ENV "WARPLAB_COUNTER_DUMP"

/* values as the API shows them: {"global_load_sectors", ...,
 * "l2_hit_pct"}; a new reference, NULL when out of memory. */
json_t *wl_counters_json(const double *values);

#endif
