/* The server's memo of model predictions, and the one thread that computes
 * them. A prediction depends only on the variant's declared accesses, the
 * point and the warp width, so it is computed once per server for every run
 * that asks, never on a thread that answers requests, and never for longer
 * than WL_MEMO_PREDICT_S: a custom kernel's declaration is a client's input.
 * A request asks for the keys it needs, waits a little for those not yet
 * computed, and shows the rest as pending.
 *
 * Usage, per derivation of a run:
 *	struct wl_memo_ask ask[n];	   filled with wl_memo_ask_set()
 *	wl_memo_lookup(ask, n, wait_ms);   then read ask[i].state, .p, .error */
#ifndef WL_PREDICTION_MEMO_H
#define WL_PREDICTION_MEMO_H

#include <jansson.h>

#include "catalog.h"
#include "warp_model.h"

#define WL_MEMO_PREDICT_S 0.5	/* wall time one prediction may take */
#define WL_MEMO_ENTRIES 16384	/* predictions kept before the memo starts afresh */
#define WL_MEMO_KEY_MAX 512

enum wl_memo_state { WL_MEMO_PENDING, WL_MEMO_DONE, WL_MEMO_FAILED };

/* One prediction a derivation needs, and, after wl_memo_lookup(), what the
 * memo holds for it. */
struct wl_memo_ask {
	/* What to predict: a built-in variant's model (model), or a custom
	 * kernel's declared accesses read with its like variant's shape. */
	const struct wl_experiment *exp;
	const struct wl_model *model;		/* catalog-owned (or see definition); or NULL */
	const char *variant;			/* the built-in's id, with model */
	const struct wl_variant_def *like;	/* with accesses */
	const json_t *accesses;			/* borrowed while asking */
	/* An experiment of the run's own: its definition, borrowed while
	 * asking. exp, model and like then point into the asker's reading of
	 * it, which ends with the request: the memo keeps a copy of the
	 * definition and reads it again for the job. NULL: exp is the
	 * catalog's. */
	const json_t *definition;
	const long long *values;		/* exp->nparams values */
	int lanes;
	char key[WL_MEMO_KEY_MAX];
	/* The answer. */
	enum wl_memo_state state;
	struct wl_prediction p;			/* WL_MEMO_DONE */
	char error[256];			/* WL_MEMO_FAILED */
};

/* Fill ask's key from what it predicts (its other fields set by the caller). */
void wl_memo_ask_set(struct wl_memo_ask *ask);

/* Look every ask up, queue those the memo lacks, wait up to wait_ms for them
 * to be computed, and copy each answer into its ask (state PENDING where
 * none came in time, or the memo could not take the job). Never fails. */
void wl_memo_lookup(struct wl_memo_ask *asks, size_t n, long wait_ms);

/* Stop the memo's thread once the job in hand is done, and forget every
 * entry: before the catalog its jobs point into is freed (a server that
 * stops). A later ask starts it again. */
void wl_memo_stop(void);

#endif
