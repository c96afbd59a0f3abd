/* The model's one entry point for a prediction: what one work-group asks
 * (the warp model's counts of a declaration, warp_model.h, or a trace's,
 * trace_model.h), on a device (its facts, ceilings.h), at a point, becomes
 * the predicted time with its ceilings, its traffic and the sentence a
 * departure gets. The server gathers the inputs from a run and asks; it does
 * not model. */
#ifndef WL_PREDICT_H
#define WL_PREDICT_H

#include <jansson.h>

#include "catalog.h"
#include "ceiling_view.h"
#include "ceilings.h"
#include "warp_model.h"

/* A result departs from its prediction beyond this factor, either way. */
#define WL_DEPARTURE_FACTOR 2.0

/* What one result's prediction is made from. */
struct wl_point_in {
	const struct wl_experiment *exp;
	double copy_gbps;			/* the device's copy ceiling, 0: unknown */
	const struct wl_device_model *device;	/* NULL: no measured facts, the copy ceiling alone */
	double footprint;			/* the point's buffers, bytes (0: unknown) */
	int hot;				/* timed hot: launches back to back, no flush */
	int groups_chosen;			/* the driver chooses the work-group size */
	const struct wl_model *declared;	/* the declaration p was simulated from; NULL: a trace's */
	const struct wl_model *causes;		/* the catalog's departure causes, or NULL */
	const struct wl_prediction *p;		/* one work-group's counts at the point */
	const struct wl_prediction *base;	/* the same at the baseline point (banks), or NULL */
	double work;				/* bytes or operations the runner counted */
	double median_ms;			/* measured, 0: none */
	double measured_slowdown;		/* over the baseline, 0: none */
	const struct wl_cause_facts *facts;	/* the run, for the causes' conditions; NULL: unknown */
};

/* The prediction of one result as the API shows it ("prediction" in
 * docs/api.md): with the device's facts its time comes from the ceilings and
 * the launch, without them from the bytes its sectors move at the copy
 * ceiling; "ratio" is predicted over measured time (or slowdown), and
 * "departure" a sentence where it is beyond WL_DEPARTURE_FACTOR. NULL only
 * when out of memory. */
json_t *wl_predict_point(const struct wl_point_in *in);

#endif
