/* The simulation: for each access, run its loops once for the group (their
 * bounds cannot depend on the work-item), and at each of the first iterations
 * evaluate every active work-item's index, warp by warp, counting what the
 * request touches. Counting distinct sectors, lines and words makes coalescing,
 * misalignment, broadcast and bank conflicts all fall out of one rule. */
#include "warp_model.h"
#include "clock.h"
#include "requests.h"
#include "sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sim {
	const struct wl_access *a;
	int site;		/* the access's index: its site in the requests */
	long long base;		/* where its array lies: each its own range */
	int group;		/* 0: the launch's first work-group, 1: its last */
	struct wl_requests *q;
	long long *vars;
	int nparams, lanes;
	long long items, lsz0, warps;
	long long sample_visits, visits, trips, steps;
	double deadline;	/* CLOCK_MONOTONIC seconds, or 0 */
	struct wl_error *err;
};

static int eval(struct sim *s, const struct wl_expr *e, long long *out, const char *what)
{
	const char *why = NULL;

	if (wl_expr_eval(e, s->vars, out, &why) == 0)
		return 0;
	wl_error_set(s->err, WL_ERR_INVALID_PARAM, "access to %s: its %s cannot be evaluated here: %s",
		     s->a->array, what, why);
	return -1;
}

/* One iteration of the loop nest: every warp of the group makes its
 * request, added to the requests as the execution of this iteration. */
