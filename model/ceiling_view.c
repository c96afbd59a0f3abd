/* Ceilings for the API, and departure causes (see ceiling_view.h). */
#include "ceiling_view.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *wl_ceiling_words(const char *name)
{
	static const char *const words[WL_CEILINGS] = {
		"DRAM bandwidth", "the last-level cache's bandwidth", "the first-level cache",
		"local memory's passes", "latency (too few requests in flight)", "barriers", "instruction issue",
		"starting work-groups",
	};

	for (int i = 0; name && i < WL_CEILINGS; i++)
		if (strcmp(name, wl_ceiling_name((enum wl_ceiling)i)) == 0)
			return words[i];
	return name;
}

json_t *wl_ceilings_json(const struct wl_ceilings *c, double work)
{
	json_t *ms = json_object(), *rates = json_object();

	for (int i = 0; ms && rates && i < WL_CEILINGS; i++) {
		char key[32];
		const char *name = wl_ceiling_name((enum wl_ceiling)i);

		snprintf(key, sizeof(key), "%s_ms", name);
		json_object_set_new(ms, key, c->ms[i] > 0 ? json_real(c->ms[i]) : json_null());
		json_object_set_new(rates, name, c->ms[i] > 0 && work > 0 ?
				    json_real(work / ((c->ms[i] + c->launch_ms) * 1e6)) : json_null());
	}
	const struct wl_traffic *t = &c->traffic;

	return json_pack("{s:o, s:o, s:f, s:o, s:s, s:o, s:f, s:f, s:b, s:f, s:f, s:f, s:{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b}}",
			 "ceilings", ms ? ms : json_null(), "ceiling_rates", rates ? rates : json_null(),
			 "launch_ms", c->launch_ms, "drain_ms", c->drain_ms > 0 ? json_real(c->drain_ms) : json_null(),
			 "binding", wl_ceiling_name(c->binding), "binding_margin",
			 c->margin > 0 ? json_real(c->margin) : json_null(), "dram_bytes", c->dram_bytes, "cache_bytes", c->cache_bytes, "reuse", c->reuse,
			 "warps", c->warps, "waves", c->waves, "l1_hit_share", c->hit_share,
			 "traffic", "dram_read_bytes", t->dram_read_bytes, "dram_write_bytes", t->dram_write_bytes,
			 "l2_read_bytes", t->l2_read_bytes, "l2_write_bytes", t->l2_write_bytes, "l2_hit_pct", t->l2_hit_pct,
			 "own_bytes", t->own_bytes, "dram_random_sectors", t->dram_random_sectors, "fits", t->fits);
}

/* Whether the catalog's cause names something p's accesses exclude: local
 * memory or bank conflicts without a local access. */
static int excluded(const char *cause, const struct wl_prediction *p)
{
	return !p->has_local && (strcasestr(cause, "bank") || strcasestr(cause, "local-memory") ||
				 strcasestr(cause, "local memory"));
}

/* Where the kernel reads again what it read: the levels that serve it. */
static void reuse_cause(const struct wl_ceilings *c, const struct wl_device_model *d, char *buf, size_t len)
{
	char last[300] = "";

	if (c->reuse && c->footprint_bytes > 0 && c->footprint_bytes <= d->cache_bytes)
		snprintf(last, sizeof(last), "the buffers (%.3g MB) fit the last-level cache, so DRAM moves them once",
			 c->footprint_bytes / 1e6);
	else if (c->reuse && c->footprint_bytes > 0)
		snprintf(last, sizeof(last), "the loads ask for the buffers (%.3g MB, more than the last-level cache's "
			 "%.3g MB) many times over, and the cache keeps them between passes", c->footprint_bytes / 1e6,
			 d->cache_bytes / 1e6);
	if (c->first_level)
		snprintf(buf, len, "reuse in the caches: a work-group reads again what it read on the iterations "
			 "before, and the first-level cache serves %.0f%% of its requests%s%s; more is kept than the "
			 "model counts", 100 * c->hit_share, last[0] ? "; " : "", last);
	else
		snprintf(buf, len, "reuse in the caches: %s, and the first-level caches keep what a work-group reads "
			 "again, so fewer bytes than the %.3g MB requested reach even the last-level cache", last,
			 c->cache_bytes / 1e6);
}

