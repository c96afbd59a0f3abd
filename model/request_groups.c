/* What the sampled work-groups' requests say across groups (see
 * requests_parts.h): each buffer's distinct sectors, what consecutive groups
 * share and what the first and the last share, and whether each site's
 * addresses move with the group as one block. */
#include <stdlib.h>
#include <string.h>

#include "requests_parts.h"
#include "units.h"

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

/* Sort v[0..n) and keep each value once; returns how many. */
static size_t unique(long long *v, size_t n)
{
	size_t count = 0;

	qsort(v, n, sizeof(*v), cmp_ll);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || v[i] != v[count - 1])
			v[count++] = v[i];
	return count;
}

/* Values in both sorted unique lists. */
static size_t common(const long long *a, size_t na, const long long *b, size_t nb)
{
	size_t i = 0, j = 0, n = 0;

	while (i < na && j < nb) {
		if (a[i] < b[j])
			i++;
		else if (a[i] > b[j])
			j++;
		else
			n++, i++, j++;
	}
	return n;
}

/* The distinct sectors group g reads (store 0) or writes (1) of buffer b,
 * into set (room for cap); returns how many — scaled, where the requests
 * stand for more than were made (a sampled loop), by the touches they stand
 * for over those made: a loop that goes on touches new sectors at the pace
 * it touched them — and adds the spread group's touches to u. */
static double group_sectors(const struct wl_requests *s, int b, int g, int store, long long *set,
			    struct wl_buffer_use *u, size_t *nset, double *bursts)
{
	size_t pairs = 0;
	long long scratch[WL_MODEL_LANES_MAX * 34];
	double made = 0, meant = 0;
	size_t n = 0;

	for (size_t i = 0; i < s->nreq; i++) {
		const struct request *r = &s->req[i];
		const struct wl_request_site *st = &s->sites[r->site];
		int k;

		if (r->group != g || st->local || st->buffer != b || (st->op != WL_OP_LOAD) != store)
			continue;
		k = wl_model_units(s->addr + r->at, r->n, r->bytes, WL_MODEL_SECTOR, scratch);
		memcpy(set + n, scratch, sizeof(*scratch) * (size_t)k);
		n += (size_t)k;
		made += k;
		meant += k * r->weight;
		if (s->spread[g])
			*(store ? &u->store_sectors : &u->load_sectors) += k * r->weight * s->share[g];
	}
	*nset = unique(set, n);
	/* The distinct 64-byte bursts they lie in (sorted: pairs change in order). */
	for (size_t i = 0; i < *nset; i++)
		pairs += i == 0 || set[i] / 2 != set[i - 1] / 2;
	*bursts = made > 0 ? (double)pairs * meant / made : 0;
	return made > 0 ? (double)*nset * meant / made : 0;
}

int wl_requests_buffers(struct wl_requests *s, struct wl_launch_work *w, int last)
{
	long long *set = NULL, *first = NULL, *cluster = NULL;
	size_t cap = 0, nfirst, ncluster;
	double first_scale = 1;
	int rc = -1;

	for (size_t i = 0; i < s->nreq; i++)
		cap += (size_t)s->req[i].n * (size_t)((s->req[i].bytes + 31) / 32 + 1);
	set = malloc((cap + 1) * sizeof(*set));
	first = malloc((cap + 1) * sizeof(*first));
	cluster = malloc((cap + 1) * sizeof(*cluster));
	if (!set || !first || !cluster)
		goto out;
	for (int b = 0; b < WL_BUFFERS_MAX; b++) {
		struct wl_buffer_use *u = &w->buffers[b];
		int any = 0;

		for (int i = 0; i < s->nsites; i++)
			any |= !s->sites[i].local && s->sites[i].buffer == b;
		if (!any)
			continue;
		nfirst = ncluster = 0;
		for (int g = 0; g < WL_SAMPLE_GROUPS; g++) {
			size_t n;
			double reads, scale, bursts;

			if (!s->sampled[g])
				continue;
			reads = group_sectors(s, b, g, 0, set, u, &n, &bursts);
			scale = n > 0 ? reads / (double)n : 1;
			if (s->spread[g]) {
				u->read_sectors += reads * s->share[g];
				u->read_bursts += bursts * s->share[g];
			}
			/* The sets compared across groups are the made requests';
			 * what they share scales as the group's sectors do. */
			if (g == 0 || s->neighbour[g]) {
				memcpy(cluster + ncluster, set, n * sizeof(*set));
				ncluster += n;
				u->cluster_groups++;
				u->cluster_read_sum += (double)n;
			}
			if (g == 0) {
				memcpy(first, set, n * sizeof(*set));
				nfirst = n;
				first_scale = scale;
			} else if (g == last) {
				u->shared_read_sectors = (double)common(first, nfirst, set, n) * scale;
			}
			if (s->spread[g]) {
				u->written_sectors += group_sectors(s, b, g, 1, set, u, &n, &bursts) * s->share[g];
				u->written_bursts += bursts * s->share[g];
			}
		}
		u->cluster_read_sectors = (double)unique(cluster, ncluster);
		if (last == 0)
			u->shared_read_sectors = (double)nfirst * first_scale;
		if (b + 1 > w->nbuffers)
			w->nbuffers = b + 1;
	}
	rc = 0;
out:
	free(set);
	free(first);
	free(cluster);
	return rc;
}

