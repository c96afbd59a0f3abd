/* The device facts: what the runner measures of a device once per device and
 * driver (runner/probes/device_facts.c, each by a microbenchmark) and the model's
 * ceilings are made of. One typed structure and one table of names, units
 * and methods, shared by the runner that measures them and writes them to
 * the store and the model that reads them back: a fact is named, and its
 * method written, in this file's table only.
 *
 * In JSON (GET /api/devices, "facts") each fact is {"value", "unit",
 * "method"}, and a fact measured beside another by the same probe is a key
 * of the other's object (l1_requests_per_us's "passes" and "lines"). */
#ifndef WL_FACTS_H
#define WL_FACTS_H

#include <jansson.h>
#include <stddef.h>

/* The version of the probes: facts stored by another version are measured
 * again. */
#define WL_FACTS_VERSION 13

struct wl_facts {
	double launch_us;		/* an empty kernel's time */
	double groups_per_us;		/* the work-groups a GPU starts per µs */
	double latency_ns;		/* a dependent load from DRAM */
	double latency_bytes;		/* the span that chase ran over */
	double warp_interval_ns;	/* one warp alone: the time per coalesced request */
	double warp_scattered_ns;	/* the same with a row per lane */
	double local_per_us;		/* local-memory passes per µs per compute unit */
	double barrier_ns;		/* a barrier step of resident work-groups */
	double l1_requests_per_us;	/* one-line requests the first level serves, per µs per compute unit */
	double l1_passes_per_us;	/* lines per µs where every lane's word is in one bank */
	double l1_lines_per_us;		/* lines per µs over 32 banks */
	double l1_interval_ns;		/* one warp alone, its loads hitting the first level */
	double cache_gbps;		/* reads the last-level cache serves */
	double cache_probe_bytes;	/* the set that probe read */
	double burst_bytes;		/* the sectors DRAM moves together, in bytes */
	double burst_ratio;		/* the probe's time ratio behind it */
	double dram_random_per_us;	/* sectors at random addresses far beyond the last level, per µs */
	double cache_random_per_us;	/* the same within half the last level */
	double scatter_per_us;		/* stores of a word to random sectors far beyond it, per µs */
	double partial_store_per_us;	/* stores of a word to a sector each, the last level merging them, per µs */
	double dram_lane16_gbps;	/* a copy of one float4 per work-item far beyond the last level */
	double dram_lane8_gbps, dram_lane4_gbps;	/* the same of a float2, a float */
	double atomic_per_us;		/* atomic adds to random words the last level holds, per µs */
	double l1_bytes;		/* what the first level keeps for a kernel without local memory */
	double issue_per_ns;		/* warp instructions a compute unit issues per ns */
};

/* facts as the JSON the store keeps and the API shows: {"version", and each
 * fact measured (non-zero)}; a fact its probe could not measure (not
 * finite: a timing of 0 or not a number, as a busy CPU's clock can give) is
 * there as {"absent": why, "unit", "method"}. NULL only when out of
 * memory. */
json_t *wl_facts_to_json(const struct wl_facts *facts);

/* Whether a probe left any fact of facts unmeasured (not finite: NaN, or
 * the infinity of a timing of 0). */
int wl_facts_any_unmeasured(const struct wl_facts *facts);
/* Each fact of facts left unmeasured taken from again (a second
 * probe's), which may be unmeasured too. */
void wl_facts_fill_unmeasured(struct wl_facts *facts, const struct wl_facts *again);

/* Read obj (a device record's "facts") into *out, zeroing what it lacks.
 * Returns 1 when obj holds facts of this version's names measured without
 * an error (its launch among them), else 0 (then *out is all zeros but for
 * what could be read). */
int wl_facts_from_json(const json_t *obj, struct wl_facts *out);

/* The measured facts in words for a log line ("launch_us 4.7 µs, latency_ns
 * 342 ns, ..."), cut to len. */
void wl_facts_text(const struct wl_facts *facts, char *buf, size_t len);

#endif
