/* What the counts of launches profiled later say in a result (backend.h's
 * deferred counts): a settled launch with its result and extra, the extra
 * while they wait, and a profile's failure as an extra. */
#ifndef WL_COUNTED_H
#define WL_COUNTED_H

#include <stddef.h>

/* What a result's extra says while its counters wait. */
#define WL_COUNTS_PENDING "{\"counters_pending\":true}"

/* A launch profiled or given up: the result it belongs to and what to
 * write into its extra. */
struct wl_counted {
	long long run_id, seq;
	double ms;			/* its share of its session's time */
	char extra[1024];		/* {"counters": {...}} or {"counters_error": why} */
};

/* A profile's failure as a result's extra, {"counters_error": why},
 * written into extra (len bytes) where it fits, else extra is left empty. */
void wl_counts_error_extra(const char *why, char *extra, size_t len);

#endif