/* An execution of a site by a work-item: its key and address. */
struct exec {
	long long key[4];		/* site, warp, lane, k */
	long long addr;
};

static int by_exec(const void *x, const void *y)
{
	const struct exec *a = x, *b = y;

	for (int i = 0; i < 4; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] < b->key[i] ? -1 : 1;
	return 0;
}

/* The most deltas that are one distance, of nd (sorted here). */
static size_t one_distance(long long *delta, size_t nd)
{
	size_t best = 0, run = 0;

	qsort(delta, nd, sizeof(*delta), cmp_ll);
	for (size_t d = 0; d < nd; d++) {
		run = d > 0 && delta[d] == delta[d - 1] ? run + 1 : 1;
		if (run > best)
			best = run;
	}
	return best;
}

/* A site whose deltas (the last group's addresses less the first's, for
 * the executions both made) are not one distance for at least half of them
 * makes its buffer irregular. Where the pages they fall in are (pages: the
 * last's page less the first's, the same executions), the site gathers at
 * random within a window of WL_MODEL_PAGE that moves with the group: the
 * last level serves it at random, but across the launch the buffer is read
 * page by page, and DRAM streams it (each sector a burst where the group's
 * bursts say so) rather than serving sectors scattered over all of it. A
 * buffer is paged where every irregular site on it is (marks: 1 a paged
 * site, 2 a scattered one; wl_requests_regularity settles them). */
static void irregular_site(struct wl_requests *s, struct wl_launch_work *w, int site, long long *delta,
			   long long *pages, size_t nd)
{
	struct wl_buffer_use *u;

	if (site < 0 || site >= s->nsites || s->sites[site].local || s->sites[site].buffer < 0)
		return;
	u = &w->buffers[s->sites[site].buffer];
	if (2 * one_distance(delta, nd) >= nd)
		return;
	u->irregular = 1;
	u->paged |= 2 * one_distance(pages, nd) >= nd ? 1 : 2;
}

/* Whether request r's lanes scramble their addresses: nearly each lane
 * in a sector of its own, the request across more than a page, and at
 * least one step in eight from one lane to the next going back. A stride,
 * or rows of one (a 2-D group's warp over two rows, a transpose's column),
 * only goes forward; a hash of the lane's index taken modulo the buffer
 * (i * c mod n), or a bit reversal of it, keeps wrapping back across the
 * buffer: the group's addresses move with it as one block (the sampled
 * groups' deltas are one distance), but they are random all the same. */
static int scrambled(const struct wl_requests *s, const struct request *r)
{
	long long scratch[WL_MODEL_LANES_MAX * 34], lo, hi;
	const long long *addr = s->addr + r->at;
	int back = 0;

	if (r->n < 8 || r->n > WL_MODEL_LANES_MAX || r->bytes > 128)
		return 0;
	lo = hi = addr[0];
	for (int i = 1; i < r->n; i++) {
		lo = addr[i] < lo ? addr[i] : lo;
		hi = addr[i] > hi ? addr[i] : hi;
		back += addr[i] < addr[i - 1];
	}
	return hi - lo > WL_MODEL_PAGE && 8 * back >= r->n - 1 &&
	       2 * wl_model_units(addr, r->n, r->bytes, WL_MODEL_SECTOR, scratch) > r->n;
}

