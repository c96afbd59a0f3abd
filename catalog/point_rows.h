/* A run's points as rows of values (points.h expands them, tuning.h
 * narrows them): count rows of nparams values, in the catalog's param
 * order. Its own header so that the narrowing needs nothing of the
 * expansion. */
#ifndef WL_POINT_ROWS_H
#define WL_POINT_ROWS_H

#include <stddef.h>

struct wl_points {
	size_t count, nparams;
	long long *values;	/* count * nparams */
};

#endif
