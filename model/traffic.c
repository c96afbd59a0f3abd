/* A launch's traffic through the first level, the last level and DRAM
 * (see traffic.h). */
#include "traffic.h"

#include <math.h>
#include <string.h>

#define SECTOR 32.0
#define LINE 128.0

/* The lines of the first level one group has: its capacity over the
 * groups resident with it on the compute unit; -1 where unknown. */
static double first_level_lines(const struct wl_launch_work *w, const struct wl_device_model *d)
{
	double warps, groups;

	if (!d || d->l1_bytes <= 0 || d->warp <= 0)
		return -1;
	warps = ceil(w->items / d->warp);
	groups = warps > 0 ? floor(d->resident_warps / warps) : 1;
	return d->l1_bytes / LINE / (groups >= 1 ? groups : 1);
}

/* What the launch asks of one buffer, in sectors. */
struct buffer_need {
	double requested;		/* its loads' sectors that reach the last level */
	double stored;			/* its stores' sectors */
	double reads, writes;		/* the distinct sectors it reads and writes */
	int irregular;
};

/* Buffer u's distinct sectors read by the launch of groups: read at random,
 * the expected distinct of what is requested over its size; else a group's
 * own (what it shares with the groups right after it taken once), every
 * group's, plus what they all read once. Never more than it holds, nor
 * than is asked. */
static double distinct_reads(const struct wl_buffer_use *u, double groups, double requested)
{
	double size = u->bytes / SECTOR, own, shared, reads;

	if (u->irregular)
		return size > 0 ? size * (1 - exp(-requested / size)) : requested;
	shared = u->shared_read_sectors < u->read_sectors ? u->shared_read_sectors : u->read_sectors;
	own = u->read_sectors - shared;
	if (u->cluster_groups > 1 && u->cluster_read_sum > 0)
		own *= u->cluster_read_sectors / u->cluster_read_sum;
	reads = shared + groups * own;
	if (size > 0 && reads > size)
		reads = size;
	return reads < requested || requested <= 0 ? reads : requested;
}

/* The part of load f's touches again whose reuse distance is in [lo, hi)
 * lines (each distance bucket counted in proportion to its part in it);
 * hi < 0: no bound. */
static double reused_within(const struct wl_first_level *f, double lo, double hi)
{
	double n = 0;

	for (int b = 0; b < WL_REUSE_BUCKETS; b++) {
		double from = b ? ldexp(1, b - 1) : 0, to = ldexp(1, b), a = from > lo ? from : lo;
		double z = hi >= 0 && hi < to ? hi : to;

		if (b == WL_REUSE_BUCKETS - 1 && hi < 0)
			n += a <= from ? f->reuse[b] : 0;	/* the last bucket holds everything beyond */
		else if (z > a)
			n += f->reuse[b] * (z - a) / (to - from);
	}
	return n;
}

/* What one group's loads leave to the last level and to DRAM. */
struct group_loads {
	double on;			/* sector touches that reach the last level */
	double cold;			/* first touches: the group's own sectors */
	double again;			/* touches again too far apart for the last level */
};

/* The first level: a touch again on the same iteration (in flight together,
 * its misses merge them) or within the lines it keeps for the group (l1,
 * -1 unknown: all) is a hit; past them, the last level serves one within
 * the lines it keeps for each group in flight (l2, -1 unknown: all). */
static struct group_loads first_level(const struct wl_launch_work *w, double l1, double l2, struct wl_traffic *out)
{
	struct group_loads g = { 0 };
	double touches = 0;

	for (int i = 0; i < w->nloads; i++) {
		const struct wl_first_level *f = &w->loads[i];
		double all = reused_within(f, 0, -1), near = l1 < 0 ? all : reused_within(f, 0, l1);
		double hits = f->concurrent + near;

		touches += f->touches;
		g.on += f->touches - hits;
		g.cold += f->touches - f->concurrent - all;
		if (l2 >= 0 && l1 >= 0)
			g.again += l2 > l1 ? reused_within(f, l2, -1) : all - near;
		if (!w->stores_in_loops && f->touches > 0)
			out->hit_requests += f->requests * hits / f->touches;
	}
	if (touches <= 0)
		g.on = g.cold = (w->moved_bytes - w->store_moved_bytes) / SECTOR;
	return g;
}

/* What one buffer's reads again across groups (the part of its first
 * touches another group brought in) miss the last level: none where all
 * the kernel touches fits it; read at random, as much as the buffer passes
 * it; else what every group reads, as much as that passes it (a
 * neighbour's halo is in flight with it and hits). */
static double again_misses(const struct wl_device_model *d, const struct wl_buffer_use *u, double requested,
			   double reads, double groups, int fits)
{
	double c = d->cache_bytes, again = requested > reads ? requested - reads : 0, shared;

	if (fits || c <= 0 || again <= 0)
		return 0;
	if (u->irregular)
		return reads * SECTOR > c ? again * (1 - c / (reads * SECTOR)) : 0;
	shared = u->shared_read_sectors < u->read_sectors ? u->shared_read_sectors : u->read_sectors;
	if (shared * SECTOR <= c)
		return 0;
	shared *= groups - 1;
	return (shared < again ? shared : again) * (1 - c / (u->shared_read_sectors * SECTOR));
}

