/* The ceilings of a prediction (ceilings.h) as the API shows them, and the
 * cause a departure sentence names: one the model can see in the counts —
 * too few work-groups to fill the device, latency not hidden, local-memory
 * passes, reuse in the caches — or the catalog's, only where the kernel can
 * have it (no "bank conflicts" for a kernel without local memory). */
#ifndef WL_CEILING_VIEW_H
#define WL_CEILING_VIEW_H

#include <jansson.h>
#include <stddef.h>

#include "access_model.h"
#include "ceilings.h"
#include "warp_model.h"

/* {"ceilings": {"dram_ms", "cache_ms", "local_ms", "latency_ms"},
 *  "ceiling_rates": {"dram", ...}: work (bytes or operations) per second
 *  were that ceiling alone (with the launch) the time, in GB/s or Gop/s,
 *  "launch_ms", "drain_ms" (the waves' round trips before their barriers,
 *  which add to DRAM's time; null where none), "binding", "binding_margin"
 *  (null where no other ceiling applies), "dram_bytes", "cache_bytes",
 *  "reuse", "warps", "waves"}. NULL only when out of memory. */
json_t *wl_ceilings_json(const struct wl_ceilings *c, double work);

/* What a ceiling's name ("dram", "l1", ...) stands for, in words a verdict
 * can say ("DRAM bandwidth"); name itself for one it does not know. */
const char *wl_ceiling_words(const char *name);

/* What a catalog cause's conditions (access_model.h: struct wl_when) are
 * checked against beyond the counts and the device: the result and the run
 * it is in. */
struct wl_cause_facts {
	double median_ms;		/* the result's measured time, 0: unknown */
	double footprint;		/* the point's buffers, bytes, 0: unknown */
	int drops;			/* the run found partition-camping drops of this variant */
	/* This variant's time at the experiment's baseline point over other's
	 * there (the same other params), 0 where unknown; NULL: none known. */
	double (*baseline_ratio)(const void *arg, const char *other);
	const void *arg;
};

/* The cause of a departure by ratio (predicted time over measured: above 1
 * the point ran faster) into buf: from c and p where the model sees one,
 * else the catalog's causes (a sentence, {"text", "when"}, or a list: each
 * whose conditions all hold at this result, joined by "; "; a bare sentence
 * only where p's accesses allow it), else NULL (and buf ""). c may be NULL
 * (no ceilings: the copy-ceiling model), facts NULL (nothing known of the
 * run: a condition on it does not hold). */
const char *wl_departure_cause(const struct wl_ceilings *c, const struct wl_device_model *d,
			       const struct wl_prediction *p, double ratio, const json_t *causes,
			       const struct wl_cause_facts *facts, char *buf, size_t len);

#endif