/* Whether condition w holds at the result: the counts p, the device d,
 * the ceilings c (or NULL) and what is known of the run. */
static int holds(const struct wl_when *w, const struct wl_ceilings *c, const struct wl_device_model *d,
		 const struct wl_prediction *p, const struct wl_cause_facts *f)
{
	double launch = c ? c->launch_ms : d ? d->launch_us / 1000 : 0, median = f ? f->median_ms : 0;
	double cache = d ? d->cache_bytes : 0, footprint = f ? f->footprint : 0;

	switch (w->kind) {
	case WL_WHEN_GPU:
		return d && d->warp > 0;
	case WL_WHEN_LOCAL:
		return p->has_local;
	case WL_WHEN_CONFLICTS:
		return p->has_local && p->conflict_degree > 1;
	case WL_WHEN_SHORT:
		return launch > 0 && median > 0 && launch >= 0.1 * median;
	case WL_WHEN_LONG:
		return launch > 0 && median > 0 && launch < 0.1 * median;
	case WL_WHEN_DROPS:
		return f && f->drops;
	case WL_WHEN_BEYOND_CACHE:
		return cache > 0 && footprint > cache;
	case WL_WHEN_IN_CACHE:
		return cache > 0 && footprint > 0 && footprint <= cache;
	case WL_WHEN_SLOW_BASELINE:
		return f && f->baseline_ratio && f->baseline_ratio(f->arg, w->than) >= w->by;
	}
	return 0;
}

/* Append cause (a sentence or {"text", "when"}) to buf where it may be said. */
static void add_cause(const json_t *cause, const struct wl_ceilings *c, const struct wl_device_model *d,
		      const struct wl_prediction *p, const struct wl_cause_facts *f, char *buf, size_t len)
{
	const char *text = json_is_string(cause) ? json_string_value(cause)
						 : json_string_value(json_object_get(cause, "text"));
	const json_t *w;
	size_t i, used = strlen(buf);

	if (!text || (json_is_string(cause) && excluded(text, p)))
		return;
	json_array_foreach(json_object_get(cause, "when"), i, w) {
		struct wl_when when;

		if (wl_when_parse(json_string_value(w), &when) < 0 || !holds(&when, c, d, p, f))
			return;
	}
	snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

const char *wl_departure_cause(const struct wl_ceilings *c, const struct wl_device_model *d,
			       const struct wl_prediction *p, double ratio, const json_t *causes,
			       const struct wl_cause_facts *facts, char *buf, size_t len)
{
	const json_t *one;
	size_t i;

	buf[0] = '\0';
	if (c && ratio < 1 && d->compute_units > 0 && c->warps < d->compute_units * d->warp / 8 &&
	    c->warps < d->compute_units * d->resident_warps) {
		snprintf(buf, len, "too little parallelism: %.0f warps in all for %.0f compute units, too few to hide "
			 "the memory's latency (one warp alone makes a request every %.0f ns)",
			 c->warps, d->compute_units, d->warp_interval_ns);
	} else if (c && ratio < 1 && c->binding == WL_CEIL_LATENCY) {
		snprintf(buf, len, "latency not hidden at this occupancy: %.0f warps in %.0f wave(s), each making "
			 "its requests one at a time", c->warps, c->waves);
	} else if (c && ratio > 1 && (c->reuse || c->first_level)) {
		reuse_cause(c, d, buf, len);
	} else if (json_is_array(causes)) {
		json_array_foreach(causes, i, one)
			add_cause(one, c, d, p, facts, buf, len);
	} else if (causes) {
		add_cause(causes, c, d, p, facts, buf, len);
	}
	return buf[0] ? buf : NULL;
}
