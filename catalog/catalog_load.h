/* Reading the experiments of kernels/catalog.json, strictly: what
 * catalog.c's wl_catalog_load asks of it, once it has read the file and its
 * top level. */
#ifndef WL_CATALOG_LOAD_H
#define WL_CATALOG_LOAD_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"
#include "catalog_experiment.h"

/* Read list (the file's "experiments" value, or NULL where it has none) into
 * *out, an array of *count experiments: every field typed, every formula
 * naming known params, every default valid, ids unique. 0, or -1 with a
 * message naming the entry ("experiment 'copy' variants[1]: ..."); on
 * failure nothing read is left allocated and *out and *count are untouched.
 * Caller frees each experiment with wl_experiment_clear() and then the
 * array with free(). */
int wl_catalog_experiments_load(const json_t *list, struct wl_experiment **out, size_t *count,
				struct wl_error *err);

/* Read obj, a request's own experiment (its "experiment" object), as the
 * catalog reads its own, with its buffers, scalars and check required and
 * its source the kernels' text (exp->own). Errors are WL_ERR_INVALID_FIELD
 * naming the key's path as the field ("experiment.buffers[1].count") where
 * the reading knows it, else "experiment". On failure *out holds nothing.
 * Caller frees with wl_experiment_clear(). */
int wl_experiment_load_own(const json_t *obj, struct wl_experiment *out, struct wl_error *err);

#endif
