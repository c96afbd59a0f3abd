/* The memory-access model: simulate one work-group's warps over a variant's
 * declared accesses (access_model.h) at one point and predict, per access and
 * for the variant, what the seeds reason out by hand:
 * - global: the 32-byte sectors and 128-byte lines one warp request touches,
 *   and the useful fraction of the bytes those sectors move;
 * - local: the conflict degree over 32 banks of 4 bytes (the most distinct
 *   words one bank must serve for one request; work-items reading the same
 *   word share it).
 * The first work-group (group ids 0) stands for all; loops longer than the
 * sample are simulated for their first iterations and scaled by their full
 * trip count. What the model leaves out — caches, DRAM bursts, partition
 * camping, divergence — is what the catalog's departure causes name. */
#ifndef WL_WARP_MODEL_H
#define WL_WARP_MODEL_H

#include "access_model.h"
#include "ceilings.h"
#include "units.h"

#define WL_MODEL_GROUP_MAX 4096		/* work-items of the simulated group */
#define WL_MODEL_SAMPLE 64		/* warp requests simulated per access (at least one iteration) */
#define WL_MODEL_TRIPS_MAX (1LL << 22)	/* a loop nest longer than this is refused */

struct wl_access_figures {
	double requests;		/* warp requests in one work-group */
	double sectors_per_request, lines_per_request;	/* global */
	double bursts_per_request;	/* global: distinct 64-byte pairs of sectors */
	double efficiency;		/* global: useful bytes / bytes of the sectors */
	double conflict_degree;		/* local: mean passes per request over the ideal */
	double bank_degree;		/* global: the same over the words, as a first-level cache's banks serve them */
	double useful_bytes, moved_bytes;	/* global, one work-group */
	double burst_bytes;		/* global, one work-group, in whole 64-byte bursts */
	int sampled;			/* its loops were cut to WL_MODEL_SAMPLE requests */
};

struct wl_prediction {
	int lanes;
	int naccesses;
	struct wl_access_figures access[WL_ACCESS_MAX];
	int has_global, has_local;
	double efficiency;		/* global useful / moved bytes, all accesses */
	double sectors_per_request;	/* the worst global access */
	double conflict_degree;		/* the worst local access */
	double useful_bytes, moved_bytes;	/* global, one work-group */
	double burst_bytes;		/* the same in whole 64-byte bursts */
	double groups;			/* work-groups in the launch, or 0 without a grid */
	double items;			/* work-items in one work-group */
	double barriers;		/* barriers one work-group crosses (0: none declared) */
	int sampled;
	/* What one work-group asks, counted from its requests in time order
	 * (requests.h), with the launch's groups, items and barriers: what the
	 * ceilings are made of. */
	struct wl_launch_work work;
};

/* Count access figures f (of local memory, else global) into the variant's
 * p: the worst global access's sectors, the worst local conflict, the
 * global efficiency over all accesses. The one rule for declared and traced
 * figures alike. */
void wl_prediction_add(struct wl_prediction *p, const struct wl_access_figures *f, int local);

/* Predict m at params[0..nparams) (the point's values, in catalog order) for
 * warps of lanes work-items. -1 with the reason in err where the model cannot
 * be evaluated there (a division by zero, a negative index, a group too big),
 * or where deadline (CLOCK_MONOTONIC seconds; 0: none) passes before the
 * simulation ends: a custom kernel's declaration is a client's input, and its
 * loops must not hold the server. */
int wl_model_predict(const struct wl_model *m, const long long *params, int nparams, int lanes,
		     double deadline, struct wl_prediction *out, struct wl_error *err);

#endif
