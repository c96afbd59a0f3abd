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
	double read_burst, write_burst;	/* the bytes DRAM moves per byte of them (its bursts) */
	int irregular, paged;
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

/* The bytes DRAM moves per byte of sectors that lie in bursts (a group's
 * distinct sectors and the bursts they lie in): 1 where each burst holds
 * two of them, 2 where each holds one; 1 where DRAM moves single sectors
 * or nothing is known. */
static double burst_share(double bursts, double sectors, const struct wl_device_model *d)
{
	double share = sectors > 0 && bursts > 0 ? bursts * (d->burst_bytes / SECTOR) / sectors : 1;

	return d->burst_bytes > SECTOR && share > 1 ? share : 1;
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

/* Each buffer's part of the groups' first touches (g's cold, of loads
 * sectors touched in all) and what the launch touches of it; a launch whose
 * requests did not tell buffers apart has one, of what they move, none read
 * twice. The kernel's own sectors are returned. */
static double buffer_needs(const struct wl_device_model *d, const struct wl_launch_work *w, const struct group_loads *g,
			   double loads, struct buffer_need *need)
{
	double groups = w->groups, own = 0;
	int n = w->nbuffers > 0 ? w->nbuffers : 1;

	for (int b = 0; b < w->nbuffers; b++) {
		const struct wl_buffer_use *u = &w->buffers[b];
		double size = u->bytes / SECTOR;

		need[b].requested = loads > 0 ? groups * g->cold * u->load_sectors / loads : 0;
		need[b].stored = groups * u->store_sectors;
		need[b].reads = distinct_reads(u, groups, need[b].requested);
		need[b].writes = groups * u->written_sectors;
		if (size > 0 && need[b].writes > size)
			need[b].writes = size;
		need[b].irregular = u->irregular;
		need[b].paged = u->paged;
		need[b].read_burst = burst_share(u->read_bursts, u->read_sectors, d);
		need[b].write_burst = burst_share(u->written_bursts, u->written_sectors, d);
		own += need[b].reads + need[b].writes;
	}
	if (w->nbuffers == 0) {
		need[0].requested = need[0].reads = groups * g->cold;
		need[0].writes = groups * w->store_moved_bytes / SECTOR;
		/* It moves the requests' bursts. */
		need[0].read_burst = need[0].write_burst = 1;
		if (d->burst_bytes > SECTOR && w->moved_bytes > w->store_moved_bytes && w->burst_bytes > w->store_burst_bytes)
			need[0].read_burst = (w->burst_bytes - w->store_burst_bytes) / (w->moved_bytes - w->store_moved_bytes);
		if (d->burst_bytes > SECTOR && w->store_moved_bytes > 0 && w->store_burst_bytes > w->store_moved_bytes)
			need[0].write_burst = w->store_burst_bytes / w->store_moved_bytes;
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
	return own;
}

/* A group's lone sectors are the launch's whole bursts where the launch
 * fills what it touches: a neighbour wrote or read the other half, and the
 * last level joined them. A burst costs one sector's worth more at most as
 * often as the buffer (or the footprint, for buffers of unknown size) is
 * left half empty. */
static void fill_bursts(const struct wl_launch_work *w, double own_bytes, struct buffer_need *need)
{
	int n = w->nbuffers > 0 ? w->nbuffers : 1;

	for (int b = 0; b < n; b++) {
		double size = w->nbuffers ? w->buffers[b].bytes / SECTOR : 0;
		double dense = size > 0 ? (need[b].reads + need[b].writes) / size
			       : w->footprint_bytes > 0 ? own_bytes / w->footprint_bytes : 0;
		double most = dense > 0 && 1 / dense > 1 ? 1 / dense : 1;

		if (dense <= 0)
			continue;
		if (need[b].read_burst > most)
			need[b].read_burst = most;
		if (need[b].write_burst > most)
			need[b].write_burst = most;
	}
}

/* What DRAM moves for the buffers' needs, into out; returns the sectors
 * read (the last level's misses). */
static double dram_moves(const struct wl_device_model *d, const struct wl_launch_work *w, const struct group_loads *g,
			 double loads, const struct buffer_need *need, struct wl_traffic *out)
{
	static const struct wl_buffer_use none = { 0 };
	double burst = d->burst_bytes > SECTOR ? d->burst_bytes / SECTOR : 1, missed = 0;
	int n = w->nbuffers > 0 ? w->nbuffers : 1;

	for (int b = 0; b < n; b++) {
		const struct buffer_need *x = &need[b];
		const struct wl_buffer_use *u = w->nbuffers ? &w->buffers[b] : &none;
		/* Touches again too far apart for the last level, the buffer's share. */
		double far = w->groups * g->again * (loads > 0 ? u->load_sectors / loads : w->nbuffers ? 0 : 1);
		double reads = x->reads + again_misses(d, u, x->requested, x->reads, w->groups, out->fits) + far;

		missed += reads;
		/* DRAM moves whole bursts: a sector read at random is one; one
		 * gathered within a page that moves with the group is streamed,
		 * page by page, though the last level serves it at random. */
		out->dram_read_bytes += reads * SECTOR * (x->irregular && !x->paged ? burst : x->read_burst);
		out->dram_write_bytes += x->writes * SECTOR * x->write_burst;
		if (x->irregular)
			out->l2_random_bytes += (x->requested + far) * SECTOR;
		if (x->irregular && !x->paged)
			out->dram_random_sectors += reads;
		else
			out->dram_burst_bytes += reads * SECTOR * x->read_burst;
		/* Scattered writes past the last level: each store a sector
		 * DRAM reads and writes again, but for those the last level
		 * holds. */
		if (x->irregular && !out->fits && x->writes * SECTOR > d->cache_bytes)
			out->scatter_sectors += x->stored * (1 - d->cache_bytes / (x->writes * SECTOR));
		else
			out->dram_burst_bytes += x->writes * SECTOR * x->write_burst;
	}
	return missed;
}

void wl_traffic_compute(const struct wl_device_model *d, const struct wl_launch_work *w, struct wl_traffic *out)
{
	struct buffer_need need[WL_BUFFERS_MAX + 1];
	double loads = 0, per_unit, in_flight, l1, l2, requests, missed;
	struct group_loads g;

	memset(out, 0, sizeof(*out));
	memset(need, 0, sizeof(need));
	if (w->groups <= 0)
		return;
	per_unit = w->items > 0 && d->warp > 0 ? floor(d->resident_warps / ceil(w->items / d->warp)) : 1;
	in_flight = d->compute_units * (per_unit >= 1 ? per_unit : 1);
	l1 = first_level_lines(w, d);
	l2 = d->cache_bytes > 0 && in_flight > 0 ? d->cache_bytes / LINE / in_flight : -1;
	g = first_level(w, l1, l2, out);
	out->l2_read_bytes = w->groups * g.on * SECTOR;
	out->l2_write_bytes = w->groups * w->store_moved_bytes;
	for (int b = 0; b < w->nbuffers; b++)
		loads += w->buffers[b].load_sectors;
	out->own_bytes = buffer_needs(d, w, &g, loads, need) * SECTOR;
	out->fits = d->cache_bytes > 0 && out->own_bytes <= d->cache_bytes;
	fill_bursts(w, out->own_bytes, need);
	/* Timed hot, what fits stays: the launch before left it all in the
	 * last level, reads and writes alike — where the device's cache has a
	 * measured rate to serve it at (else DRAM's counts stand for it). */
	if (out->fits && w->warm && d->cache_gbps > 0) {
		out->l2_hit_pct = 100;
		return;
	}
	missed = dram_moves(d, w, &g, loads, need, out);
	requests = (out->l2_read_bytes + out->l2_write_bytes) / SECTOR;
	out->l2_hit_pct = requests > 0 ? 100 * (1 - missed / requests) : 0;
	if (out->l2_hit_pct < 0)
		out->l2_hit_pct = 0;
}
