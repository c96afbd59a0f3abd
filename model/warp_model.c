/* The simulation: for each access, run its loops once for the group (their
 * bounds cannot depend on the work-item), and at each of the first iterations
 * evaluate every active work-item's index, warp by warp, counting what the
 * request touches. Counting distinct sectors, lines and words makes coalescing,
 * misalignment, broadcast and bank conflicts all fall out of one rule. */
#include "warp_model.h"
#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sim {
	const struct wl_access *a;
	long long *vars;
	int nparams, lanes;
	long long items, lsz0, warps;
	long long sample_visits, visits, trips, steps;
	double deadline;	/* CLOCK_MONOTONIC seconds, or 0 */
	double requests, sectors, lines, bursts, useful, degree, banks;
	long long *seen;	/* a global load's sectors over the sample, seen_n of them */
	int seen_n;
	struct wl_error *err;
};

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

/* Sort v[0..n), keep each value once at its front, and return how many. */
static int distinct(long long *v, int n)
{
	int count = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_ll);
	for (int i = 0; i < n; i++)
		if (i == 0 || v[i] != v[count - 1])
			v[count++] = v[i];
	return count;
}

int wl_model_units(const long long *addr, int n, int bytes, int unit, long long *scratch)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		for (long long u = addr[i] / unit; u <= (addr[i] + bytes - 1) / unit; u++)
			scratch[k++] = u;
	return distinct(scratch, k);
}

double wl_model_conflict_degree(const long long *addr, int n, int bytes, long long *scratch)
{
	int count[WL_MODEL_BANKS] = { 0 }, words = wl_model_units(addr, n, bytes, WL_MODEL_BANK_BYTES, scratch);
	int worst = 0, ideal = (words + WL_MODEL_BANKS - 1) / WL_MODEL_BANKS;

	for (int i = 0; i < words; i++) {
		int bank = (int)(scratch[i] % WL_MODEL_BANKS);

		if (++count[bank] > worst)
			worst = count[bank];
	}
	return ideal ? (double)worst / ideal : 0;
}

double wl_model_useful_bytes(const long long *addr, int n, int bytes, long long *scratch)
{
	memcpy(scratch, addr, sizeof(*addr) * (size_t)n);
	return (double)distinct(scratch, n) * bytes;
}

static int eval(struct sim *s, const struct wl_expr *e, long long *out, const char *what)
{
	const char *why = NULL;

	if (wl_expr_eval(e, s->vars, out, &why) == 0)
		return 0;
	wl_error_set(s->err, WL_ERR_INVALID_PARAM, "access to %s: its %s cannot be evaluated here: %s",
		     s->a->array, what, why);
	return -1;
}