static int visit(struct sim *s)
{
	long long addr[WL_MODEL_LANES_MAX];
	int lane[WL_MODEL_LANES_MAX];
	const struct wl_access *a = s->a;
	long long *v = s->vars + s->nparams;

	for (long long w = 0; w < s->warps; w++) {
		int n = 0;

		for (int l = 0; l < s->lanes; l++) {
			long long lin = w * s->lanes + l, idx, on = 1;

			if (lin >= s->items)
				break;
			v[WL_VAR_LID0] = lin % s->lsz0;
			v[WL_VAR_LID1] = lin / s->lsz0;
			v[WL_VAR_GID0] = v[WL_VAR_GRP0] * v[WL_VAR_LSZ0] + v[WL_VAR_LID0];
			v[WL_VAR_GID1] = v[WL_VAR_GRP1] * v[WL_VAR_LSZ1] + v[WL_VAR_LID1];
			if (a->has_when && eval(s, &a->when, &on, "condition") < 0)
				return -1;
			if (!on)
				continue;
			if (eval(s, &a->index, &idx, "index") < 0)
				return -1;
			if (idx < 0 || idx > (1LL << 48)) {
				wl_error_set(s->err, WL_ERR_INVALID_PARAM,
					     "access to %s: index %lld at lid0 %lld, lid1 %lld is outside 0..2^48",
					     a->array, idx, v[WL_VAR_LID0], v[WL_VAR_LID1]);
				return -1;
			}
			lane[n] = l;
			addr[n++] = s->base + idx * a->bytes;
		}
		if (n == 0)
			continue;	/* no work-item of this warp makes the access */
		if (wl_requests_add(s->q, s->group, s->visits - 1, s->site, w, lane, addr, n, a->bytes, 1) < 0) {
			wl_error_set(s->err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* Run loops[k..] of the access; the innermost body visits while the sample lasts. */
static int run_loops(struct sim *s, int k)
{
	const struct wl_access *a = s->a;
	long long *var, go;

	if (k == a->nloops) {
		s->trips++;
		if (s->visits >= s->sample_visits)
			return 0;
		s->visits++;
		return visit(s);
	}
	var = &s->vars[s->nparams + WL_VAR_BUILTINS + k];
	if (eval(s, &a->loops[k].from, var, "loop start") < 0)
		return -1;
	for (;;) {
		if (eval(s, &a->loops[k].cond, &go, "loop condition") < 0)
			return -1;
		if (!go)
			return 0;
		if (++s->steps > WL_MODEL_TRIPS_MAX) {
			wl_error_set(s->err, WL_ERR_INVALID_PARAM,
				     "access to %s: its loops run more than %lld times here",
				     a->array, WL_MODEL_TRIPS_MAX);
			return -1;
		}
		if (s->deadline > 0 && (s->steps & 4095) == 0 && wl_monotonic_s() > s->deadline)
			goto spent;
		if (run_loops(s, k + 1) < 0 || eval(s, &a->loops[k].next, var, "loop step") < 0)
			return -1;
	}
spent:
	wl_error_set(s->err, WL_ERR_INVALID_PARAM,
		     "the model's time for this prediction ran out (its loops take too long to simulate)");
	return -1;
}

/* Evaluate the group's shape and the grid into the builtins. */
static int shape(const struct wl_model *m, long long *v, const long long *params, double *groups,
		 struct wl_error *err)
{
	const char *why = NULL;

	v[WL_VAR_LSZ1] = v[WL_VAR_GSZ1] = v[WL_VAR_NGRP1] = 1;
	v[WL_VAR_GSZ0] = v[WL_VAR_NGRP0] = 1;
	*groups = 0;
	for (int d = 0; d < m->dims; d++) {
		if (wl_expr_eval(&m->local[d], params, &v[WL_VAR_LSZ0 + d], &why) < 0 ||
		    (m->has_grid && wl_expr_eval(&m->grid[d], params, &v[WL_VAR_GSZ0 + d], &why) < 0)) {
			wl_error_set(err, WL_ERR_INVALID_PARAM, "the model's launch shape: %s", why);
			return -1;
		}
		if (v[WL_VAR_LSZ0 + d] < 1 || (m->has_grid && v[WL_VAR_GSZ0 + d] < 1)) {
			wl_error_set(err, WL_ERR_INVALID_PARAM,
				     "the model's launch shape is empty in dimension %d", d);
			return -1;
		}
		v[WL_VAR_NGRP0 + d] = (v[WL_VAR_GSZ0 + d] + v[WL_VAR_LSZ0 + d] - 1) / v[WL_VAR_LSZ0 + d];
	}
	if (v[WL_VAR_LSZ0] * v[WL_VAR_LSZ1] > WL_MODEL_GROUP_MAX) {
		wl_error_set(err, WL_ERR_INVALID_PARAM,
			     "a work-group of %lld work-items: the model simulates at most %d",
			     v[WL_VAR_LSZ0] * v[WL_VAR_LSZ1], WL_MODEL_GROUP_MAX);
		return -1;
	}
	if (m->has_grid)
		*groups = (double)v[WL_VAR_NGRP0] * (double)v[WL_VAR_NGRP1];
	v[WL_VAR_GRP0] = v[WL_VAR_GRP1] = 0;
	return 0;
}

void wl_prediction_add(struct wl_prediction *p, const struct wl_access_figures *f, int local)
{
	if (local) {
		p->has_local = 1;
		if (f->conflict_degree > p->conflict_degree)
			p->conflict_degree = f->conflict_degree;
		return;
	}
	p->has_global = 1;
	p->useful_bytes += f->useful_bytes;
	p->moved_bytes += f->moved_bytes;
	p->burst_bytes += f->burst_bytes;
	if (f->sectors_per_request > p->sectors_per_request)
		p->sectors_per_request = f->sectors_per_request;
	p->efficiency = p->moved_bytes > 0 ? p->useful_bytes / p->moved_bytes : 0;
}

/* Each declared global array's buffer index: the order of first mention. */
static void request_sites(const struct wl_model *m, struct wl_request_site *sites)
{
	for (int i = 0; i < m->naccesses; i++) {
		const struct wl_access *a = &m->accesses[i];

		sites[i] = (struct wl_request_site){ a->store ? WL_OP_STORE : WL_OP_LOAD, a->space == WL_SPACE_LOCAL, -1 };
		if (a->space == WL_SPACE_LOCAL)
			continue;
		for (int j = 0; j <= i && sites[i].buffer < 0; j++)
			if (strcmp(m->accesses[j].array, a->array) == 0)
				sites[i].buffer = j < i ? sites[j].buffer : -2;
		if (sites[i].buffer == -2) {
			int most = -1;

			for (int j = 0; j < i; j++)
				if (sites[j].buffer > most)
					most = sites[j].buffer;
			sites[i].buffer = most + 1 < WL_BUFFERS_MAX ? most + 1 : -1;
		}
	}
}

/* The index of access i's array among the declaration's names, in order of
 * first mention (local memory's apart from global's: their own names). */
static int array_of(const struct wl_model *m, int i)
{
	int n = 0;

	for (int j = 0; j <= i; j++) {
		int k;

		for (k = 0; k < j && strcmp(m->accesses[k].array, m->accesses[j].array) != 0; k++)
			;
		if (k < j)
			continue;	/* not its first mention */
		if (strcmp(m->accesses[j].array, m->accesses[i].array) == 0)
			return n;
		n++;
	}
	return n;
}

/* A declaration's figures per access from its sites' counts. */
static void access_figures(const struct wl_site_figures *f, int local, int sampled, struct wl_access_figures *out)
{
	memset(out, 0, sizeof(*out));
	out->requests = f->requests;
	out->sampled = sampled;
	if (local) {
		out->conflict_degree = f->bank_degree;
		return;
	}
	out->sectors_per_request = f->sectors_per_request;
	out->lines_per_request = f->lines_per_request;
	out->bursts_per_request = f->bursts_per_request;
	out->bank_degree = f->bank_degree;
	out->useful_bytes = f->useful_per_request * f->requests;
	out->moved_bytes = f->sectors_per_request * f->requests * WL_MODEL_SECTOR;
	out->burst_bytes = f->bursts_per_request * f->requests * WL_MODEL_BURST;
	out->efficiency = out->moved_bytes > 0 ? out->useful_bytes / out->moved_bytes : 0;
}

/* Simulate access i for group g (its ids set in vars), scaling its
 * requests by the loop's trips over those simulated. */
static int simulate(const struct wl_model *m, int i, int g, struct wl_requests *q, long long *vars, int nparams,
		    int lanes, double deadline, int *sampled, struct wl_error *err)
{
	struct sim s = { .a = &m->accesses[i], .site = i, .group = g, .q = q, .vars = vars, .nparams = nparams,
			 .lanes = lanes, .deadline = deadline, .err = err };

	/* Arrays apart, as buffers are: 2^53 bytes each, past any index. */
	s.base = ((long long)array_of(m, i) + 1) << 53;

	s.lsz0 = vars[nparams + WL_VAR_LSZ0];
	s.items = s.lsz0 * vars[nparams + WL_VAR_LSZ1];
	s.warps = (s.items + s.lanes - 1) / s.lanes;
	s.sample_visits = WL_MODEL_SAMPLE / s.warps > 0 ? WL_MODEL_SAMPLE / s.warps : 1;
	if (run_loops(&s, 0) < 0)
		return -1;
	if (s.visits > 0 && s.trips > s.visits) {
		wl_requests_scale(q, i, g, (double)s.trips / (double)s.visits);
		*sampled = 1;
	}
	return 0;
}

int wl_model_predict(const struct wl_model *m, const long long *params, int nparams, int lanes,
		     double deadline, struct wl_prediction *out, struct wl_error *err)
{
	long long *vars = calloc((size_t)nparams + WL_VAR_BUILTINS + WL_ACCESS_LOOPS, sizeof(*vars));
	struct wl_request_site sites[WL_ACCESS_MAX];
	struct wl_site_figures figures[WL_ACCESS_MAX];
	int sampled[WL_ACCESS_MAX] = { 0 }, rc = -1;
	struct wl_sample sample;
	long long grid[3] = { 1, 1, 1 };
	struct wl_requests *q = NULL;
	long long *b = vars ? vars + nparams : NULL;

	memset(out, 0, sizeof(*out));
	if (!vars) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	memcpy(vars, params, sizeof(*vars) * (size_t)nparams);
	if (shape(m, b, params, &out->groups, err) < 0)
		goto out;
	out->items = (double)b[WL_VAR_LSZ0] * (double)b[WL_VAR_LSZ1];
	if (m->has_barriers) {
		/* Trips only: a sample of none visits nothing. */
		struct sim bs = { .a = &m->barriers, .vars = vars, .nparams = nparams, .lanes = 1,
				  .deadline = deadline, .err = err };

		if (run_loops(&bs, 0) < 0)
			goto out;
		out->barriers = (double)bs.trips;
	}
	out->lanes = lanes < 1 ? 1 : lanes > WL_MODEL_LANES_MAX ? WL_MODEL_LANES_MAX : lanes;
	out->naccesses = m->naccesses;
	request_sites(m, sites);
	q = wl_requests_new(out->lanes, m->naccesses, sites);
	if (!q) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	/* The launch's sample of work-groups (sample.h), as a trace samples
	 * them; without a declared grid (shape() leaves one group), the first
	 * alone. */
	grid[0] = b[WL_VAR_NGRP0];
	grid[1] = b[WL_VAR_NGRP1];
	wl_sample_groups(grid, &sample);
	for (int g = 0; g < sample.count; g++) {
		b[WL_VAR_GRP0] = sample.linear[g] % b[WL_VAR_NGRP0];
		b[WL_VAR_GRP1] = sample.linear[g] / b[WL_VAR_NGRP0];
		wl_requests_group(q, g, sample.weight[g], sample.neighbour[g]);
		for (int i = 0; i < m->naccesses; i++)
			if (simulate(m, i, g, q, vars, nparams, out->lanes, deadline, &sampled[i], err) < 0)
				goto out;
	}
	if (wl_requests_count(q, figures, &out->work, err) < 0)
		goto out;
	for (int i = 0; i < m->naccesses; i++) {
		int local = m->accesses[i].space == WL_SPACE_LOCAL;

		access_figures(&figures[i], local, sampled[i], &out->access[i]);
		out->sampled |= sampled[i];
		wl_prediction_add(out, &out->access[i], local);
	}
	out->work.groups = out->groups;
	out->work.items = out->items;
	out->work.barriers = out->barriers;
	rc = 0;
out:
	wl_requests_free(q);
	free(vars);
	return rc;
}
