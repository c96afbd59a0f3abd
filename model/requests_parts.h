/* What requests.c and request_groups.c share: the requests as kept, and
 * the walks across the sampled groups that request_groups.c makes (a
 * room's private header: no .c of its own). */
#ifndef WL_REQUESTS_PARTS_H
#define WL_REQUESTS_PARTS_H

#include <stddef.h>

#include "requests.h"

struct request {
	long long k, warp;
	int group, site, n, bytes;
	double weight;
	size_t at;			/* its lanes' addresses and ids in the pools */
};

struct wl_requests {
	int lanes, nsites;
	struct wl_request_site sites[WL_REQUEST_SITES];
	int sampled[WL_SAMPLE_GROUPS], spread[WL_SAMPLE_GROUPS], neighbour[WL_SAMPLE_GROUPS];
	double weight[WL_SAMPLE_GROUPS];	/* the launch's groups each spread one stands for, as given */
	double share[WL_SAMPLE_GROUPS];		/* the same over all counted: the mean's weights */
	struct request *req;
	size_t nreq, capreq;
	long long *addr;
	int *lane;
	size_t naddr, capaddr;
};

/* Each buffer's distinct sectors per group (the spread groups' mean, each
 * its share), what the first group and its neighbours read together, and
 * what the first and the last sampled group share. -1 when out of memory. */
int wl_requests_buffers(struct wl_requests *s, struct wl_launch_work *w, int last);

/* Mark irregular each buffer with a site whose addresses in the last
 * sampled group are not the first's moved by one distance, or whose
 * requests scramble their lanes' addresses across more than a page. -1
 * when out of memory. */
int wl_requests_regularity(struct wl_requests *s, struct wl_launch_work *w, int last);

#endif
