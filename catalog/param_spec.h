/* A parameter as the catalog defines it (name, limits, what it must be a
 * multiple of, its default) and the grammar of the specs a request gives for
 * it: a value, a list of values, or a range {"from","to","step"} or
 * {"from","to","mul"}. The catalog checks its defaults with it, the request
 * its params, and the expansion into points walks specs it has checked. */
#ifndef WL_PARAM_SPEC_H
#define WL_PARAM_SPEC_H

#include <jansson.h>

#include "error.h"

#define WL_PARAM_VALUE_MAX (1LL << 40)

struct wl_param_def {
	char *name;
	char *title;
	long long min, max;
	long long multiple_of;		/* 0 when unconstrained */
	int multiple_of_param;		/* index of a param this must be a multiple of, or -1 */
	char *multiple_of_name;		/* that param's name, as the catalog wrote it */
	int pow2;			/* must be a power of two */
	json_t *default_spec;		/* a value, list or range, as a request may give */
};

/* Validate spec for param d, checking each value on its own (min, max, pow2,
 * a fixed multiple; a multiple of another param is checked per point). *count
 * is how many values it yields. Lists longer than max_list fail. Errors name
 * the field as params.<name>; on failure *count is unspecified. */
int wl_param_spec_count(const struct wl_param_def *d, const json_t *spec, long long max_list,
			long long *count, struct wl_error *err);

/* Call fn(value, ctx) for each value of a spec that wl_param_spec_count
 * accepted, in order; stops at and returns the first negative fn returns,
 * else 0. */
int wl_param_spec_foreach(const json_t *spec, int (*fn)(long long v, void *ctx), void *ctx);

#endif
