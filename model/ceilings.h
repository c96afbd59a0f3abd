/* The model's time for one point from several ceilings and the launch's
 * cost, each from what the warp model counts for one
 * work-group (warp_model.h) and what the runner measured of the device
 * (its copy ceiling and its facts, runner/probes/device_facts.h):
 * - dram: the bytes DRAM moves, in whole bursts (64 bytes on the H100: a
 *   lone 32-byte sector costs two), at the copy ceiling; where the point's
 *   buffers fit in the last-level cache, each byte a kernel loads comes from
 *   DRAM once, and where they do not but its loads ask for them
 *   WL_REUSE_ASKS times over or more, once per pass of the cache over them
 *   (its stores still move what they write: scattered writes reach the cache
 *   and DRAM sector by sector); and where a work-group shares what it loads
 *   across a barrier, the drains: a round trip a wave of warps with nothing
 *   in flight, DRAM streaming only between;
 * - cache: where DRAM is spared by reuse, the sectors that reach the
 *   last-level cache (a load's sectors the work-group touched a moment
 *   before stay in the first level), at its measured read bandwidth;
 * - l1: the first-level cache's work for global loads, per request the
 *   largest of one request, its passes over the banks its words fall on
 *   and its lines, each at the rate measured for it;
 * - local: the local-memory passes (requests times their conflict degree)
 *   over the compute units, at the passes one serves per second;
 * - latency: Little's law — each warp makes its requests one interval apart
 *   (the pace one warp alone keeps; a shorter one for loads the first
 *   level serves), in as many waves as the launch's warps
 *   take to fit on the device at its occupancy;
 * - barrier: the barriers each work-group crosses (declared), one step
 *   apart (a barrier round trip, measured), in as many waves as the
 *   work-groups take to fit on the device;
 * - issue: the warp instructions a trace counted, at the rate a compute
 *   unit issues them;
 * - groups: the work-groups the launch starts, at the rate the device
 *   starts them (an empty kernel of many: a GPU's own pace, whatever their
 *   size; a grid of tiny groups is bound by it); none where the driver
 *   chose the work-group size (the model's groups are then a guess);
 * - launch: an empty kernel's time.
 * The time is the ceilings' 3-norm — the largest where one dominates, 1.26
 * times it where two are equal, 1.44 where three are: they share the compute
 * unit's pipes — or the groups' where larger (the device's front end starts
 * them while the compute units work), or DRAM's with its drains where
 * larger (in the norm, its bytes' time alone shares the pipes), plus the
 * launch. */
#ifndef WL_CEILINGS_H
#define WL_CEILINGS_H

#include <jansson.h>

#include "traffic.h"
#include "work.h"

/* The device model of a run's device record (its "facts", "cache",
 * "compute_units", "warp_width") with its copy ceiling; resident_warps is
 * the warps one compute unit holds at the result's occupancy (0: as many as
 * its architecture allows, taken as 64). A device without a warp width (a
 * CPU) gets no local-memory or latency ceiling: it has no banks and no warps
 * in flight; a cache read slower than the copy ceiling is no ceiling.
 * Returns whether its facts were measured (else only the copy ceiling is
 * known). */
int wl_device_model_from_json(const json_t *device, double copy_gbps, double resident_warps,
			      struct wl_device_model *out);


enum wl_ceiling {
	WL_CEIL_DRAM, WL_CEIL_CACHE, WL_CEIL_L1, WL_CEIL_LOCAL, WL_CEIL_LATENCY, WL_CEIL_BARRIER, WL_CEIL_ISSUE, WL_CEIL_GROUPS,
	WL_CEILINGS
};

struct wl_ceilings {
	double ms[WL_CEILINGS];		/* each ceiling's time, 0 where it does not apply */
	double launch_ms;
	double drain_ms;		/* the waves' round trips before their barriers (in DRAM's), 0: none */
	double total_ms;		/* the ceilings' 3-norm (or the groups', or DRAM's) plus the launch */
	enum wl_ceiling binding;
	double margin;			/* the binding ceiling over the next largest (>= 1) */
	double dram_bytes, cache_bytes;	/* what each ceiling counted */
	int reuse;			/* DRAM moves less than reaches the last level */
	int first_level;		/* the first level serves some of the loads' requests */
	double hit_share;		/* the share of the global requests it serves */
	double footprint_bytes;		/* the point's buffers, 0: unknown */
	double warps, waves;		/* the launch's warps, and their waves at the occupancy */
	struct wl_traffic traffic;	/* where the global traffic is served (traffic.h) */
};

/* The name of a ceiling ("dram", "cache", "l1", "local", "latency", "barrier", "issue", "groups"). */
const char *wl_ceiling_name(enum wl_ceiling c);

/* The ceilings of work w on device d into *out. -1 where nothing can be
 * timed (no copy ceiling, no work), *out then zeroed. */
int wl_ceilings_compute(const struct wl_device_model *d, const struct wl_launch_work *w, struct wl_ceilings *out);

#endif
