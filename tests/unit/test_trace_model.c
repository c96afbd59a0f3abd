/* A recorded trace grouped into warp requests (model/trace_model.c), from
 * traces written here as the Oclgrind plugin writes them: one table of
 * access patterns, each counted for warps of 32 and of 64 lanes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trace_model.h"

/* The byte address work-item lid makes on its k-th execution. */
typedef long long (*pattern_fn)(long long lid, long long k);

static long long coalesced(long long lid, long long k) { return 4 * lid + 256 * k; }
static long long strided(long long lid, long long k) { (void)k; return 128 * lid; }
static long long one_bank(long long lid, long long k) { (void)k; return 128 * lid; }
static long long broadcast(long long lid, long long k) { (void)lid; return 64 * k; }
static long long float4_run(long long lid, long long k) { (void)k; return 16 * lid; }

/* A trace of one site run by items work-items, each execs times. */
static char *trace_text(int local, int bytes, pattern_fn f, int items, int execs)
{
	size_t cap = 64 + (size_t)items * (size_t)execs * 64, used;
	char *t = malloc(cap);

	if (!t)
		return NULL;
	used = (size_t)snprintf(t, cap, "S 0 7 load %s\n", local ? "local" : "global");
	for (int k = 0; k < execs; k++)
		for (int lid = 0; lid < items; lid++)
			used += (size_t)snprintf(t + used, cap - used, "A 0 0 %d %d %lld %d\n", lid, k,
						 f(lid, k), bytes);
	snprintf(t + used, cap - used, "T %d 0\n", items * execs);
	return t;
}

