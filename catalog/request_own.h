/* An experiment a request brings of its own: "experiment" as an object in
 * the catalog's format (catalog_load.h, exp_data.h) with its kernels' source
 * inline, or, as a stored request says it again, "experiment" as its id with
 * its "definition" beside it. It is read as hostile input before anything is
 * queued: its size (WL_OWN_VARIANTS_MAX variants, WL_OWN_SOURCE_MAX bytes of
 * source, exp_data.h's buffers and scalars), its source's directives (no
 * file of the host: directive_check.h), every variant's kernel defined in
 * the source, every buffer's count evaluated at every point without
 * overflow, and an id no catalog experiment has. A stored request keeps the
 * definition as given, so that every reader parses the same. */
#ifndef WL_REQUEST_OWN_H
#define WL_REQUEST_OWN_H

#include <jansson.h>

#include "catalog.h"
#include "error.h"
#include "points.h"

#define WL_OWN_VARIANTS_MAX 8
#define WL_OWN_SOURCE_MAX 65536

/* The experiment body runs: the catalog's it names in "experiment", or its
 * own (read into *own, own->own then set; the caller clears it with
 * wl_experiment_clear), into *exp. -1 with err naming the field; *own then
 * holds nothing. */
int wl_request_experiment(const struct wl_catalog *cat, const json_t *body, struct wl_experiment *own,
			  const struct wl_experiment **exp, struct wl_error *err);

/* The definition body brings, or NULL where its experiment is the
 * catalog's: "experiment" itself when an object, else "definition". */
const json_t *wl_request_own_definition(const json_t *body);

/* Read def, a request's own experiment, against cat into *out (which must
 * be freed with wl_experiment_clear() on success; holds nothing on
 * failure): -1 with err naming the field (experiment.id, experiment.source,
 * experiment.variants[1].kernel, experiment.buffers[0].count, ...). */
int wl_request_own_read(const struct wl_catalog *cat, const json_t *def, struct wl_experiment *out,
			struct wl_error *err);

/* Every buffer of own's counted at every point of pts without overflow:
 * -1 with err naming the buffer, its count, the point and why. */
int wl_request_own_sizes(const struct wl_experiment *own, const struct wl_points *pts, struct wl_error *err);

#endif
