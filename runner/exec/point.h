/* One point of a run as a family's host code sees it, and the helpers every
 * family shares to measure a variant there: building its kernel, buffers
 * filled and poisoned, timing launches into a measurement, reading back, and
 * handing the output to verification. */
#ifndef WL_POINT_H
#define WL_POINT_H

#include <stdint.h>

#include "backend.h"
#include "source.h"
#include "catalog.h"
#include "device.h"
#include "launch.h"
#include "time_budget.h"
#include "verify.h"

struct wl_backend;
struct wl_program_cache;
struct wl_checker;
struct wl_build_records;

/* One point of a run, as the host code sees it. */
/* The variants of a run whose kernels are warm: one of their launches earlier
 * in the run took WL_WARM_AFTER_MS or more, so their code is loaded and the
 * clocks are up, and a warm-up would only cost their time again (min-plus at
 * n = 2000..4000 spent a quarter of its run on them). By the run's variant
 * names, which the plan owns. */
#define WL_WARM_MAX 64
struct wl_warm_kernels {
	const char *names[WL_WARM_MAX];
	size_t count;
};

/* Whether w (NULL: none) knows variant as warm. */
int wl_warm_known(const struct wl_warm_kernels *w, const char *variant);

/* Note variant (a name that outlives w) in w as warm when its median took
 * WL_WARM_AFTER_MS or more; a full w (WL_WARM_MAX) notes nothing more. */
void wl_warm_note(struct wl_warm_kernels *w, const char *variant, double median_ms);

struct wl_point {
	struct wl_device *dev;
	const struct wl_experiment *exp;
	const long long *values;	/* one per param, in catalog order */
	uint64_t seed;			/* for this point's inputs */
	long long warmup, repeat;
	struct wl_program_cache *programs;
	const struct wl_source *source;
	/* For a custom kernel (pt->source is its code): the family's source and
	 * the built-in kernel it stands in for, whose parameters it must take. */
	const struct wl_source *family;
	const char *like_kernel;
	/* How long to sample (pt->repeat is the most samples; NULL: exactly
	 * repeat), and the flush before each launch for cold timings (NULL: hot). */
	const struct wl_sampling *sampling;
	const struct wl_flush *flush;
	struct wl_time_budget *budget;	/* where the helpers count their time, or NULL */
	/* Where exact checks run while the next variant is timed; NULL: they
	 * run before measure returns. */
	struct wl_checker *checker;
	/* The run's name of the variant being measured, and where what its
	 * kernel was built as is noted (build_records.h); NULL: not noted. */
	const char *variant;
	struct wl_build_records *builds;
	/* What the point runs through (backend.h): its API, in which
	 * pt->source is written. */
	const struct wl_backend *backend;
	/* A point whose backend counts reads no hardware counters: no profiled launch after
	 * each variant is timed, nothing of counters in its results (the
	 * run plan's counters off). Zero, the default, counts. */
	int uncounted;
	/* Run once in the simulator for its trace: a family runs no kernel of
	 * the runner's own after the variant's (the device comparison), whose
	 * accesses the trace could take for the variant's. */
	int simulated;
	/* Its counters are profiled later, with other launches
	 * (cuda_counts.h), and written into its results, which say until then
	 * that they are coming. Zero: each variant is profiled as it is
	 * measured. */
	int count_later;
	/* The result the variant being measured will be: its run and row. */
	long long run_id, result_seq;
	/* Each variant's energy is measured after it is timed (energy.h). */
	int energy;
	/* The run's warm kernels (NULL: none known, every variant warms up). */
	struct wl_warm_kernels *warm;
	/* Someone else's kernel (arm not NULL): its first launch runs under a
	 * deadline of its own, probe_s, said through arm (probe 1), after
	 * which the point's, point_s, is given back (probe 0). */
	void (*arm)(void *ctx, int probe, long long seconds);
	void *arm_ctx;
	long long probe_s, point_s;
	/* Asked between batches of timed launches and before each variant:
	 * 1 when the run has been cancelled, and the point stops there (its
	 * variant fails "cancelled", the executor ends the run so). NULL:
	 * never asked. */
	int (*cancelled)(void *ctx);
	void *cancel_ctx;
};

/* What pt's backend builds and launches pt's kernels as (backend.h): its
 * device, source and program cache, and a custom kernel's like kernel. */
struct wl_kernel_site wl_point_site(const struct wl_point *pt);

/* The value of param name at pt (the catalog guarantees it exists). */
long long wl_point_value(const struct wl_point *pt, const char *name);

/* The kernel called name from pt's source built with options, into l (its
 * backend and handle; the caller sets its sizes and arguments and releases
 * it with wl_launch_release()). -1 (WL_ERR_BUILD with the build log's gist,
 * or the API's error) leaves nothing to release. */
int wl_point_kernel(const struct wl_point *pt, const char *options, const char *name, struct wl_launch *l,
		    struct wl_error *err);

/* A device buffer of bytes for role, filled from init when not NULL, made
 * by pt's backend. -1 with err leaves *out cleared. */
int wl_point_buffer(const struct wl_point *pt, enum wl_buf_role role, size_t bytes,
		    const void *init, struct wl_buf *out, struct wl_error *err);

/* A device buffer of n floats with the random values that wl_rng_fill_float
 * (small_int_max 0) or wl_rng_fill_small_int (with that max) would write from
 * r, made on the device; host, when not NULL, receives the same values (a
 * reference that evaluates wl_rng_float_at() per element needs none), and r
 * advances as those fills advance it. */
