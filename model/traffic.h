/* Where a launch's global traffic is served, from what its sampled
 * work-groups asked (requests.h) and what the device holds:
 * - the first level: a load's sector touched again on a later iteration,
 *   within the lines the first level keeps for the group (its capacity over
 *   the groups resident with it), is a hit; a first touch, one touched on
 *   the same iteration (in flight together) or too long ago is not, and
 *   goes on to the last level with every store;
 * - the last level: every buffer's sectors come from DRAM once (the
 *   kernel's own bytes: the distinct sectors the launch touches, from a
 *   group's distinct sectors, what consecutive groups share, what every
 *   group reads, and the buffer's size); where all the kernel touches fits
 *   the last level that is all DRAM reads; where it does not, the reads
 *   again of a buffer whose addresses move with the group (a stencil's
 *   halo, a neighbour's row) hit while the groups in flight together fit
 *   it, and those of a gather through a hash hit as often as the last level
 *   holds of the buffer;
 * - DRAM: the sectors it reads and writes, a buffer read at random apart
 *   (each sector a burst of its own, at the rate measured for that) from
 *   the streamed ones (in whole bursts, at the copy ceiling); nothing where
 *   the launch is timed hot and all it touches fits the last level (the
 *   launch before left it there).
 * The same figures are what the hardware's counters count (CUPTI's DRAM
 * bytes and the last level's hit rate), so a run with counters checks them. */
#ifndef WL_TRAFFIC_H
#define WL_TRAFFIC_H

#include "work.h"

struct wl_traffic {
	double hit_requests;		/* load requests the first level serves, one group */
	double l2_read_bytes, l2_write_bytes;	/* what reaches the last level, the launch */
	double l2_random_bytes;		/* of the reads, those of buffers read at random */
	double dram_read_bytes, dram_write_bytes;	/* what DRAM moves, the launch */
	double dram_burst_bytes;	/* the streamed part in whole bursts, reads and writes */
	double dram_random_sectors;	/* reads of buffers read at random */
	double scatter_sectors;		/* writes of buffers written at random, larger than the last level */
	double own_bytes;		/* the kernel's own bytes: the distinct bytes it touches */
	double l2_hit_pct;		/* of the last level's sector requests, those it serves without DRAM */
	int fits;			/* the kernel's own bytes fit the last level */
};

/* The traffic of launch w on device d into *out. Buffers the requests did
 * not tell apart (a declaration's without their sizes) are one, as large as
 * w's footprint (the catalog's memory formula) where known. Never fails;
 * without groups everything is 0. */
void wl_traffic_compute(const struct wl_device_model *d, const struct wl_launch_work *w, struct wl_traffic *out);

#endif
