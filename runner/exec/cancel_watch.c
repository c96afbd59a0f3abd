/* A run's cancel, watched while its point is measured (see cancel_watch.h). */
#include "cancel_watch.h"

#include "clock.h"

int wl_cancel_asked(void *ctx)
{
	struct wl_cancel_watch *w = ctx;
	struct wl_error ignored;
	int cancel = 0;

	if (w->cancelled || wl_now_ms() - w->asked_ms < 250)
		return w->cancelled;
	w->asked_ms = wl_now_ms();
	if (wl_store_cancel_requested(w->store, w->run_id, &cancel, &ignored) == 0 && cancel)
		w->cancelled = 1;
	return w->cancelled;
}
