/* Whether a run has been cancelled, asked while one of its points is
 * measured (struct wl_point's cancelled): of the store at most every quarter
 * second, so that a point of seconds stops soon after a cancel without the
 * store being asked at every batch of launches. */
#ifndef WL_CANCEL_WATCH_H
#define WL_CANCEL_WATCH_H

#include "store.h"

struct wl_cancel_watch {
	struct wl_store *store;
	long long run_id;
	double asked_ms;	/* when the store was last asked (wl_now_ms) */
	int cancelled;		/* once it has been, it stays so */
};

/* 1 where the run of ctx (a struct wl_cancel_watch) has been cancelled, as
 * the store last said; a store that cannot answer is asked again later. */
int wl_cancel_asked(void *ctx);

#endif