struct wl_rng;
int wl_point_random(const struct wl_point *pt, struct wl_rng *r, size_t n, int small_int_max,
		    float *host, enum wl_buf_role role, struct wl_buf *out, struct wl_error *err);

/* A program of the runner's own in be's language: body (OpenCL C, which
 * each backend's prelude makes its own) after be's prelude, made once into
 * made[be's language] (an array of WL_DEVICE_APIS the caller keeps for the
 * process's life) and kept on disk where the backend keeps binaries; NULL
 * with err set when out of memory. */
const struct wl_source *wl_runner_source(const struct wl_backend *be, const char *body, struct wl_source *made,
					 struct wl_error *err);

/* The source of the device's random fills in be's language (built with no
 * options), made once per language; NULL with err set when out of memory. */
const struct wl_source *wl_device_rng_source(const struct wl_backend *be, struct wl_error *err);

/* Fill buf with 0xFF bytes (NaN as floats) so that an element the kernel does
 * not write fails verification. */
int wl_point_poison(const struct wl_point *pt, const struct wl_buf *buf, size_t bytes, struct wl_error *err);

/* Whether a and b hold the same bytes (bytes a multiple of 4), compared on
 * the device by a kernel of the runner's own that sets the 4-byte flag
 * where a word differs: 1 the same, 0 not, -1 with err where it cannot be
 * run (the caller compares on the host). */
int wl_point_same_on_device(const struct wl_point *pt, const struct wl_buf *a, const struct wl_buf *b, size_t bytes,
			    const struct wl_buf *flag, struct wl_error *err);

/* Read bytes of buf back into out (blocking); -1 with the backend's error,
 * out then partly written. */
int wl_point_read(const struct wl_point *pt, const struct wl_buf *buf, size_t bytes, void *out,
		  struct wl_error *err);

/* Pinned host memory of the device's staging slot (0 or 1) of at least
 * bytes, kept between points, into *ptr: what the checker still reads of
 * the slot is waited for first. It stays the caller's until that slot is
 * asked for again; -1 with err where it cannot be had (*ptr then unset). */
int wl_point_staging(const struct wl_point *pt, unsigned slot, size_t bytes, void **ptr, struct wl_error *err);

/* A family's buffer, by the name the catalog's host.args give it; or, mem
 * NULL, a scalar passed by value (bytes of value, 1 to 8). */
struct wl_arg_buffer {
	const char *name;
	struct wl_buf *mem;
	const void *value;
	size_t bytes;
};

/* Make l (whose kernel is built) the launch variant v declares at pt: its
 * dimensions, global and local sizes (a persistent grid as many work-groups
 * as the device keeps resident, at most fill / local), and its arguments in
 * order, each buffer from buffers[0..nbuffers), each integer and local size
 * evaluated at the point. -1 with err naming the variant and argument where
 * the declaration cannot be made (l is then partly set). */
int wl_point_launch(const struct wl_point *pt, const struct wl_variant_def *v,
		    const struct wl_arg_buffer *buffers, size_t nbuffers, struct wl_launch *l,
		    struct wl_error *err);

/* Build variant v's kernel from pt's source with options and make its
 * declared launch into *l (wl_point_kernel, then wl_point_launch). Caller
 * releases it with wl_launch_release(); on failure (-1, err set) nothing is
 * left to release. */
int wl_point_prepare(const struct wl_point *pt, const struct wl_variant_def *v, const char *options,
		     const struct wl_arg_buffer *buffers, size_t nbuffers, struct wl_launch *l,
		     struct wl_error *err);

/* l launched once and waited for, as a warm-up; someone else's kernel
 * (pt->arm) under its probe deadline, the point's given back after. Its
 * time in *ms. -1 with err; *refused set where the driver refused the
 * work-group's shape. */
int wl_point_once(const struct wl_point *pt, const struct wl_launch *l, double *ms, int *refused,
		  struct wl_error *err);

/* Time launch l after pt->warmup warm-ups (none when pt->warm knows its
 * variant as warm; a median of WL_WARM_AFTER_MS or more makes it so) into res, in batches, until
 * pt->sampling says the median is known well enough (or its budget or
 * pt->repeat samples are reached). A work-group size the driver refuses is
 * recorded in res->error (the point fails, not the run). */
int wl_point_time(const struct wl_point *pt, const struct wl_launch *l,
		  struct wl_measurement *res, struct wl_error *err);

/* The steps every variant takes: poison out (bytes), time launch l, read out
 * back into the device's pinned staging memory, *host pointing at it (valid
 * until the next wl_point_run on the device), and where pt's backend counts
 * and pt is not uncounted, one more launch for the hardware counters.
 * Returns 1 when the output is there to verify, 0 when the point failed
 * without output (res->error says why), -1 for an error that stops the run. */
int wl_point_run(const struct wl_point *pt, const struct wl_launch *l, const struct wl_buf *out, size_t bytes,
		 const void **host, struct wl_measurement *res, struct wl_error *err);

/* What follows a variant's timing and read-back: where pt's backend counts
 * and pt is not uncounted, one more launch for the hardware counters; where
 * pt asks, its energy. -1 only for an error that stops the run. */
int wl_point_extras(const struct wl_point *pt, const struct wl_launch *l, struct wl_measurement *res,
		    struct wl_error *err);

/* Check a variant's output exactly, setting res->verified: in the background
 * (pt->checker) while the next variant is timed, else now. The output (in
 * staging memory) and the reference must stay as they are until the executor
 * has waited for the check, which it does before a point's teardown. */
void wl_point_verify(const struct wl_point *pt, const struct wl_exact_check *job,
		     struct wl_measurement *res);

#endif