void test_trace_groups_warp_requests_for_32_and_64_lanes(void)
{
	static const struct {
		const char *what;
		int local, bytes, items, execs, lanes;
		pattern_fn f;
		double requests, sectors, lines, efficiency, degree;
	} rows[] = {
		{ "coalesced floats, 32 lanes", 0, 4, 64, 2, 32, coalesced, 4, 4, 1, 1, 0 },
		{ "coalesced floats, 64 lanes", 0, 4, 64, 2, 64, coalesced, 2, 8, 2, 1, 0 },
		{ "a line per work-item, 32 lanes", 0, 4, 64, 1, 32, strided, 2, 32, 32, 0.125, 0 },
		{ "a line per work-item, 64 lanes", 0, 4, 64, 1, 64, strided, 1, 64, 64, 0.125, 0 },
		{ "float4, 32 lanes", 0, 16, 32, 1, 32, float4_run, 1, 16, 4, 1, 0 },
		{ "one word for all, 32 lanes", 0, 4, 64, 3, 32, broadcast, 6, 1, 1, 0.125, 0 },
		{ "local, every word in bank 0, 32 lanes", 1, 4, 64, 1, 32, one_bank, 2, 0, 0, 0, 32 },
		{ "local, every word in bank 0, 64 lanes", 1, 4, 64, 1, 64, one_bank, 1, 0, 0, 0, 32 },
		{ "local, consecutive words, 64 lanes", 1, 4, 64, 2, 64, coalesced, 2, 0, 0, 0, 1 },
		{ "local, one word for all, 32 lanes", 1, 4, 32, 1, 32, broadcast, 1, 0, 0, 0, 1 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *text = trace_text(rows[i].local, rows[i].bytes, rows[i].f, rows[i].items,
					rows[i].execs);
		struct wl_trace_figures *tr = calloc(1, sizeof(*tr));
		struct wl_error err;
		const struct wl_site_figures *f;

		if (!text || !tr || wl_trace_count(text, strlen(text), rows[i].lanes, tr, &err) < 0) {
			CHECK(0, "%s: not counted: %s", rows[i].what, text && tr ? err.msg : "out of memory");
			free(text);
			free(tr);
			continue;
		}
		f = &tr->sites[0].figures;
		CHECK(tr->nsites == 1 && tr->sites[0].line == 7 && tr->sites[0].op == WL_OP_LOAD &&
			      tr->sites[0].local == rows[i].local, "%s: the site", rows[i].what);
		CHECK(f->requests == rows[i].requests, "%s: %g requests, expected %g", rows[i].what,
		      f->requests, rows[i].requests);
		if (rows[i].local) {
			CHECK(fabs(f->bank_degree - rows[i].degree) < 1e-9 && tr->total.conflict_degree == f->bank_degree,
			      "%s: degree %g, expected %g", rows[i].what, f->bank_degree, rows[i].degree);
		} else {
			CHECK(f->sectors_per_request == rows[i].sectors && f->lines_per_request == rows[i].lines,
			      "%s: %g sectors and %g lines per request, expected %g and %g", rows[i].what,
			      f->sectors_per_request, f->lines_per_request, rows[i].sectors, rows[i].lines);
			CHECK(fabs(tr->total.efficiency - rows[i].efficiency) < 1e-9, "%s: efficiency %g, expected %g",
			      rows[i].what, tr->total.efficiency, rows[i].efficiency);
		}
		free(text);
		free(tr);
	}
}

void test_trace_refuses_what_it_cannot_read(void)
{
	static const struct {
		const char *text, *expect;
		int lanes;
	} rows[] = {
		{ "S 0 1 load global\nA 0 0 0 0 banana 4\n", "trace line 2 is malformed", 32 },
		{ "A 0 0 0 0 0 4\n", "trace line 1 is malformed", 32 },
		{ "S 1 1 load global\n", "trace line 1 is malformed", 32 },
		{ "S 0 1 load global\nA 16 0 0 0 0 4\n", "trace line 2 is malformed", 32 },
		{ "L 1 0 1 1 32 1 1\n", "trace line 1 is malformed", 32 },
		{ "S 0 1 load global\nA 0 0 0 0 0 4\n", "a warp of 65 lanes", 65 },
	};
	struct wl_trace_figures *tr = calloc(1, sizeof(*tr));
	char *many = malloc(64 * (WL_TRACE_SITES_MAX + 1));
	struct wl_error err;

	for (size_t i = 0; tr && i < sizeof(rows) / sizeof(rows[0]); i++) {
		wl_error_clear(&err);
		CHECK(wl_trace_count(rows[i].text, strlen(rows[i].text), rows[i].lanes, tr, &err) < 0 &&
			      strstr(err.msg, rows[i].expect),
		      "row %zu: '%s', expected '%s'", i, err.msg, rows[i].expect);
	}
	/* One site too many is said as such, not as a malformed line. */
	if (tr && many) {
		size_t used = 0;

		for (int s = 0; s <= WL_TRACE_SITES_MAX; s++)
			used += (size_t)sprintf(many + used, "S %d 1 load global\n", s);
		CHECK(wl_trace_count(many, used, 32, tr, &err) < 0 && strstr(err.msg, "more than 256 memory instructions"),
		      "too many sites: '%s'", err.msg);
	}
	/* A trace its budget cut before any group completed: the launch and
	 * the sample, no records; counted as no group traced (the tracer then
	 * says why), not as an error or a crash. */
	if (tr) {
		static const char cut[] = "L 1 4 1 1 256 1 1\nP 4\nT 0 0\n";

		CHECK(wl_trace_count(cut, strlen(cut), 32, tr, &err) == 0 && tr->groups_traced == 0 &&
			      tr->groups_sampled == 4,
		      "a trace with no group: %d of %d traced", tr->groups_traced, tr->groups_sampled);
	}
	free(many);
	free(tr);
}

/* Counts of two groups (0 and 15, the launch's first and last) of one
 * warp each: every lane loads 4 bytes at at(g, lane) from buffer 0 and
 * stores 4 bytes at st(g, lane) into buffer 1. */
static int two_groups(long long (*at)(int, int), long long (*st)(int, int), struct wl_launch_work *w)
{
	const struct wl_request_site sites[2] = { { WL_OP_LOAD, 0, 0 }, { WL_OP_STORE, 0, 1 } };
	struct wl_requests *s = wl_requests_new(32, 2, sites);
	struct wl_site_figures figs[2];
	struct wl_error err = { 0 };
	int lanes[32], groups[2] = { 0, 15 }, rc = -1;
	long long a[32], b[32];

	memset(w, 0, sizeof(*w));
	for (int i = 0; i < 32; i++)
		lanes[i] = i;
	for (int g = 0; s && g < 2; g++) {
		wl_requests_group(s, groups[g], 1, 0);
		for (int i = 0; i < 32; i++) {
			a[i] = at(groups[g], i);
			b[i] = st(groups[g], i);
		}
		if (wl_requests_add(s, groups[g], 0, 0, 0, lanes, a, 32, 4, 1) < 0 ||
		    wl_requests_add(s, groups[g], 0, 1, 0, lanes, b, 32, 4, 1) < 0)
			goto out;
	}
	rc = s ? wl_requests_count(s, figs, w, &err) : -1;
out:
	wl_requests_free(s);
	return rc;
}

/* A hash of group and lane within a 4 KiB window at the group's own 64
 * KiB page; a hash of group and lane over 4 MiB; a
 * plain copy's. */
static long long in_page(int g, int lane)
{
	return (long long)g * 65536 + (long long)(((lane * 1103) ^ (g * 2654435761U >> 7)) % 1024) * 4;
}
static long long anywhere(int g, int lane)
{
	long long x = (long long)g * 32 + lane;

	return ((x * x * 2654435761LL) >> 7) % 1048576 * 4;
}
static long long plain(int g, int lane) { return (long long)g * 128 + lane * 4; }
void test_gathers_in_a_page_are_paged(void)
{
	struct wl_launch_work w;

	CHECK(two_groups(in_page, plain, &w) == 0 && w.buffers[0].irregular && w.buffers[0].paged && !w.buffers[1].irregular,
	      "a gather that stays in the group's page: irregular, but paged");
	CHECK(two_groups(anywhere, plain, &w) == 0 && w.buffers[0].irregular && !w.buffers[0].paged,
	      "a gather over the whole buffer: irregular, not paged");
	CHECK(two_groups(plain, plain, &w) == 0 && !w.buffers[0].irregular && !w.buffers[0].paged, "a copy: neither");
}

/* A linear hash of the work-item's index modulo 4 Mi words (spmv's
 * columns): the groups' deltas are one distance for 30 of the 32 lanes,
 * but each warp's lanes keep wrapping back across 16 MiB; a column of a
 * matrix 32 Ki floats wide, 128 KiB from lane to lane; a 2-D group's warp
 * over two rows 4 MiB apart. */
static long long linear_hash(int g, int lane)
{
	return (((long long)g * 32 + lane) * 0x2334E9LL % 4194304) * 4;
}
static long long column(int g, int lane) { return (long long)lane * 131072 + g * 4; }
static long long two_rows(int g, int lane) { return (long long)(lane / 16) * 4194304 + g * 64 + (lane % 16) * 4; }
void test_scrambled_lanes_are_irregular(void)
{
	struct wl_launch_work w;

	CHECK(two_groups(linear_hash, plain, &w) == 0 && w.buffers[0].irregular && !w.buffers[0].paged,
	      "a linear hash modulo the buffer: irregular, scattered");
	CHECK(two_groups(column, plain, &w) == 0 && !w.buffers[0].irregular, "a column, lane by lane: regular");
	CHECK(two_groups(two_rows, plain, &w) == 0 && !w.buffers[0].irregular, "two rows of a 2-D group: regular");
}

