/* Counting a recorded trace (see trace_model.h): the lines parsed, the
 * records sorted by group, site, warp, execution and lane, each run of
 * equal keys one warp request, weighted by how many executions its warp
 * made of the site for each it recorded; then the requests' one analysis
 * (requests.h) and the launch's figures the trace gives beside them. */
#include "trace_model.h"

#include "sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct record {
	int group, site, bytes;
	long long lid, k, address;
};

struct count {
	int group, site;
	long long lid, n;
};

struct reader {
	struct record *records;
	size_t n, cap;
	struct count *counts;
	size_t ncounts, capcounts;
	long long buffer_at[WL_BUFFERS_MAX], buffer_bytes[WL_BUFFERS_MAX];
	int nbuffers;
	/* The sampled groups: which are spread over the grid and which are
	 * the first's neighbours (a trace without them has the first alone),
	 * the barriers each crossed and each one's work-items' instructions. */
	int ngroups, spread[WL_SAMPLE_GROUPS], neighbour[WL_SAMPLE_GROUPS], seen[WL_SAMPLE_GROUPS];
	long long linear[WL_SAMPLE_GROUPS];
	long long barriers[WL_SAMPLE_GROUPS];
	long long *instructions;	/* [group * ninstr + work-item] */
	long long ninstr;
	int lanes;
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 4096;
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int parse_site(const char *line, struct wl_trace_figures *out)
{
	char op[8], space[8];
	int site, number;

	if (sscanf(line, "S %d %d %7s %7s", &site, &number, op, space) != 4)
		return -1;
	if (site == WL_TRACE_SITES_MAX)
		return -3;
	if (site != out->nsites)
		return -1;
	out->sites[site].line = number;
	out->sites[site].op = strcmp(op, "store") == 0 ? WL_OP_STORE : strcmp(op, "atomic") == 0 ? WL_OP_ATOMIC : WL_OP_LOAD;
	out->sites[site].local = strcmp(space, "local") == 0;
	out->sites[site].buffer = -1;
	out->nsites++;
	return 0;
}

/* "I <group> <work-item> <instructions>": kept per group, for work-items of
 * the group's size. */
static int parse_instructions(const char *line, struct reader *r, const struct wl_trace_figures *out)
{
	long long g, lid, n, items = out->local[0] * out->local[1] * out->local[2];

	if (sscanf(line, "I %lld %lld %lld", &g, &lid, &n) != 3 || g < 0 || g >= WL_SAMPLE_GROUPS || lid < 0 ||
	    lid >= items || items > (1 << 20) || n < 0)
		return -1;
	if (!r->instructions) {
		r->instructions = calloc((size_t)(items * WL_SAMPLE_GROUPS), sizeof(*r->instructions));
		if (!r->instructions)
			return -2;
		r->ninstr = items;
	}
	if (items != r->ninstr)
		return -1;
	r->instructions[g * items + lid] = n;
	return 0;
}

/* One line of the trace into out or r; -1 when it is malformed, -2 out of
 * memory, -3 one site too many. */
static int parse_line(const char *line, struct reader *r, struct wl_trace_figures *out)
{
	struct record rec;
	struct count c;
	long long a, b, v[6];

	switch (line[0]) {
	case 'S':
		return parse_site(line, out);
	case 'A':
		if (sscanf(line, "A %d %d %lld %lld %lld %d", &rec.group, &rec.site, &rec.lid, &rec.k, &rec.address,
			   &rec.bytes) != 6 || rec.group < 0 || rec.group >= WL_SAMPLE_GROUPS || rec.site < 0 || rec.site >= out->nsites ||
		    rec.lid < 0 || rec.k < 0 || rec.bytes < 1 || rec.bytes > 128)
			return -1;
		if (grow((void **)&r->records, &r->cap, r->n, sizeof(*r->records)) < 0)
			return -2;
		r->records[r->n++] = rec;
		return 0;
	case 'N':
		if (sscanf(line, "N %d %d %lld %lld", &c.group, &c.site, &c.lid, &c.n) != 4 || c.group < 0 ||
		    c.group >= WL_SAMPLE_GROUPS || c.lid < 0 || c.n < 0)
			return -1;
		if (grow((void **)&r->counts, &r->capcounts, r->ncounts, sizeof(*r->counts)) < 0)
			return -2;
		r->counts[r->ncounts++] = c;
		return 0;
	case 'L':
		if (sscanf(line, "L %d %lld %lld %lld %lld %lld %lld", &out->dims, &v[0], &v[1], &v[2], &v[3], &v[4],
			   &v[5]) != 7 || out->dims < 1 || out->dims > 3)
			return -1;
		for (int d = 0; d < 3; d++) {
			out->groups[d] = v[d];
			out->local[d] = v[3 + d];
			if (v[d] < 1 || v[3 + d] < 1)
				return -1;
		}
		return 0;
	case 'M':
		if (sscanf(line, "M %lld %lld", &a, &b) != 2 || a < 0 || b < 0)
			return -1;
		if (r->nbuffers < WL_BUFFERS_MAX) {
			r->buffer_at[r->nbuffers] = a;
			r->buffer_bytes[r->nbuffers++] = b;
		}
		return 0;
	case 'G':
		if (sscanf(line, "G %lld %lld %lld %lld", &a, &b, &v[0], &v[1]) != 4 || a < 0 || a >= WL_SAMPLE_GROUPS ||
		    b < 0)
			return -1;
		r->spread[a] = v[0] != 0;
		r->neighbour[a] = v[1] != 0;
		r->linear[a] = b;
		r->seen[a] = 1;
		if (a + 1 > r->ngroups)
			r->ngroups = (int)a + 1;
		return 0;
	case 'B':
		if (sscanf(line, "B %lld %lld", &a, &b) != 2 || a < 0 || a >= WL_SAMPLE_GROUPS || b < 0)
			return -1;
		r->barriers[a] = b;
		return 0;
	case 'I':
		return parse_instructions(line, r, out);
	case 'T':
		return sscanf(line, "T %lld %lld", &a, &out->dropped) == 2 ? 0 : -1;
	case 'P':
		return sscanf(line, "P %lld", &a) == 1 && a >= 0 ? (out->groups_sampled = (int)a, 0) : -1;
	}
	return -1;
}

static int by_request(const void *x, const void *y, void *lanes_p)
{
	const struct record *a = x, *b = y;
	long long lanes = *(const int *)lanes_p;
	long long ka[5] = { a->group, a->site, a->lid / lanes, a->k, a->lid };
	long long kb[5] = { b->group, b->site, b->lid / lanes, b->k, b->lid };

	for (int i = 0; i < 5; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

static int by_count(const void *x, const void *y)
{
	const struct count *a = x, *b = y;
	long long ka[3] = { a->group, a->site, a->lid }, kb[3] = { b->group, b->site, b->lid };

	for (int i = 0; i < 3; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

/* How often work-item lid of group g executed site: its count line, else
 * the executions recorded (recorded). */
static long long executions(const struct reader *r, int g, int site, long long lid, long long recorded)
{
	struct count key = { .group = g, .site = site, .lid = lid };
	const struct count *c = r->counts ? bsearch(&key, r->counts, r->ncounts, sizeof(key), by_count) : NULL;

	return c && c->n > recorded ? c->n : recorded;
}

/* The buffer of a global address, by the plugin's allocations; -1 none. */
static int buffer_of(const struct reader *r, long long address)
{
	for (int b = 0; b < r->nbuffers; b++)
		if (address >= r->buffer_at[b] && address < r->buffer_at[b] + r->buffer_bytes[b])
			return b;
	return -1;
}

/* Feed the records, a warp's executions of a site at a time, to q. */
static int feed(struct reader *r, struct wl_trace_figures *out, struct wl_requests *q)
{
	long long addr[WL_MODEL_LANES_MAX];
	int lane[WL_MODEL_LANES_MAX];

	for (size_t i = 0, j; i < r->n; i = j) {
		const struct record *a = &r->records[i];
		long long warp = a->lid / r->lanes, recorded = 0, total = 0;
		size_t end;

		/* The warp's records of the site: its recorded and its whole
		 * executions, the most of any of its work-items. */
		for (end = i; end < r->n && r->records[end].group == a->group && r->records[end].site == a->site &&
			      r->records[end].lid / r->lanes == warp; end++)
			if (r->records[end].k + 1 > recorded)
				recorded = r->records[end].k + 1;
		for (long long lid = warp * r->lanes; lid < (warp + 1) * r->lanes; lid++) {
			long long n = executions(r, a->group, a->site, lid, 0);

			if (n > total)
				total = n;
		}
		if (total < recorded)
			total = recorded;
		for (j = i; j < end;) {
			size_t m = j;
			int n = 0;

			for (; m < end && r->records[m].k == r->records[j].k && n < WL_MODEL_LANES_MAX; m++, n++) {
				addr[n] = r->records[m].address;
				lane[n] = (int)(r->records[m].lid % r->lanes);
			}
			if (wl_requests_add(q, a->group, r->records[j].k, a->site, warp, lane, addr, n,
					    r->records[j].bytes, (double)total / (double)recorded) < 0)
				return -1;
			j = m;
		}
		if (!out->sites[a->site].local && out->sites[a->site].buffer < 0)
			out->sites[a->site].buffer = buffer_of(r, a->address);
	}
	return 0;
}

/* The kernel's totals from its sites, as wl_prediction_add counts a
 * declaration's accesses. */
static void totals(struct wl_trace_figures *out)
{
	for (int s = 0; s < out->nsites; s++) {
		const struct wl_site_figures *f = &out->sites[s].figures;
		struct wl_access_figures a = { 0 };

		if (f->requests <= 0)
			continue;
		a.requests = f->requests;
		a.conflict_degree = f->bank_degree;
		a.sectors_per_request = f->sectors_per_request;
		a.useful_bytes = f->useful_per_request * f->requests;
		a.moved_bytes = f->sectors_per_request * f->requests * WL_MODEL_SECTOR;
		a.burst_bytes = f->bursts_per_request * f->requests * WL_MODEL_BURST;
		wl_prediction_add(&out->total, &a, out->sites[s].local);
	}
}

/* The launch's groups the traced group of linear id stands for in the
 * sample the plugin chose (sample.h: the same rule). */
static double group_weight(const struct wl_trace_figures *out, long long linear)
{
	struct wl_sample sample;

	wl_sample_groups(out->groups, &sample);
	return wl_sample_weight(&sample, linear);
}

/* Each traced group's share of the launch's mean group: the groups it
 * stands for over those all traced spread groups stand for (a trace with
 * no group lines has the first group alone). */
static void group_shares(const struct reader *r, const struct wl_trace_figures *out, double *share)
{
	double all = 0;

	for (int g = 0; g < WL_SAMPLE_GROUPS; g++) {
		share[g] = r->ngroups ? (g < r->ngroups && r->seen[g] && r->spread[g] ? group_weight(out, r->linear[g]) : 0)
				      : g == 0;
		all += share[g];
	}
	for (int g = 0; g < WL_SAMPLE_GROUPS; g++)
		share[g] = all > 0 ? share[g] / all : 0;
}

/* The launch's figures beside the requests': groups, items, and the mean of
 * the spread groups' barriers and instructions (each warp's: its busiest
 * work-item's), and the buffers. */
static void launch(const struct reader *r, struct wl_trace_figures *out)
{
	struct wl_launch_work *w = &out->total.work;
	double share[WL_SAMPLE_GROUPS];

	w->groups = (double)(out->groups[0] * out->groups[1] * out->groups[2]);
	w->items = (double)(out->local[0] * out->local[1] * out->local[2]);
	group_shares(r, out, share);
	for (int g = 0; g < WL_SAMPLE_GROUPS; g++) {
		if (share[g] <= 0)
			continue;
		w->barriers += (double)r->barriers[g] * share[g];
		for (long long warp = 0; r->instructions && warp * r->lanes < r->ninstr; warp++) {
			long long most = 0;

			for (long long lid = warp * r->lanes; lid < (warp + 1) * r->lanes && lid < r->ninstr; lid++)
				if (r->instructions[g * r->ninstr + lid] > most)
					most = r->instructions[g * r->ninstr + lid];
			w->warp_instructions += (double)most * share[g];
		}
	}
	for (int b = 0; b < r->nbuffers && b < WL_BUFFERS_MAX; b++)
		w->buffers[b].bytes = (double)r->buffer_bytes[b];
	if (r->nbuffers > w->nbuffers)
		w->nbuffers = r->nbuffers;
	out->total.groups = w->groups;
	out->total.items = w->items;
	out->total.barriers = w->barriers;
}

/* Read every line of text into r and out; -1 with err. */
static int parse(const char *text, size_t len, struct reader *r, struct wl_trace_figures *out, struct wl_error *err)
{
	const char *p = text, *end = text + len;
	int line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char buf[160];
		size_t n = (size_t)((nl ? nl : end) - p);
		int got;

		/* A trace stopped by its budget may end in a line half written. */
		if (!nl)
			break;
		line++;
		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), p);
		p = nl ? nl + 1 : end;
		if (!buf[0])
			continue;
		got = parse_line(buf, r, out);
		if (got == -2) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
		if (got == -3) {
			wl_error_set(err, WL_ERR_INTERNAL,
				     "the kernel has more than %d memory instructions; the trace counts at most that many",
				     WL_TRACE_SITES_MAX);
			return -1;
		}
		if (got < 0) {
			wl_error_set(err, WL_ERR_INTERNAL, "trace line %d is malformed: '%.60s'", line, buf);
			return -1;
		}
	}
	return 0;
}

int wl_trace_count(const char *text, size_t len, int lanes, struct wl_trace_figures *out,
		   struct wl_error *err)
{
	struct reader r = { .lanes = lanes };
	struct wl_request_site kinds[WL_TRACE_SITES_MAX];
	struct wl_site_figures figures[WL_TRACE_SITES_MAX];
	struct wl_requests *q = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->lanes = lanes;
	out->total.lanes = lanes;
	out->dims = 1;
	for (int d = 0; d < 3; d++)
		out->groups[d] = out->local[d] = 1;
	if (lanes < 1 || lanes > WL_MODEL_LANES_MAX) {
		wl_error_set(err, WL_ERR_INTERNAL, "a warp of %d lanes: 1 to %d are counted", lanes,
			     WL_MODEL_LANES_MAX);
		return -1;
	}
	if (parse(text, len, &r, out, err) < 0)
		goto out;
	/* A trace cut before any group completed holds no records. */
	if (r.n)
		qsort_r(r.records, r.n, sizeof(*r.records), by_request, &r.lanes);
	if (r.counts)
		qsort(r.counts, r.ncounts, sizeof(*r.counts), by_count);
	/* Sites' buffers first (feed sets them), then their kinds. */
	for (size_t i = 0; i < r.n; i++) {
		struct wl_trace_site *s = &out->sites[r.records[i].site];

		if (!s->local && s->buffer < 0)
			s->buffer = buffer_of(&r, r.records[i].address);
	}
	for (int s = 0; s < out->nsites; s++)
		kinds[s] = (struct wl_request_site){ out->sites[s].op, out->sites[s].local, out->sites[s].buffer };
	q = wl_requests_new(lanes, out->nsites, kinds);
	/* Each group traced stands for the launch's groups it does in the whole
	 * sample (a trace cut short holds fewer of them). */
	for (int g = 0; q && g < r.ngroups; g++)
		wl_requests_group(q, g, r.seen[g] && r.spread[g] ? group_weight(out, r.linear[g]) : 0,
				  r.neighbour[g]);
	for (int g = 0; g < r.ngroups; g++)
		out->groups_traced += r.seen[g];
	if (!q || feed(&r, out, q) < 0 || wl_requests_count(q, figures, &out->total.work, err) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (int s = 0; s < out->nsites; s++)
		out->sites[s].figures = figures[s];
	totals(out);
	launch(&r, out);
	out->records = (long long)r.n;
	rc = 0;
out:
	wl_requests_free(q);
	free(r.records);
	free(r.counts);
	free(r.instructions);
	return rc;
}