void wl_traffic_compute(const struct wl_device_model *d, const struct wl_launch_work *w, struct wl_traffic *out)
{
	struct buffer_need need[WL_BUFFERS_MAX + 1];
	struct wl_buffer_use none = { 0 };
	double groups = w->groups, loads = 0, own = 0, per_unit, in_flight, l1, l2;
	double load_burst = 1, store_burst = 1, requests;
	struct group_loads g;
	int n = w->nbuffers > 0 ? w->nbuffers : 1;

	memset(out, 0, sizeof(*out));
	memset(need, 0, sizeof(need));
	if (groups <= 0)
		return;
	per_unit = w->items > 0 && d->warp > 0 ? floor(d->resident_warps / ceil(w->items / d->warp)) : 1;
	in_flight = d->compute_units * (per_unit >= 1 ? per_unit : 1);
	l1 = first_level_lines(w, d);
	l2 = d->cache_bytes > 0 && in_flight > 0 ? d->cache_bytes / LINE / in_flight : -1;
	g = first_level(w, l1, l2, out);
	out->l2_read_bytes = groups * g.on * SECTOR;
	out->l2_write_bytes = groups * w->store_moved_bytes;
	for (int b = 0; b < w->nbuffers; b++)
		loads += w->buffers[b].load_sectors;
	/* Each buffer's part of the groups' first touches, and what it holds
	 * the launch touches. */
	for (int b = 0; b < w->nbuffers; b++) {
		const struct wl_buffer_use *u = &w->buffers[b];
		double size = u->bytes / SECTOR;

		need[b].requested = loads > 0 ? groups * g.cold * u->load_sectors / loads : 0;
		need[b].stored = groups * u->store_sectors;
		need[b].reads = distinct_reads(u, groups, need[b].requested);
		need[b].writes = groups * u->written_sectors;
		if (size > 0 && need[b].writes > size)
			need[b].writes = size;
		need[b].irregular = u->irregular;
		own += need[b].reads + need[b].writes;
	}
	if (w->nbuffers == 0) {
		/* One buffer of what the requests move, none of it read twice. */
		need[0].requested = need[0].reads = groups * g.cold;
		need[0].writes = groups * w->store_moved_bytes / SECTOR;
		own = need[0].reads + need[0].writes;
	}
	/* Buffers told apart without their sizes: the catalog's footprint
	 * bounds them all. */
	if (w->footprint_bytes > 0 && own * SECTOR > w->footprint_bytes) {
		for (int b = 0; b < n; b++) {
			need[b].reads *= w->footprint_bytes / (own * SECTOR);
			need[b].writes *= w->footprint_bytes / (own * SECTOR);
		}
		own = w->footprint_bytes / SECTOR;
	}
	out->own_bytes = own * SECTOR;
	out->fits = d->cache_bytes > 0 && out->own_bytes <= d->cache_bytes;
	if (w->moved_bytes > w->store_moved_bytes && w->burst_bytes > w->store_burst_bytes)
		load_burst = (w->burst_bytes - w->store_burst_bytes) / (w->moved_bytes - w->store_moved_bytes);
	if (w->store_moved_bytes > 0 && w->store_burst_bytes > 0)
		store_burst = w->store_burst_bytes / w->store_moved_bytes;
	if (d->burst_bytes <= SECTOR)
		load_burst = store_burst = 1;
	for (int b = 0; b < n; b++) {
		const struct buffer_need *x = &need[b];
		const struct wl_buffer_use *u = w->nbuffers ? &w->buffers[b] : &none;
		/* Touches again too far apart for the last level, the buffer's share. */
		double far = groups * g.again * (loads > 0 ? u->load_sectors / loads : w->nbuffers ? 0 : 1);
		double reads = x->reads + again_misses(d, u, x->requested, x->reads, groups, out->fits) + far;

		out->dram_read_bytes += reads * SECTOR;
		out->dram_write_bytes += x->writes * SECTOR;
		if (x->irregular) {
			out->dram_random_sectors += reads;
			out->l2_random_bytes += (x->requested + far) * SECTOR;
		} else {
			out->dram_burst_bytes += reads * SECTOR * load_burst;
		}
		/* Scattered writes past the last level: each store a sector
		 * DRAM reads and writes again, but for those the last level
		 * holds. */
		if (x->irregular && !out->fits && x->writes * SECTOR > d->cache_bytes)
			out->scatter_sectors += x->stored * (1 - d->cache_bytes / (x->writes * SECTOR));
		else
			out->dram_burst_bytes += x->writes * SECTOR * store_burst;
	}
	requests = (out->l2_read_bytes + out->l2_write_bytes) / SECTOR;
	out->l2_hit_pct = requests > 0 ? 100 * (1 - out->dram_read_bytes / SECTOR / requests) : 0;
	if (out->l2_hit_pct < 0)
		out->l2_hit_pct = 0;
}
