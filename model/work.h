/* What the model knows of a device, and what a launch asks of it: the
 * device's facts as the ceilings use them (ceilings.c makes them from a
 * device record), and one work-group's counts from its requests
 * (requests.h) with the launch's size — what the traffic (traffic.h) and
 * the ceilings (ceilings.h) are made of. */
#ifndef WL_WORK_H
#define WL_WORK_H

#define WL_LANE_WIDTHS 3	/* the lane widths DRAM's streaming rate is measured at: 4, 8, 16 bytes */

/* What the model knows of a device; 0 for what it does not. */
struct wl_device_model {
	double dram_gbps;		/* the copy ceiling */
	double cache_gbps, cache_bytes;
	double launch_us, latency_ns, warp_interval_ns;
	double groups_per_us;		/* work-groups the device starts per µs, 0: unknown */
	double l1_interval_ns;		/* one warp's pace where its loads hit the first level */
	double l1_requests_per_us, l1_passes_per_us, l1_lines_per_us;	/* per compute unit */
	double local_per_us;		/* passes per µs per compute unit */
	double barrier_ns;		/* a barrier step of resident work-groups */
	double burst_bytes;
	double compute_units, warp, resident_warps;	/* resident per compute unit */
	double l1_bytes;		/* the first level's capacity on a compute unit, 0: unknown */
	double dram_random_per_us;	/* random sectors DRAM serves per µs, 0: unknown */
	double cache_random_per_us;	/* random sectors the last level serves per µs, 0: unknown */
	double scatter_per_us;		/* random one-word stores DRAM takes per µs, 0: unknown */
	double partial_store_per_us;	/* stores of part of a sector the last level takes per µs, 0: unknown */
	double atomic_per_us;		/* global atomics the last level serves per µs, 0: unknown */
	double issue_per_ns;		/* warp instructions per ns per compute unit, 0: unknown */
	/* DRAM's streaming rate where each warp's loads move 128, 256 and 512
	 * bytes in its life (a copy of a float, a float2, a float4 per
	 * work-item: runner/probes/access_facts.c), each a share of the
	 * fastest of them; 0: unknown. */
	double dram_lane_share[WL_LANE_WIDTHS];
};


#define WL_REUSE_BUCKETS 24	/* reuse distances in lines: 0, 1, 2-3, 4-7, ..., 2^22 and beyond */

/* One global load's work for the first-level cache, one work-group, and
 * the reuse it finds there: its sector touches (weighted); those of a
 * sector the group touched on the same execution (iteration) — requests in
 * flight together, which the first level does not merge — and those of a
 * sector it touched on an earlier one, by reuse distance: the distinct
 * lines the group touched since (bucket b holds distances in
 * [2^(b-1), 2^b), bucket 0 distance 0). The rest are first touches. */
struct wl_first_level {
	double requests;
	double passes;			/* requests times their bank conflict degree */
	double lines;			/* requests times their lines */
	double touches;
	double concurrent;
	double reuse[WL_REUSE_BUCKETS];
};

/* The bytes a warp asks of one request in the probe that measures a warp's
 * pace (its warp_interval_ns: 32 lanes of a float each): a request asking
 * more takes as many of those intervals as it asks that many bytes. */
#define WL_PACE_BYTES 128.0

#define WL_LAUNCH_LOADS 8	/* load sites counted one by one; the rest in the last */
#define WL_BUFFERS_MAX 16	/* global buffers told apart */

/* One global buffer as the sampled work-groups use it (requests.h): each
 * figure one work-group's, the mean of the groups spread over the grid,
 * but for the cluster — the first group and the groups right after it —
 * and what the first and the last share. */
struct wl_buffer_use {
	double bytes;			/* its size, 0: unknown */
	double read_sectors, written_sectors;	/* distinct, one group */
	double read_bursts, written_bursts;	/* the distinct 64-byte bursts they lie in */
	double load_sectors, store_sectors;	/* what its loads and stores ask of it (weighted touches) */
	double cluster_groups;		/* the first group and its neighbours sampled */
	double cluster_read_sectors;	/* the distinct sectors they read together */
	double cluster_read_sum;	/* the sum of each one's distinct sectors read */
	double shared_read_sectors;	/* read by both the first group and the last */
	int irregular;			/* a site's addresses do not move with the group as one block */
	int paged;			/* irregular, but each such site's pages move with the group */
};

/* What a launch asks, from the warp model's counts for one work-group. */
struct wl_launch_work {
	double groups, items;		/* work-groups, work-items in one */
	double global_requests;		/* warp requests to global memory, one group */
	double max_warp_requests;	/* the busiest warp's of the sampled groups' */
	double paced_requests;		/* the global requests in the warp pace's own: each WL_PACE_BYTES asked (at least one) */
	double local_requests;		/* warp requests to local memory, one group */
	double max_warp_local;		/* the busiest warp's */
	double atomic_requests;		/* global atomic requests, one group */
	double atomic_lanes;		/* the atomics they make, one per lane */
	double partial_store_sectors;	/* stores' sectors written in part by their request, one group */
	double moved_bytes, burst_bytes;	/* sectors' bytes, bursts' bytes, one group */
	double store_moved_bytes, store_burst_bytes;	/* the stores' part of each, one group */
	double local_wavefronts;	/* local-memory passes, one group */
	double barriers;		/* barriers one group crosses */
	double warp_instructions;	/* instructions its warps execute, one group (0: unknown) */
	int stores_in_loops;		/* a work-item stores more than once: its loads wait for the stores before them */
	int warm;			/* timed hot: each launch finds in the last level what the one before left */
	int groups_chosen;		/* the driver chose the work-group size: the groups above are a guess */
	double footprint_bytes;		/* the point's buffers (the catalog's memory formula), 0: unknown */
	int nloads;
	struct wl_first_level loads[WL_LAUNCH_LOADS];
	int nbuffers;
	struct wl_buffer_use buffers[WL_BUFFERS_MAX];
};


#endif
