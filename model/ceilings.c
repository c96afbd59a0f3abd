/* The model's ceilings (see ceilings.h). */
#include "ceilings.h"

#include <math.h>
#include <string.h>

#include "facts.h"

static const char *const names[WL_CEILINGS] = { "dram", "cache", "l1", "local", "latency", "barrier", "issue",
								"groups" };

const char *wl_ceiling_name(enum wl_ceiling c)
{
	return c < WL_CEILINGS ? names[c] : "";
}

int wl_device_model_from_json(const json_t *device, double copy_gbps, double resident_warps,
			      struct wl_device_model *out)
{
	double warp = json_number_value(json_object_get(device, "warp_width"));
	int warps = warp > 0;	/* a CPU has none: no banks, no warps in flight */
	struct wl_facts f;
	int measured = wl_facts_from_json(json_object_get(device, "facts"), &f);

	memset(out, 0, sizeof(*out));
	out->dram_gbps = copy_gbps;
	out->compute_units = json_number_value(json_object_get(device, "compute_units"));
	out->warp = warp > 0 ? warp : 32;
	out->resident_warps = resident_warps > 0 ? resident_warps : 64;
	out->cache_bytes = json_number_value(json_object_get(json_object_get(device, "cache"), "bytes"));
	if (!measured)
		return 0;
	/* A cache read slower than DRAM measured something else. */
	out->cache_gbps = f.cache_gbps < copy_gbps ? 0 : f.cache_gbps;
	out->launch_us = f.launch_us;
	out->latency_ns = f.latency_ns;
	if (warps) {
		out->warp_interval_ns = f.warp_interval_ns;
		out->l1_interval_ns = f.l1_interval_ns;
		out->l1_requests_per_us = f.l1_requests_per_us;
		out->l1_passes_per_us = f.l1_passes_per_us;
		out->l1_lines_per_us = f.l1_lines_per_us;
		out->local_per_us = f.local_per_us;
		out->barrier_ns = f.barrier_ns;
		out->groups_per_us = f.groups_per_us;
	}
	out->burst_bytes = f.burst_bytes;
	out->dram_random_per_us = f.dram_random_per_us;
	out->cache_random_per_us = f.cache_random_per_us;
	out->scatter_per_us = f.scatter_per_us;
	out->partial_store_per_us = f.partial_store_per_us;
	out->atomic_per_us = f.atomic_per_us;
	/* Warps in flight are what a lane's width changes: a CPU's DRAM rate
	 * is the copy ceiling's whatever the width. */
	if (warps) {
		double lanes[WL_LANE_WIDTHS] = { f.dram_lane4_gbps, f.dram_lane8_gbps, f.dram_lane16_gbps }, best = 0;

		for (int i = 0; i < WL_LANE_WIDTHS; i++)
			best = lanes[i] > best ? lanes[i] : best;
		for (int i = 0; best > 0 && i < WL_LANE_WIDTHS; i++)
			out->dram_lane_share[i] = lanes[i] / best;
	}
	if (warps) {
		out->l1_bytes = f.l1_bytes;
		out->issue_per_ns = f.issue_per_ns;
	}
	return 1;
}

/* The first level's time for the launch's global loads: each request
 * takes the longest of what serving one request, its bank passes and its
 * lines take, on every compute unit at once. 0 where unmeasured. */
static double first_level_ms(const struct wl_device_model *d, const struct wl_launch_work *w)
{
	double us = 0;

	if (d->l1_requests_per_us <= 0 || d->l1_passes_per_us <= 0 || d->l1_lines_per_us <= 0 || d->compute_units <= 0)
		return 0;
	for (int i = 0; i < w->nloads; i++) {
		const struct wl_first_level *l = &w->loads[i];
		double one = l->requests / d->l1_requests_per_us, passes = l->passes / d->l1_passes_per_us;
		double lines = l->lines / d->l1_lines_per_us;

		us += one > passes ? (one > lines ? one : lines) : (passes > lines ? passes : lines);
	}
	return w->groups * us / d->compute_units / 1000;
}

/* How much longer the launch's streamed bytes take than the copy ceiling's.
 * DRAM streams at the bytes the warps keep in flight (Little's law), and
 * a warp that loads little in its life keeps little in flight: the lane
 * facts were measured with warps whose loads move 128, 256 and 512 bytes
 * (a float, float2, float4 each), and the launch's warps are placed on
 * that scale by what their loads move (a log-linear step between two
 * points; 512 and more: the fastest). A warp without loads, or a device
 * without the facts: 1. */
