/* A point's prediction from one work-group's counts (see predict.h). */
#include "predict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ceiling_view.h"

static json_t *real_or_null(int known, double v)
{
	return known ? json_real(v) : json_null();
}

static json_t *accesses_json(const struct wl_model *m, const struct wl_prediction *p)
{
	json_t *list = json_array();

	for (int i = 0; list && i < p->naccesses; i++) {
		const struct wl_access *a = &m->accesses[i];
		const struct wl_access_figures *f = &p->access[i];
		int global = a->space == WL_SPACE_GLOBAL, made = f->requests > 0;
		json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:f, s:o, s:o, s:o, s:o, s:o}", "array", a->array,
				      "space", global ? "global" : "local", "op", a->store ? "store" : "load",
				      "bytes", a->bytes, "requests", f->requests,
				      "sectors_per_request", real_or_null(global && made, f->sectors_per_request),
				      "lines_per_request", real_or_null(global && made, f->lines_per_request),
				      "bursts_per_request", real_or_null(global && made, f->bursts_per_request),
				      "efficiency", real_or_null(global && made, f->efficiency),
				      "conflict_degree", real_or_null(!global && made, f->conflict_degree));

		if (!o || json_array_append_new(list, o) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* What one work-group of the launch asks of each memory: the counts of its
 * requests (requests.h) with the launch, the footprint and what the first
 * level serves on this device — what the ceilings are made of (ceilings.h)
 * — and beside them the sectors and local requests the API shows. */
struct work_count {
	struct wl_launch_work w;
	double sectors, local_requests;
};

static void count_work(const struct wl_prediction *p, double footprint, int hot, struct work_count *out)
{
	memset(out, 0, sizeof(*out));
	out->w = p->work;
	out->w.footprint_bytes = footprint;
	out->w.warm = hot;
	out->sectors = p->work.moved_bytes / WL_MODEL_SECTOR;
	out->local_requests = p->work.local_requests;
}

/* The counts of one work-group, with what reaches the last level and what
 * the first serves from traffic t (NULL: none counted). */
static json_t *work_json(const struct work_count *c, const struct wl_traffic *t)
{
	double reach = t && c->w.groups > 0 ? (t->l2_read_bytes + t->l2_write_bytes) / c->w.groups : 0;

	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "groups", c->w.groups,
			 "items", c->w.items, "global_requests", c->w.global_requests, "sectors", c->sectors,
			 "moved_bytes", c->w.moved_bytes, "burst_bytes", c->w.burst_bytes, "reach_bytes", reach,
			 "l1_hit_requests", t ? t->hit_requests : 0, "local_requests", c->local_requests,
			 "local_wavefronts", c->w.local_wavefronts, "barriers", c->w.barriers,
			 "warp_instructions", c->w.warp_instructions);
}

/* The sentence a departure gets: the factor, the direction, and the cause
 * the model sees or the catalog's where the kernel can have it. */
static json_t *departure(const struct wl_model *m, const struct wl_ceilings *c, const struct wl_device_model *d,
			 const struct wl_prediction *p, double ratio, const struct wl_cause_facts *facts)
{
	char text[1024], cause[700];
	const char *named;

	if (ratio <= WL_DEPARTURE_FACTOR && ratio >= 1 / WL_DEPARTURE_FACTOR)
		return json_null();
	named = wl_departure_cause(c, d, p, ratio, !m ? NULL : ratio > 1 ? m->faster : m->slower, facts, cause,
				   sizeof(cause));
	snprintf(text, sizeof(text), "Measured %.1f× %s than predicted; %s%s.",
		 ratio > 1 ? ratio : 1 / ratio, ratio > 1 ? "faster" : "slower",
		 named ? "likely cause: " : "the model names no cause", named ? named : "");
	return json_string(text);
}

/* Its work (bytes or operations) is the one the runner counted for it, so a
 * custom kernel's is its like variant's. */
json_t *wl_predict_point(const struct wl_point_in *in)
{
	const struct wl_model *m = in->declared;
	const struct wl_prediction *p = in->p, *base = in->base;
	double median = in->median_ms, measured_slowdown = in->measured_slowdown;
	double ms = 0, rate = 0, slowdown = 0, ratio = 0, work = in->work;
	int bandwidth = in->exp->metric == WL_METRIC_BANDWIDTH, timed = 0, by_slowdown = 0;
	struct wl_ceilings c;
	struct work_count count;
	int ceiled;
	json_t *o;

	count_work(p, in->footprint, in->hot, &count);
	count.w.groups_chosen = in->groups_chosen;
	ceiled = in->device && wl_ceilings_compute(in->device, &count.w, &c) == 0;
	if (ceiled) {
		timed = 1;
		ms = c.total_ms;
		rate = work > 0 ? work / (ms * 1e6) : 0;
	} else if (p->has_global && p->efficiency > 0 && in->copy_gbps > 0) {
		double moved = bandwidth ? work / p->efficiency : p->groups * p->moved_bytes;

		timed = moved > 0;
		ms = moved / (in->copy_gbps * 1e6);
		rate = timed ? work / (ms * 1e6) : 0;
	}
	if (base && p->has_local && base->conflict_degree > 0) {
		by_slowdown = measured_slowdown > 0;
		/* With ceilings: the baseline's own time (the measured one, which
		 * holds what the model does not count) bounds the point's. */
		if (ceiled && by_slowdown && median > 0)
			slowdown = (ms > median / measured_slowdown ? ms : median / measured_slowdown) /
				   (median / measured_slowdown);
		else
			slowdown = p->conflict_degree / base->conflict_degree;
		if (by_slowdown)
			ratio = slowdown / measured_slowdown;
	}
	if (timed && !by_slowdown && median > 0)
		ratio = ms / median;
	o = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "lanes", p->lanes,
		      "efficiency", real_or_null(p->has_global, p->efficiency),
		      "sectors_per_request", real_or_null(p->has_global, p->sectors_per_request),
		      "conflict_degree", real_or_null(p->has_local, p->conflict_degree),
		      "pct", real_or_null(p->has_global && bandwidth, 100 * p->efficiency),
		      "ms", real_or_null(timed, ms),
		      bandwidth ? "gbps" : "gops", real_or_null(timed, rate),
		      "slowdown", real_or_null(slowdown > 0, slowdown),
		      "ratio", real_or_null(ratio > 0, ratio), "sampled", p->sampled,
		      "accesses", m ? accesses_json(m, p) : json_array());
	if (o) {
		json_object_set_new(o, "departure", ratio > 0 ? departure(in->causes, ceiled ? &c : NULL, in->device, p, ratio, in->facts)
							      : json_null());
		json_object_set_new(o, "work", work_json(&count, ceiled ? &c.traffic : NULL));
		json_object_set_new(o, "model", json_string(ceiled ? "ceilings" : "copy ceiling"));
		if (ceiled) {
			json_object_update_new(o, wl_ceilings_json(&c, work));
			/* The kernel's own bytes — the distinct bytes it touches — at
			 * the measured time, beside the rate of the work the runner
			 * counted (a custom kernel's: its like variant's). */
			if (bandwidth && median > 0)
				json_object_set_new(o, "own_gbps", json_real(c.traffic.own_bytes / (median * 1e6)));
			/* The predicted share of the copy ceiling, as the measured
			 * one is shown. */
			if (bandwidth && in->copy_gbps > 0)
				json_object_set_new(o, "ceiling_pct", json_real(100 * rate / in->copy_gbps));
		}
	}
	return o;
}

