/* A sample of a launch's work-groups' memory requests, counted in the
 * order they are made: the one analysis for a declared kernel (the warp
 * model simulates its addresses, warp_model.h) and a traced one (the
 * simulator recorded them, trace_model.h), so that both end in the same
 * counts (ceilings.h's struct wl_launch_work) and the same ceilings.
 *
 * A request is one warp's execution of one site (a memory instruction, or a
 * declared access): its lanes' byte addresses, in one sampled work-group,
 * with the index k of the execution (the loop iteration) that orders it in
 * time: a group's requests are taken to be made in the order (k, site,
 * warp) — every warp of the group keeps pace with the others, each executes
 * the sites in their order. A sampled loop's requests carry a weight: how
 * many of the kernel's they stand for.
 *
 * The sample (sample.h): group 0 is the launch's first, and the sampled
 * group of the highest index its last (groups are sampled in the launch's
 * order); groups marked spread stand for the launch's
 * groups over the grid, and every count is their weighted mean — one
 * work-group of the launch, where groups differ (a grid-stride loop on part
 * of the grid, guards); groups marked neighbours are the ones right after
 * the first, which with it show what consecutive groups share. Counted per
 * group and then averaged:
 * - per site, the distinct 32-byte sectors, 128-byte lines and 64-byte bursts
 *   of a request, its useful bytes, and its bank-conflict degree (local
 *   memory's banks, or for global memory the first-level cache's);
 * - per warp, its requests: the busiest warp's global and local requests;
 * - for global loads, each sector's touches: first touches, touches again
 *   on the same execution (in flight together), and touches again after,
 *   by reuse distance — the distinct lines the group touched since it last
 *   touched the sector, in powers of two: what a first-level cache of a
 *   given size keeps;
 * - per global buffer, the distinct sectors read and written;
 * and across groups, the sectors the first group and its neighbours read
 * together, those the first and the last share (a vector every group
 * reads), and whether a site's addresses move with the group as one block
 * (a stencil, a transpose) or not (a gather through a hash). */
#ifndef WL_REQUESTS_H
#define WL_REQUESTS_H

#include "ceilings.h"
#include "error.h"
#include "sample.h"

#define WL_REQUEST_SITES 256	/* sites of one kernel */

enum wl_op { WL_OP_LOAD, WL_OP_STORE, WL_OP_ATOMIC };

/* What a site is. */
struct wl_request_site {
	enum wl_op op;
	int local;			/* local memory, else global */
	int buffer;			/* a global site's buffer, 0..WL_BUFFERS_MAX-1, or -1 unknown */
};

/* A site's figures: per request, and its requests in one work-group. */
struct wl_site_figures {
	double requests;		/* weighted: the kernel's, one work-group */
	double sectors_per_request, lines_per_request, bursts_per_request;
	double useful_per_request;	/* distinct addresses times the element */
	double bank_degree;		/* local: conflict degree; global: the first level's banks */
};

struct wl_requests;

/* Requests of warps of lanes (1..64) work-items over nsites sites
 * (at most WL_REQUEST_SITES), copied. NULL when out of memory or the
 * arguments are out of range. */
struct wl_requests *wl_requests_new(int lanes, int nsites, const struct wl_request_site *sites);

/* Say what sampled group g (0..WL_SAMPLE_GROUPS-1) is: one spread over the
 * grid, standing for weight of the launch's groups (> 0: counted in the
 * mean with that weight), one of the first's neighbours, or both. A group
 * nobody describes is spread with weight 1; group 0 is the first. */
void wl_requests_group(struct wl_requests *s, int g, double weight, int neighbour);

/* Add one request: of sampled group (0..WL_SAMPLE_GROUPS-1), execution k,
 * site, warp; n (1..lanes) lanes, lane[i] the lane's index in its warp and
 * addr[i] its byte address, bytes the element (1..128); weight (> 0) the
 * requests it stands for. -1 when out of memory (the requests then only
 * frees). */
int wl_requests_add(struct wl_requests *s, int group, long long k, int site, long long warp, const int *lane,
		  const long long *addr, int n, int bytes, double weight);

/* Multiply the weight of every request of site in group added so far by
 * factor (a sampled loop's trips over the requests simulated). */
void wl_requests_scale(struct wl_requests *s, int site, int group, double factor);

/* Count the requests: each site's figures into sites[0..nsites), the group's
 * counts into *w (its request, byte, reuse, warp and buffer figures; the
 * launch's — groups, items, barriers, footprint, buffer sizes — are the
 * caller's and left as they were). -1 with err when out of memory. */
int wl_requests_count(struct wl_requests *s, struct wl_site_figures *sites, struct wl_launch_work *w,
		    struct wl_error *err);

void wl_requests_free(struct wl_requests *s);

#endif
