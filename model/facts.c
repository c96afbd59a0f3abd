/* The device facts' table (see facts.h): for each field of struct wl_facts,
 * its key in the JSON, the key of the object it is kept in when it is
 * measured beside another fact, its unit and the method that measures it. */
#include "facts.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct fact_def {
	const char *key;	/* the fact's key, or the object of the fact it is kept beside */
	const char *sub;	/* NULL: the fact's own "value"; else its key in key's object */
	const char *unit;
	const char *method;	/* NULL for a figure kept beside another */
	size_t offset;
};

#define AT(field) offsetof(struct wl_facts, field)

/* Why a fact is absent: its probe's timings gave no figure, twice. */
#define ABSENT "measured twice, its probe's timings gave no usable figure either time (0 or not a number, as a busy " \
	       "machine's clock can give): the model goes without it"

static const struct fact_def defs[] = {
	{ "launch_us", NULL, "µs",
	  "an empty kernel of one work-group, its time from the queue's profiling events (the lower quartile of 41: the device's hiccups only add)",
	  AT(launch_us) },
	{ "groups_per_us", NULL, "work-groups per µs",
	  "the same empty kernel over 2^20 work-groups of 64 work-items: the work-groups the device starts per µs past its launch "
	  "(a GPU starts them at a rate of its own, whatever their size); on a GPU only",
	  AT(groups_per_us) },
	{ "latency_ns", NULL, "ns",
	  "one work-item follows a random cycle through the 32-byte sectors of four times the last-level cache, each load waiting for the one before",
	  AT(latency_ns) },
	{ "latency_ns", "bytes", NULL, NULL, AT(latency_bytes) },
	{ "warp_interval_ns", NULL, "ns",
	  "one warp alone streams c[k] = a[k] + a[k] (a load and a store per iteration, as seed 000's MyAdd): the time per request, "
	  "coalesced (value) and with each lane on a row of its own (scattered)",
	  AT(warp_interval_ns) },
	{ "warp_interval_ns", "scattered", NULL, NULL, AT(warp_scattered_ns) },
	{ "local_wavefronts_per_us", NULL, "per µs per compute unit",
	  "work-groups of 256 read local memory with every lane of a warp in one bank (a pass per lane), eight groups per compute unit",
	  AT(local_per_us) },
	{ "barrier_ns", NULL, "ns",
	  "eight work-groups of 256 per compute unit store to local memory, cross a barrier, load a neighbour's word and cross another, "
	  "over and over: the time of one such step, as a reduction's tree takes one per level",
	  AT(barrier_ns) },
	{ "l1_requests_per_us", NULL, "per µs per compute unit",
	  "eight work-groups of 256 per compute unit read the same 40 KB over and over: warp requests of one line each (value); "
	  "of 32 lines with every word in one bank, a pass per line (passes: lines per µs); of 32 lines on 32 banks (lines: lines per µs)",
	  AT(l1_requests_per_us) },
	{ "l1_requests_per_us", "passes", NULL, NULL, AT(l1_passes_per_us) },
	{ "l1_requests_per_us", "lines", NULL, NULL, AT(l1_lines_per_us) },
	{ "l1_interval_ns", NULL, "ns",
	  "one warp alone reads the same 40 KB over and over, a line per request, eight requests an iteration: the time per request "
	  "where the first-level cache holds what it reads",
	  AT(l1_interval_ns) },
	{ "cache_gbps", NULL, "GB/s",
	  "float4 reads of half the last-level cache over and over, each pass shifted so that no compute unit reads what it read before",
	  AT(cache_gbps) },
	{ "cache_gbps", "bytes", NULL, NULL, AT(cache_probe_bytes) },
	{ "burst_bytes", NULL, "bytes",
	  "one float every 16 against every 8 (one 32-byte sector each): the time it takes more is the sectors DRAM moves together",
	  AT(burst_bytes) },
	{ "burst_bytes", "ratio", NULL, NULL, AT(burst_ratio) },
	{ "dram_random_per_us", NULL, "sectors per µs",
	  "every work-item of a full grid reads 4-byte words of random 32-byte sectors of a buffer of 16 times the last-level cache (the power of two below it; at most 1 GiB, 64 MiB on a CPU), "
	  "four independent loads at a time: the sectors DRAM serves per µs where nothing is near anything else",
	  AT(dram_random_per_us) },
	{ "cache_random_per_us", NULL, "sectors per µs",
	  "the same over half the last-level cache, read once before: the sectors it serves per µs at random",
	  AT(cache_random_per_us) },
	{ "scatter_per_us", NULL, "stores per µs",
	  "every work-item of a full grid stores 4-byte words to random 32-byte sectors of a buffer of 16 times the last-level cache (the power of two below it; at most 1 GiB, 64 MiB on a CPU): "
	  "the stores per µs, each a sector DRAM must read and write again",
	  AT(scatter_per_us) },
	{ "partial_store_per_us", NULL, "stores per µs",
	  "a grid of 32 x 8 work-groups stores 4-byte words down the columns of a square the last-level cache holds (out[x*n + y]): "
	  "each lane of a warp writes a sector of its own and the group's other warps the rest of those sectors; the sector writes "
	  "per µs", AT(partial_store_per_us) },
	{ "dram_lane_gbps", NULL, "GB/s",
	  "a copy of one element per work-item from one half of a buffer of 16 times the last-level cache (the power of two below it; at most 1 GiB, 64 MiB on a CPU) to the other, bytes read "
	  "plus written: float4 lanes (value), float2 (lane8) and float (lane4); DRAM streams at the pace of what a full grid's "
	  "warps keep in flight, a quarter as many bytes with 4-byte lanes", AT(dram_lane16_gbps) },
	{ "dram_lane_gbps", "lane8", NULL, NULL, AT(dram_lane8_gbps) },
	{ "dram_lane_gbps", "lane4", NULL, NULL, AT(dram_lane4_gbps) },
	{ "atomic_per_us", NULL, "atomics per µs",
	  "every work-item of a full grid adds 1 atomically to random words of a buffer the last-level cache holds: atomics per µs",
	  AT(atomic_per_us) },
	{ "l1_bytes", NULL, "bytes",
	  "one work-group of 256 per compute unit reads its own working set over and over, from 16 KB up: the largest set read at "
	  "at least 90% of the best pace is what the first level keeps for a kernel without local memory",
	  AT(l1_bytes) },
	{ "issue_per_ns", NULL, "warp instructions per ns per compute unit",
	  "a full grid of work-items each running eight independent multiply-adds in a long loop: the warp instructions a compute "
	  "unit issues per ns", AT(issue_per_ns) },
};

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static double *field(struct wl_facts *f, const struct fact_def *d)
{
	return (double *)((char *)f + d->offset);
}