/* Mark irregular (and scattered, not paged) each buffer with a global site
 * at least half of whose made requests of eight lanes or more scramble
 * their addresses, across the sampled groups: the group's addresses move
 * with it as one block, but it reads (or writes) at random across the
 * buffer all the same. */
static void scrambled_sites(const struct wl_requests *s, struct wl_launch_work *w)
{
	size_t made[WL_REQUEST_SITES] = { 0 }, mixed[WL_REQUEST_SITES] = { 0 };

	/* One pass over the requests, each counted for its site. */
	for (size_t i = 0; i < s->nreq; i++) {
		const struct request *r = &s->req[i];

		if (r->site < 0 || r->site >= s->nsites || r->n < 8)
			continue;
		made[r->site]++;
		mixed[r->site] += scrambled(s, r);
	}
	for (int site = 0; site < s->nsites; site++) {
		const struct wl_request_site *st = &s->sites[site];

		if (st->local || st->buffer < 0 || st->buffer >= WL_BUFFERS_MAX || made[site] == 0 ||
		    2 * mixed[site] < made[site])
			continue;
		w->buffers[st->buffer].irregular = 1;
		w->buffers[st->buffer].paged |= 2;
	}
}

/* The scrambled sites marked too, a buffer is paged where every irregular
 * site on it is. */
static void settle(const struct wl_requests *s, struct wl_launch_work *w)
{
	scrambled_sites(s, w);
	for (int b = 0; b < w->nbuffers; b++)
		w->buffers[b].paged = w->buffers[b].paged == 1;
}

int wl_requests_regularity(struct wl_requests *s, struct wl_launch_work *w, int last)
{
	struct exec *e[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 }, cap = s->naddr;
	long long *delta = NULL, *pages = NULL, last_site = -1;
	int rc = -1;

	if (cap == 0)
		return 0;
	if (last == 0) {
		settle(s, w);
		return 0;
	}
	e[0] = malloc(cap * sizeof(*e[0]));
	e[1] = malloc(cap * sizeof(*e[1]));
	delta = malloc(cap * sizeof(*delta));
	pages = malloc(cap * sizeof(*pages));
	if (!e[0] || !e[1] || !delta || !pages)
		goto out;
	for (size_t i = 0; i < s->nreq; i++) {
		const struct request *r = &s->req[i];
		int x = r->group == 0 ? 0 : r->group == last ? 1 : -1;

		if (x < 0 || s->sites[r->site].local)
			continue;
		for (int j = 0; j < r->n; j++)
			e[x][n[x]++] = (struct exec){ { r->site, r->warp, s->lane[r->at + (size_t)j], r->k },
						      s->addr[r->at + (size_t)j] };
	}
	qsort(e[0], n[0], sizeof(*e[0]), by_exec);
	qsort(e[1], n[1], sizeof(*e[1]), by_exec);
	/* One merge: the executions both groups made, a site's together. */
	for (size_t i = 0, j = 0, nd = 0; i <= n[0];) {
		int end = i == n[0] || j == n[1];
		long long site = end ? -1 : e[0][i].key[0];
		int c = end ? 0 : by_exec(&e[0][i], &e[1][j]);

		if (nd > 0 && (end || (c == 0 && site != last_site))) {
			irregular_site(s, w, (int)last_site, delta, pages, nd);
			nd = 0;
		}
		if (end)
			break;
		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			last_site = site;
			pages[nd] = e[1][j].addr / WL_MODEL_PAGE - e[0][i].addr / WL_MODEL_PAGE;
			delta[nd++] = e[1][j++].addr - e[0][i++].addr;
		}
	}
	settle(s, w);
	rc = 0;
out:
	free(e[0]);
	free(e[1]);
	free(delta);
	free(pages);
	return rc;
}
