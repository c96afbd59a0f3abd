/* The ceilings of a prediction (ceilings.h) as the API shows them, and the
 * cause a departure sentence names: one the model can see in the counts —
 * too few work-groups to fill the device, latency not hidden, local-memory
 * passes, reuse in the caches — or the catalog's, only where the kernel can
 * have it (no "bank conflicts" for a kernel without local memory). */
#ifndef WL_CEILING_VIEW_H
#define WL_CEILING_VIEW_H

#include <jansson.h>
#include <stddef.h>

#include "ceilings.h"
#include "warp_model.h"

/* {"ceilings": {"dram_ms", "cache_ms", "local_ms", "latency_ms"},
 *  "ceiling_rates": {"dram", ...}: work (bytes or operations) per second
 *  were that ceiling alone (with the launch) the time, in GB/s or Gop/s,
 *  "launch_ms", "binding", "binding_margin" (null where no other ceiling
 *  applies), "dram_bytes", "cache_bytes",
 *  "reuse", "warps", "waves"}. NULL only when out of memory. */
json_t *wl_ceilings_json(const struct wl_ceilings *c, double work);

/* The cause of a departure by ratio (predicted time over measured: above 1
 * the point ran faster) into buf: from c and p where the model sees one,
 * else catalog_cause where p's accesses allow it, else NULL (and buf "").
 * c may be NULL (no ceilings: the copy-ceiling model). */
const char *wl_departure_cause(const struct wl_ceilings *c, const struct wl_device_model *d,
			       const struct wl_prediction *p, double ratio, const char *catalog_cause,
			       char *buf, size_t len);

#endif