/* One iteration of the loop nest: every warp of the group makes its request. */
static int visit(struct sim *s)
{
	long long addr[WL_MODEL_LANES_MAX], scratch[WL_MODEL_LANES_MAX * 4];
	const struct wl_access *a = s->a;
	int k;
	long long *v = s->vars + s->nparams;

	for (long long w = 0; w < s->warps; w++) {
		int n = 0;

		for (int lane = 0; lane < s->lanes; lane++) {
			long long lin = w * s->lanes + lane, idx, on = 1;

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
			if (idx < 0 || idx > (1LL << 56)) {
				wl_error_set(s->err, WL_ERR_INVALID_PARAM,
					     "access to %s: index %lld at lid0 %lld, lid1 %lld is outside 0..2^56",
					     a->array, idx, v[WL_VAR_LID0], v[WL_VAR_LID1]);
				return -1;
			}
			addr[n++] = idx * a->bytes;
		}
		if (n == 0)
			continue;	/* no work-item of this warp makes the access */
		s->requests++;
		if (a->space == WL_SPACE_LOCAL) {
			s->degree += wl_model_conflict_degree(addr, n, a->bytes, scratch);
			continue;
		}
		k = wl_model_units(addr, n, a->bytes, WL_MODEL_SECTOR, scratch);
		s->sectors += k;
		if (s->seen) {
			memcpy(s->seen + s->seen_n, scratch, sizeof(*scratch) * (size_t)k);
			s->seen_n += k;
		}
		s->lines += wl_model_units(addr, n, a->bytes, WL_MODEL_LINE, scratch);
		s->bursts += wl_model_units(addr, n, a->bytes, WL_MODEL_BURST, scratch);
		s->useful += wl_model_useful_bytes(addr, n, a->bytes, scratch);
		s->banks += wl_model_conflict_degree(addr, n, a->bytes, scratch);
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

static void figures(struct sim *s, struct wl_access_figures *f)
{
	double scale = s->visits ? (double)s->trips / (double)s->visits : 0;
	int distinct_sectors = s->seen ? distinct(s->seen, s->seen_n) : 0;

	memset(f, 0, sizeof(*f));
	f->requests = s->requests * scale;
	f->sampled = s->trips > s->visits;
	if (s->requests == 0)
		return;
	f->sectors_per_request = s->sectors / s->requests;
	f->lines_per_request = s->lines / s->requests;
	f->bursts_per_request = s->bursts / s->requests;
	f->conflict_degree = s->degree / s->requests;
	f->bank_degree = s->banks / s->requests;
	f->useful_bytes = s->useful * scale;
	f->moved_bytes = s->sectors * WL_MODEL_SECTOR * scale;
	f->burst_bytes = s->bursts * WL_MODEL_BURST * scale;
	f->distinct_bytes = s->seen ? distinct_sectors * WL_MODEL_SECTOR * scale : f->moved_bytes;
	f->efficiency = s->sectors ? s->useful / (s->sectors * WL_MODEL_SECTOR) : 0;
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
	p->distinct_bytes += f->distinct_bytes;
	if (f->sectors_per_request > p->sectors_per_request)
		p->sectors_per_request = f->sectors_per_request;
	p->efficiency = p->moved_bytes > 0 ? p->useful_bytes / p->moved_bytes : 0;
}

int wl_model_predict(const struct wl_model *m, const long long *params, int nparams, int lanes,
		     double deadline, struct wl_prediction *out, struct wl_error *err)
{
	long long *vars = calloc((size_t)nparams + WL_VAR_BUILTINS + WL_ACCESS_LOOPS, sizeof(*vars));
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!vars) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	memcpy(vars, params, sizeof(*vars) * (size_t)nparams);
	if (shape(m, vars + nparams, params, &out->groups, err) < 0)
		goto out;
	out->items = (double)vars[nparams + WL_VAR_LSZ0] * (double)vars[nparams + WL_VAR_LSZ1];
	if (m->has_barriers) {
		/* Trips only: a sample of none visits nothing. */
		struct sim b = { .a = &m->barriers, .vars = vars, .nparams = nparams, .lanes = 1,
				 .deadline = deadline, .err = err };

		if (run_loops(&b, 0) < 0)
			goto out;
		out->barriers = (double)b.trips;
	}
	out->lanes = lanes < 1 ? 1 : lanes > WL_MODEL_LANES_MAX ? WL_MODEL_LANES_MAX : lanes;
	out->naccesses = m->naccesses;
	for (int i = 0; i < m->naccesses; i++) {
		struct sim s = { .a = &m->accesses[i], .vars = vars, .nparams = nparams,
				 .lanes = out->lanes, .deadline = deadline, .err = err };
		struct wl_access_figures *f = &out->access[i];

		s.lsz0 = vars[nparams + WL_VAR_LSZ0];
		s.items = s.lsz0 * vars[nparams + WL_VAR_LSZ1];
		s.warps = (s.items + s.lanes - 1) / s.lanes;
		s.sample_visits = WL_MODEL_SAMPLE / s.warps > 0 ? WL_MODEL_SAMPLE / s.warps : 1;
		/* A load in a loop finds in the first level what the group
		 * touched on the iterations before (without one, the warps'
		 * requests are in flight together: they all miss). Each request
		 * of the sample touches at most a warp's lanes times (16 bytes /
		 * a sector + 2) sectors. */
		if (s.a->space == WL_SPACE_GLOBAL && !s.a->store && s.a->nloops > 0 &&
		    !(s.seen = malloc(sizeof(*s.seen) * (size_t)(s.sample_visits * s.warps) * WL_MODEL_LANES_MAX * 3))) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto out;
		}
		rc = run_loops(&s, 0);
		if (rc == 0)
			figures(&s, f);
		free(s.seen);
		if (rc < 0)
			goto out;
		rc = -1;
		out->sampled |= f->sampled;
		wl_prediction_add(out, f, m->accesses[i].space == WL_SPACE_LOCAL);
	}
	rc = 0;
out:
	free(vars);
	return rc;
}
