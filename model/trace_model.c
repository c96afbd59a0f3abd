/* Counting a recorded trace by the warp model's rules (see trace_model.h):
 * the records sorted by site, warp and execution, each run of equal keys one
 * warp request. */
#include "trace_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct record {
	int site, bytes;
	long long lid, k, address;
};

struct reader {
	struct record *records;
	size_t n, cap;
	int lanes;
};

static int by_request(const void *x, const void *y, void *lanes_p)
{
	const struct record *a = x, *b = y;
	long long lanes = *(const int *)lanes_p;
	long long ka[4] = { a->site, a->lid / lanes, a->k, a->lid };
	long long kb[4] = { b->site, b->lid / lanes, b->k, b->lid };

	for (int i = 0; i < 4; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

static int add_record(struct reader *r, const struct record *rec)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		struct record *grown = realloc(r->records, cap * sizeof(*grown));

		if (!grown)
			return -1;
		r->records = grown;
		r->cap = cap;
	}
	r->records[r->n++] = *rec;
	return 0;
}

/* One line of the trace into out or r; -1 when it is malformed. */
static int parse_line(const char *line, struct reader *r, struct wl_trace_figures *out)
{
	char op[8], space[8];
	struct record rec;
	long long kept, dropped;
	int site, number;

	if (sscanf(line, "S %d %d %7s %7s", &site, &number, op, space) == 4) {
		if (site == WL_TRACE_SITES_MAX)
			return -3;
		if (site != out->nsites)
			return -1;
		out->sites[site].line = number;
		out->sites[site].store = strcmp(op, "store") == 0;
		out->sites[site].local = strcmp(space, "local") == 0;
		out->nsites++;
		return 0;
	}
	if (sscanf(line, "A %d %lld %lld %lld %d", &rec.site, &rec.lid, &rec.k, &rec.address,
		   &rec.bytes) == 5) {
		if (rec.site < 0 || rec.site >= out->nsites || rec.lid < 0 || rec.k < 0 ||
		    rec.bytes < 1 || rec.bytes > 128)
			return -1;
		return add_record(r, &rec) < 0 ? -2 : 0;
	}
	if (sscanf(line, "T %lld %lld", &kept, &dropped) == 2) {
		out->dropped = dropped;
		return 0;
	}
	return -1;
}

/* Count the request records[0..n) (one site, one warp, one execution). */
static void count_request(const struct record *records, size_t n, struct wl_trace_site *site,
			  long long *addr, long long *scratch, double *sectors, double *lines,
			  double *useful, double *degree)
{
	int bytes = records[0].bytes;

	for (size_t i = 0; i < n; i++)
		addr[i] = records[i].address;
	site->figures.requests++;
	/* Local memory's banks, or for global a first-level cache's. */
	*degree += wl_model_conflict_degree(addr, (int)n, bytes, scratch);
	if (site->local)
		return;
	*sectors += wl_model_units(addr, (int)n, bytes, WL_MODEL_SECTOR, scratch);
	*lines += wl_model_units(addr, (int)n, bytes, WL_MODEL_LINE, scratch);
	*useful += wl_model_useful_bytes(addr, (int)n, bytes, scratch);
}

/* The figures of every site, and the variant's, from the sorted records. */
static void count(const struct reader *r, struct wl_trace_figures *out, long long *addr,
		  long long *scratch)
{
	double sectors[WL_TRACE_SITES_MAX] = { 0 }, lines[WL_TRACE_SITES_MAX] = { 0 };
	double useful[WL_TRACE_SITES_MAX] = { 0 }, degree[WL_TRACE_SITES_MAX] = { 0 };

	for (size_t i = 0, j; i < r->n; i = j) {
		const struct record *a = &r->records[i];
		int s = a->site;

		for (j = i + 1; j < r->n && r->records[j].site == s && r->records[j].k == a->k &&
				r->records[j].lid / r->lanes == a->lid / r->lanes; j++)
			;
		count_request(a, j - i, &out->sites[s], addr, scratch, &sectors[s], &lines[s],
			      &useful[s], &degree[s]);
	}
	for (int s = 0; s < out->nsites; s++) {
		struct wl_trace_site *site = &out->sites[s];
		struct wl_access_figures *f = &site->figures;

		if (f->requests == 0)
			continue;
		if (site->local) {
			f->conflict_degree = degree[s] / f->requests;
		} else {
			f->sectors_per_request = sectors[s] / f->requests;
			f->lines_per_request = lines[s] / f->requests;
			f->useful_bytes = useful[s];
			f->moved_bytes = sectors[s] * WL_MODEL_SECTOR;
			f->bank_degree = degree[s] / f->requests;
			/* No first-level reuse is claimed from a trace yet. */
			f->distinct_bytes = f->moved_bytes;
			f->efficiency = f->moved_bytes > 0 ? f->useful_bytes / f->moved_bytes : 0;
		}
		wl_prediction_add(&out->total, f, site->local);
	}
}

int wl_trace_count(const char *text, size_t len, int lanes, struct wl_trace_figures *out,
		   struct wl_error *err)
{
	struct reader r = { .lanes = lanes };
	long long *addr = NULL, *scratch = NULL;
	const char *p = text, *end = text + len;
	int line = 0, rc = -1;

	memset(out, 0, sizeof(*out));
	out->lanes = lanes;
	out->total.lanes = lanes;
	if (lanes < 1 || lanes > WL_MODEL_LANES_MAX) {
		wl_error_set(err, WL_ERR_INTERNAL, "a warp of %d lanes: 1 to %d are counted", lanes,
			     WL_MODEL_LANES_MAX);
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char buf[160];
		size_t n = (size_t)((nl ? nl : end) - p);
		int got;

		line++;
		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), p);
		p = nl ? nl + 1 : end;
		if (!buf[0])
			continue;
		got = parse_line(buf, &r, out);
		if (got == -2) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
		if (got == -3) {
			wl_error_set(err, WL_ERR_INTERNAL,
				     "the kernel has more than %d memory instructions; the trace counts at most that many",
				     WL_TRACE_SITES_MAX);
			goto out;
		}
		if (got < 0) {
			wl_error_set(err, WL_ERR_INTERNAL, "trace line %d is malformed: '%.60s'", line, buf);
			goto out;
		}
	}
	qsort_r(r.records, r.n, sizeof(*r.records), by_request, &r.lanes);
	/* A request holds at most lanes records; each may cover bytes / unit + 2
	 * units. */
	addr = calloc(WL_MODEL_LANES_MAX, sizeof(*addr));
	scratch = calloc(WL_MODEL_LANES_MAX * (128 / 4 + 2), sizeof(*scratch));
	if (!addr || !scratch) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	count(&r, out, addr, scratch);
	out->records = (long long)r.n;
	rc = 0;
out:
	free(addr);
	free(scratch);
	free(r.records);
	return rc;
}
