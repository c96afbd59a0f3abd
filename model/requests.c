/* Counting sampled work-groups' requests (see requests.h). The requests are
 * kept as they come; wl_requests_count sorts them by group and time and
 * walks them: once for the sites' and warps' figures, once for the loads'
 * reuse (a Fenwick tree over the times of each line's latest touch counts
 * the lines a group touched since a sector's last touch), and then across
 * groups (request_groups.c). */
#include "requests.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "requests_parts.h"
#include "units.h"


struct wl_requests *wl_requests_new(int lanes, int nsites, const struct wl_request_site *sites)
{
	struct wl_requests *s;

	if (lanes < 1 || lanes > WL_MODEL_LANES_MAX || nsites < 0 || nsites > WL_REQUEST_SITES)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->lanes = lanes;
	s->nsites = nsites;
	memcpy(s->sites, sites, sizeof(*sites) * (size_t)nsites);
	for (int g = 0; g < WL_SAMPLE_GROUPS; g++) {
		s->spread[g] = 1;
		s->weight[g] = 1;
	}
	s->sampled[0] = 1;
	return s;
}

void wl_requests_free(struct wl_requests *s)
{
	if (!s)
		return;
	free(s->req);
	free(s->addr);
	free(s->lane);
	free(s);
}

void wl_requests_group(struct wl_requests *s, int g, double weight, int neighbour)
{
	if (g < 0 || g >= WL_SAMPLE_GROUPS)
		return;
	s->sampled[g] = 1;
	s->spread[g] = weight > 0;
	s->weight[g] = weight > 0 ? weight : 0;
	s->neighbour[g] = g > 0 && neighbour;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 1024;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

int wl_requests_add(struct wl_requests *s, int group, long long k, int site, long long warp, const int *lane,
		    const long long *addr, int n, int bytes, double weight)
{
	size_t capaddr = s->capaddr;

	if (site < 0 || site >= s->nsites || n < 1 || n > s->lanes || group < 0 || group >= WL_SAMPLE_GROUPS)
		return 0;	/* nothing a caller means: not counted */
	if (grow((void **)&s->req, &s->capreq, s->nreq + 1, sizeof(*s->req)) < 0 ||
	    grow((void **)&s->addr, &capaddr, s->naddr + (size_t)n, sizeof(*s->addr)) < 0)
		return -1;
	capaddr = s->capaddr;
	if (grow((void **)&s->lane, &capaddr, s->naddr + (size_t)n, sizeof(*s->lane)) < 0)
		return -1;
	s->capaddr = capaddr;
	s->sampled[group] = 1;
	s->req[s->nreq++] = (struct request){ .k = k, .warp = warp, .group = group, .site = site, .n = n,
					      .bytes = bytes, .weight = weight, .at = s->naddr };
	memcpy(s->addr + s->naddr, addr, sizeof(*addr) * (size_t)n);
	memcpy(s->lane + s->naddr, lane, sizeof(*lane) * (size_t)n);
	s->naddr += (size_t)n;
	return 0;
}

void wl_requests_scale(struct wl_requests *s, int site, int group, double factor)
{
	for (size_t i = 0; i < s->nreq; i++)
		if (s->req[i].site == site && s->req[i].group == group)
			s->req[i].weight *= factor;
}

/* Each counted group's share of the mean (its weight over all counted),
 * and the last sampled (the launch's last: groups are sampled in the
 * launch's order). */
static void shares(struct wl_requests *s, int *last)
{
	double all = 0;

	*last = 0;
	for (int g = 0; g < WL_SAMPLE_GROUPS; g++) {
		all += s->sampled[g] && s->spread[g] ? s->weight[g] : 0;
		if (s->sampled[g])
			*last = g;
	}
	for (int g = 0; g < WL_SAMPLE_GROUPS; g++)
		s->share[g] = s->sampled[g] && s->spread[g] && all > 0 ? s->weight[g] / all : 0;
}


/* ---- a map from 64-bit keys to 64-bit values (open addressing) ---- */

struct map {
	long long *key, *val;
	unsigned char *used;
	size_t cap;
};

static int map_init(struct map *m, size_t entries)
{
	m->cap = 1024;
	while (m->cap < 2 * entries)
		m->cap *= 2;
	m->key = malloc(m->cap * sizeof(*m->key));
	m->val = malloc(m->cap * sizeof(*m->val));
	m->used = calloc(m->cap, 1);
	return m->key && m->val && m->used ? 0 : -1;
}

static void map_free(struct map *m)
{
	free(m->key);
	free(m->val);
	free(m->used);
}

/* The slot of key: its own, or the empty one it would take. */
static size_t map_slot(const struct map *m, long long key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> 20) & (m->cap - 1);

	while (m->used[i] && m->key[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void map_put(struct map *m, size_t slot, long long key, long long val)
{
	m->used[slot] = 1;
	m->key[slot] = key;
	m->val[slot] = val;
}

/* ---- the walks ---- */

/* Time order: (group, k, site, warp). */
static int by_time(const void *x, const void *y)
{
	const struct request *a = x, *b = y;

	if (a->group != b->group)
		return a->group - b->group;
	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	if (a->site != b->site)
		return a->site - b->site;
	return (a->warp > b->warp) - (a->warp < b->warp);
}

/* Fenwick tree over times: lines whose latest touch is at each time. */
static void fen_add(double *t, size_t n, size_t i, double v)
{
	for (i++; i <= n; i += i & (~i + 1))
		t[i - 1] += v;
}

static double fen_sum(const double *t, size_t i)	/* over [0, i) */
{
	double s = 0;

	for (; i > 0; i -= i & (~i + 1))
		s += t[i - 1];
	return s;
}

static int bucket_of(double d)
{
	int b = 0;

	while (d >= 1 && b < WL_REUSE_BUCKETS - 1) {
		d /= 2;
		b++;
	}
	return b;
}

/* Whether request r is a global load of a spread group. */
static int spread_load(const struct wl_requests *s, const struct request *r)
{
	return s->spread[r->group] && !s->sites[r->site].local && s->sites[r->site].op == WL_OP_LOAD;
}

/* The spread groups' global loads in time order: each sector's touch into
 * its site's first-level entry (slot[site]) — first, concurrent, or again
 * at a reuse distance in lines — weighted by its group's share. A
 * group's sectors are its own: the key holds the group. */
static int reuse_walk(struct wl_requests *s, struct wl_launch_work *w, const int *slot)
{
	size_t events = 0, t = 0;
	long long scratch[WL_MODEL_LANES_MAX * 34], *k_at = NULL;
	struct map sector = { 0 }, line = { 0 };
	double *fen = NULL;
	int rc = -1;

	for (size_t i = 0; i < s->nreq; i++)
		if (spread_load(s, &s->req[i]))
			events += (size_t)s->req[i].n * (size_t)((s->req[i].bytes + 31) / 32 + 1);
	if (events == 0)
		return 0;
	fen = calloc(events, sizeof(*fen));
	k_at = malloc(events * sizeof(*k_at));
	if (!fen || !k_at || map_init(&sector, events) < 0 || map_init(&line, events) < 0)
		goto out;
	for (size_t i = 0; i < s->nreq; i++) {
		const struct request *r = &s->req[i];
		long long group = (long long)r->group << 56;
		int k;

		if (!spread_load(s, r))
			continue;
		k = wl_model_units(s->addr + r->at, r->n, r->bytes, WL_MODEL_SECTOR, scratch);
		for (int j = 0; j < k; j++, t++) {
			long long sec = scratch[j] | group, ln = (scratch[j] / (WL_MODEL_LINE / WL_MODEL_SECTOR)) | group;
			size_t ss = map_slot(&sector, sec), ls = map_slot(&line, ln);
			struct wl_first_level *f = &w->loads[slot[r->site]];
			double q = r->weight * s->share[r->group];

			f->touches += q;
			if (sector.used[ss] && k_at[sector.val[ss]] == r->k) {
				f->concurrent += q;
			} else if (sector.used[ss]) {
				/* Lines whose latest touch came after this sector's. */
				double d = fen_sum(fen, t) - fen_sum(fen, (size_t)sector.val[ss] + 1);

				f->reuse[bucket_of(d)] += q;
			}
			if (line.used[ls])
				fen_add(fen, events, (size_t)line.val[ls], -1);
			fen_add(fen, events, t, 1);
			k_at[t] = r->k;
			map_put(&line, ls, ln, (long long)t);
			map_put(&sector, ss, sec, (long long)t);
		}
	}
	rc = 0;
out:
	free(fen);
	free(k_at);
	map_free(&sector);
	map_free(&line);
	return rc;
}


/* The sectors store request r writes in part (fewer than 32 of their bytes). */
static int partial_sectors(const struct wl_requests *s, const struct request *r)
{
	long long sec[WL_MODEL_LANES_MAX * 5], cover[WL_MODEL_LANES_MAX * 5];
	int n = 0, partial = 0;

	for (int i = 0; i < r->n; i++) {
		long long a = s->addr[r->at + (size_t)i], end = a + r->bytes;

		for (long long x = a; x < end;) {
			long long id = x / WL_MODEL_SECTOR, upto = (id + 1) * WL_MODEL_SECTOR, j;

			if (upto > end)
				upto = end;
			for (j = 0; j < n && sec[j] != id; j++)
				;
			if (j == n && n < WL_MODEL_LANES_MAX * 5) {
				sec[n] = id;
				cover[n++] = 0;
			}
			if (j < n)
				cover[j] += upto - x;
			x = upto;
		}
	}
	for (int j = 0; j < n; j++)
		partial += cover[j] < WL_MODEL_SECTOR;
	return partial;
}

/* Per site the spread groups' requests (their mean, each its share), per warp
 * the most any sampled group's warp makes. */
static int site_walk(struct wl_requests *s, struct wl_site_figures *sites, struct wl_launch_work *w, int *slot)
{
	long long scratch[WL_MODEL_LANES_MAX * 34], warps = 0;
	double sums[WL_REQUEST_SITES][7];
	double *warp_global = NULL, *warp_local = NULL;

	memset(sums, 0, sizeof(sums));
	for (size_t i = 0; i < s->nreq; i++)
		if (s->req[i].warp + 1 > warps)
			warps = s->req[i].warp + 1;
	warp_global = calloc((size_t)(warps * WL_SAMPLE_GROUPS) + 1, sizeof(*warp_global));
	warp_local = calloc((size_t)(warps * WL_SAMPLE_GROUPS) + 1, sizeof(*warp_local));
	if (!warp_global || !warp_local) {
		free(warp_global);
		free(warp_local);
		return -1;
	}
	for (size_t i = 0; i < s->nreq; i++) {
		const struct request *r = &s->req[i];
		const struct wl_request_site *st = &s->sites[r->site];
		const long long *a = s->addr + r->at;
		double *x = sums[r->site], q = r->weight * s->share[r->group], useful;
		size_t at = (size_t)(r->group * warps + r->warp);

		*(st->local ? &warp_local[at] : &warp_global[at]) += r->weight;
		if (!st->local && st->op != WL_OP_LOAD && r->k > 0)
			w->stores_in_loops = 1;
		if (!s->spread[r->group])
			continue;
		x[0] += q;
		x[5] += q * wl_model_conflict_degree(a, r->n, r->bytes, scratch);
		if (st->local)
			continue;
		if (st->op == WL_OP_STORE)
			w->partial_store_sectors += q * partial_sectors(s, r);
		else if (st->op == WL_OP_ATOMIC)
			w->atomic_lanes += q * r->n;
		x[1] += q * wl_model_units(a, r->n, r->bytes, WL_MODEL_SECTOR, scratch);
		x[2] += q * wl_model_units(a, r->n, r->bytes, WL_MODEL_LINE, scratch);
		x[3] += q * wl_model_units(a, r->n, r->bytes, WL_MODEL_BURST, scratch);
		useful = wl_model_useful_bytes(a, r->n, r->bytes, scratch);
		x[4] += q * useful;
		x[6] += q * (useful > WL_PACE_BYTES ? useful / WL_PACE_BYTES : 1);
	}
	for (long long k = 0; k < warps * WL_SAMPLE_GROUPS; k++) {
		if (warp_global[k] > w->max_warp_requests)
			w->max_warp_requests = warp_global[k];
		if (warp_local[k] > w->max_warp_local)
			w->max_warp_local = warp_local[k];
	}
	free(warp_global);
	free(warp_local);
	for (int i = 0; i < s->nsites; i++) {
		const struct wl_request_site *st = &s->sites[i];
		struct wl_site_figures *f = &sites[i];
		const double *x = sums[i];

		memset(f, 0, sizeof(*f));
		f->requests = x[0];
		if (x[0] <= 0)
			continue;
		f->bank_degree = x[5] / x[0];
		if (st->local) {
			w->local_requests += x[0];
			w->local_wavefronts += x[5];
			continue;
		}
		f->sectors_per_request = x[1] / x[0];
		f->lines_per_request = x[2] / x[0];
		f->bursts_per_request = x[3] / x[0];
		f->useful_per_request = x[4] / x[0];
		if (st->op == WL_OP_ATOMIC) {
			w->atomic_requests += x[0];
			continue;
		}
		w->global_requests += x[0];
		w->paced_requests += x[6];
		w->moved_bytes += x[1] * WL_MODEL_SECTOR;
		w->burst_bytes += x[3] * WL_MODEL_BURST;
		if (st->op == WL_OP_STORE) {
			w->store_moved_bytes += x[1] * WL_MODEL_SECTOR;
			w->store_burst_bytes += x[3] * WL_MODEL_BURST;
			continue;
		}
		if (w->nloads < WL_LAUNCH_LOADS)
			w->nloads++;
		slot[i] = w->nloads - 1;
		w->loads[w->nloads - 1].requests += x[0];
		w->loads[w->nloads - 1].passes += x[5];
		w->loads[w->nloads - 1].lines += x[2];
	}
	return 0;
}

int wl_requests_count(struct wl_requests *s, struct wl_site_figures *sites, struct wl_launch_work *w,
		      struct wl_error *err)
{
	int slot[WL_REQUEST_SITES] = { 0 }, last;

	shares(s, &last);
	if (s->nreq)
		qsort(s->req, s->nreq, sizeof(*s->req), by_time);
	if (site_walk(s, sites, w, slot) < 0 || reuse_walk(s, w, slot) < 0 || wl_requests_buffers(s, w, last) < 0 ||
	    wl_requests_regularity(s, w, last) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	return 0;
}
