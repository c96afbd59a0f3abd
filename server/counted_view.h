/* The hardware's count beside the model's (issue 27): for each result of a
 * CUDA run that carries counters (the runner profiled one more launch of
 * the variant after timing it, extra.counters), what they say per request —
 * sectors per global load and store request, local (shared) wavefronts per
 * load instruction (the conflict degree), DRAM bytes read and written, the
 * L2's hit rate — beside what the prediction's accesses and traffic say,
 * and a sentence for each figure where the two differ by more than 5% (per
 * request) or 25% (traffic): the model's error, not the hardware's. */
#ifndef WL_COUNTED_VIEW_H
#define WL_COUNTED_VIEW_H

#include <jansson.h>

/* Within this factor counted and predicted agree: per request, and for the
 * traffic (DRAM bytes, the last level's hit rate), which the counters
 * count over the whole launch with everything else the device did. */
#define WL_COUNTED_AGREE 1.05
#define WL_COUNTED_TRAFFIC 1.25

/* Give each result of run with counters a "counted" object: {"counters"
 * (as recorded), "load_sectors_per_request", "store_sectors_per_request",
 * "local_conflict_degree", "dram_bytes", "dram_read_bytes",
 * "dram_write_bytes", "l2_hit_pct", "predicted": {the same from the
 * prediction's accesses and traffic}, "model_differs": [sentences]},
 * each result whose profile failed "counted": {"error"}, and each whose
 * counters are still coming "counted": {"pending": true}, the run then
 * saying how many ("counters_pending"). -1 only when out of memory. */
int wl_run_add_counted(json_t *run);

#endif