static double lane_slowdown(const struct wl_device_model *d, const struct wl_launch_work *w)
{
	static const double at[WL_LANE_WIDTHS] = { 128, 256, 512 };
	double warps = ceil(w->items / d->warp), bytes, share;

	if (warps <= 0 || d->dram_lane_share[0] <= 0 || d->dram_lane_share[1] <= 0 || d->dram_lane_share[2] <= 0)
		return 1;
	bytes = (w->moved_bytes - w->store_moved_bytes) / warps;
	if (bytes <= 0)
		return 1;
	if (bytes <= at[0])
		share = d->dram_lane_share[0];
	else if (bytes >= at[2])
		share = d->dram_lane_share[2];
	else {
		int i = bytes < at[1] ? 0 : 1;
		double f = log2(bytes / at[i]);

		share = d->dram_lane_share[i] * pow(d->dram_lane_share[i + 1] / d->dram_lane_share[i], f);
	}
	return share < 1 ? 1 / share : 1;
}

/* DRAM's time for traffic t of launch w: the streamed bytes in whole
 * bursts at the copy ceiling, as fast as the warps' loads let it stream;
 * the sectors read at random at the rate measured for that (else as a
 * burst each), the scattered writes at theirs. */
static double dram_ms(const struct wl_device_model *d, const struct wl_launch_work *w, const struct wl_traffic *t)
{
	double burst = d->burst_bytes > 32 ? d->burst_bytes : 32;
	double ms = t->dram_burst_bytes * lane_slowdown(d, w) / (d->dram_gbps * 1e6);

	ms += d->dram_random_per_us > 0 ? t->dram_random_sectors / d->dram_random_per_us / 1000
					: t->dram_random_sectors * burst / (d->dram_gbps * 1e6);
	ms += d->scatter_per_us > 0 ? t->scatter_sectors / d->scatter_per_us / 1000
				    : 2 * t->scatter_sectors * burst / (d->dram_gbps * 1e6);
	return ms;
}

/* The last level's time for traffic t of launch w: what reaches it in
 * sequence at its measured bandwidth, what it is asked at random at its
 * random rate, stores of part of a sector and atomics at theirs. 0 where
 * unmeasured. */
static double cache_ms(const struct wl_device_model *d, const struct wl_launch_work *w, const struct wl_traffic *t)
{
	double partial = d->partial_store_per_us > 0 ? w->groups * w->partial_store_sectors : 0;
	double streamed = t->l2_read_bytes - t->l2_random_bytes + t->l2_write_bytes - 32 * partial;
	double ms;

	if (d->cache_gbps <= 0)
		return 0;
	ms = (streamed > 0 ? streamed : 0) / (d->cache_gbps * 1e6) +
	     (d->cache_random_per_us > 0 ? t->l2_random_bytes / 32 / d->cache_random_per_us / 1000
					 : t->l2_random_bytes / (d->cache_gbps * 1e6));
	if (partial > 0)
		ms += partial / d->partial_store_per_us / 1000;
	if (d->atomic_per_us > 0)
		ms += w->groups * w->atomic_lanes / d->atomic_per_us / 1000;
	return ms;
}

/* The time launch w's compute units hold nothing in flight, waves of them
 * after waves (c's): where a work-group shares what it loads across a
 * barrier (a tile loaded, then read by the others), each warp must have
 * all its loads back before it crosses, and its next requests wait for the
 * barrier — one whole round trip a wave (the device's latency) in which it
 * gives DRAM nothing to stream. One a wave however many barriers: the
 * counts do not say which barriers the loads' values cross, nor their
 * order. 0 where the launch has no barrier or no global load, or the device
 * no warps (a CPU) or no measured latency. */
static double drain_ms(const struct wl_device_model *d, const struct wl_launch_work *w, const struct wl_ceilings *c)
{
	if (w->barriers <= 0 || w->nloads <= 0 || d->warp_interval_ns <= 0 || d->latency_ns <= 0)
		return 0;
	return c->waves * d->latency_ns / 1e6;
}

/* Set c's binding ceiling and its margin; returns the time that binds,
 * without the launch: DRAM's with its drains where they make it larger
 * than the norm and the starts (a floor under both), else the work-group
 * starts where they are larger than the others' norm (then the margin is
 * over that norm), else the norm, naming the largest of the others, its
 * margin over the next of them — or over the starts where they come
 * between (starts larger than it hide under the norm, and a margin stays
 * at least 1). */
static double bind(struct wl_ceilings *c, double norm)
{
	double second = 0;

	if (c->drain_ms > 0 && c->ms[WL_CEIL_DRAM] > fmax(norm, c->ms[WL_CEIL_GROUPS])) {
		/* DRAM with its drains: the margin is over the largest of the rest. */
		for (int i = 1; i < WL_CEILINGS; i++)
			second = c->ms[i] > second ? c->ms[i] : second;
		c->binding = WL_CEIL_DRAM;
		c->margin = second > 0 ? c->ms[WL_CEIL_DRAM] / second : 0;
		return c->ms[WL_CEIL_DRAM];
	}
	if (c->ms[WL_CEIL_GROUPS] > norm) {
		c->binding = WL_CEIL_GROUPS;
		c->margin = norm > 0 ? c->ms[WL_CEIL_GROUPS] / norm : 0;
		return c->ms[WL_CEIL_GROUPS];
	}
	c->binding = WL_CEIL_DRAM;
	for (int i = 1; i < WL_CEILINGS; i++)
		if (i != WL_CEIL_GROUPS && c->ms[i] > c->ms[c->binding])
			c->binding = (enum wl_ceiling)i;
	for (int i = 0; i < WL_CEILINGS; i++)
		if (i != (int)c->binding && i != WL_CEIL_GROUPS && c->ms[i] > second)
			second = c->ms[i];
	if (c->ms[WL_CEIL_GROUPS] > second && c->ms[WL_CEIL_GROUPS] <= c->ms[c->binding])
		second = c->ms[WL_CEIL_GROUPS];
	c->margin = second > 0 ? c->ms[c->binding] / second : 0;
	return norm;
}