json_t *wl_facts_to_json(const struct wl_facts *facts)
{
	json_t *o = json_pack("{s:i}", "version", WL_FACTS_VERSION);

	for (size_t i = 0; o && i < NDEFS; i++) {
		const struct fact_def *d = &defs[i];
		double v = *field((struct wl_facts *)facts, d);
		json_t *own = json_object_get(o, d->key);

		/* Never a JSON number that is not one: jansson refuses them. */
		if (v == 0 || (!isfinite(v) && d->sub))
			continue;
		if (!isfinite(v)) {
			if (json_object_set_new(o, d->key, json_pack("{s:s, s:s, s:s}", "absent", ABSENT, "unit", d->unit,
								     "method", d->method)) < 0)
				goto fail;
		} else if (!d->sub) {
			if (json_object_set_new(o, d->key, json_pack("{s:f, s:s, s:s}", "value", v, "unit", d->unit,
								     "method", d->method)) < 0)
				goto fail;
		} else if (own && json_object_set_new(own, d->sub, json_real(v)) < 0) {
			goto fail;
		}
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}

int wl_facts_any_unmeasured(const struct wl_facts *facts)
{
	for (size_t i = 0; i < NDEFS; i++)
		if (!isfinite(*field((struct wl_facts *)facts, &defs[i])))
			return 1;
	return 0;
}

void wl_facts_fill_unmeasured(struct wl_facts *facts, const struct wl_facts *again)
{
	for (size_t i = 0; i < NDEFS; i++)
		if (!isfinite(*field(facts, &defs[i])))
			*field(facts, &defs[i]) = *field((struct wl_facts *)again, &defs[i]);
}

int wl_facts_from_json(const json_t *obj, struct wl_facts *out)
{
	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj) || json_object_get(obj, "error"))
		return 0;
	for (size_t i = 0; i < NDEFS; i++) {
		const struct fact_def *d = &defs[i];
		const json_t *v = json_object_get(json_object_get(obj, d->key), d->sub ? d->sub : "value");

		*field(out, d) = json_is_number(v) ? json_number_value(v) : 0;
	}
	return out->launch_us > 0;
}

void wl_facts_text(const struct wl_facts *facts, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NDEFS && used < len; i++) {
		const struct fact_def *d = &defs[i];
		double v = *field((struct wl_facts *)facts, d);
		int n;

		if (v == 0 || (!isfinite(v) && d->sub))
			continue;
		n = !isfinite(v) ? snprintf(buf + used, len - used, "%s%s not measured", used ? ", " : "", d->key) :
		    d->sub ? snprintf(buf + used, len - used, "%s%s.%s %.4g", used ? ", " : "", d->key, d->sub, v)
			   : snprintf(buf + used, len - used, "%s%s %.4g %s", used ? ", " : "", d->key, v, d->unit);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}