int wl_ceilings_compute(const struct wl_device_model *d, const struct wl_launch_work *w, struct wl_ceilings *out)
{
	const struct wl_traffic *t = &out->traffic;
	double warps_per_group = ceil(w->items / d->warp), resident;
	double cubes = 0;

	memset(out, 0, sizeof(*out));
	if (d->dram_gbps <= 0 || w->groups <= 0 || w->items <= 0)
		return -1;
	wl_traffic_compute(d, w, &out->traffic);
	out->footprint_bytes = w->footprint_bytes;
	out->first_level = t->hit_requests > 0;
	out->hit_share = w->global_requests > 0 ? t->hit_requests / w->global_requests : 0;
	out->reuse = t->dram_read_bytes < 0.99 * t->l2_read_bytes;
	out->dram_bytes = t->dram_read_bytes + t->dram_write_bytes;
	out->ms[WL_CEIL_DRAM] = dram_ms(d, w, t);
	out->cache_bytes = t->l2_read_bytes + t->l2_write_bytes;
	out->ms[WL_CEIL_CACHE] = cache_ms(d, w, t);
	out->ms[WL_CEIL_L1] = first_level_ms(d, w);
	if (d->local_per_us > 0 && d->compute_units > 0)
		out->ms[WL_CEIL_LOCAL] = w->groups * w->local_wavefronts / (d->local_per_us * d->compute_units) / 1000;
	out->warps = w->groups * warps_per_group;
	resident = d->compute_units * d->resident_warps;
	out->waves = resident > 0 ? ceil(out->warps / resident) : 1;
	if (d->warp_interval_ns > 0) {
		/* Each request takes a warp's pace for every WL_PACE_BYTES it
		 * asks; one the first level serves, its pace there. */
		double paced = w->paced_requests > 0 ? w->paced_requests : w->global_requests;
		double hits = d->l1_interval_ns > 0 && w->global_requests > 0 ? paced * t->hit_requests / w->global_requests : 0;

		out->ms[WL_CEIL_LATENCY] = out->waves * ((paced - hits) * d->warp_interval_ns + hits * d->l1_interval_ns) /
					   warps_per_group / 1e6;
	}
	if (d->barrier_ns > 0 && w->barriers > 0 && d->compute_units > 0) {
		double per_unit = floor(d->resident_warps / warps_per_group);
		double group_waves = ceil(w->groups / (d->compute_units * (per_unit >= 1 ? per_unit : 1)));

		out->ms[WL_CEIL_BARRIER] = group_waves * w->barriers * d->barrier_ns / 1e6;
	}
	/* The instructions the group's warps execute (a trace counts them),
	 * issued on every compute unit at once. */
	if (d->issue_per_ns > 0 && w->warp_instructions > 0 && d->compute_units > 0)
		out->ms[WL_CEIL_ISSUE] = w->groups * w->warp_instructions / (d->issue_per_ns * d->compute_units) / 1e6;
	if (d->groups_per_us > 0 && !w->groups_chosen)
		out->ms[WL_CEIL_GROUPS] = w->groups / d->groups_per_us / 1000;
	/* Not the largest alone: the ceilings share the compute unit's pipes
	 * (its load/store unit issues local passes and global requests alike),
	 * so where two are near neither hides the other entirely. Their 3-norm
	 * is the largest where one dominates, 2^(1/3) = 1.26 times it where two
	 * are equal (bench/RESULTS.md: the norm against the largest on the
	 * H100's catalog). Starting work-groups is the device's front end, not
	 * the compute units' pipes: it hides under the rest, or binds alone. */
	for (int c = 0; c < WL_CEILINGS; c++)
		if (c != WL_CEIL_GROUPS)
			cubes += out->ms[c] * out->ms[c] * out->ms[c];
	out->launch_ms = d->launch_us / 1000;
	/* DRAM streams a draining launch's bytes only between its drains:
	 * its ceiling is their time and its bytes' together, a floor under
	 * the norm (where its bytes alone share the pipes with the rest). */
	out->drain_ms = drain_ms(d, w, out);
	out->ms[WL_CEIL_DRAM] += out->drain_ms;
	out->total_ms = bind(out, cbrt(cubes)) + out->launch_ms;
	return out->total_ms > 0 ? 0 : -1;
}
