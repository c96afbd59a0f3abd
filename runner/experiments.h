/* The experiment families the runner implements, and the CPU references the
 * unit tests check on their own. */
#ifndef WL_EXPERIMENTS_H
#define WL_EXPERIMENTS_H

#include <stddef.h>

#include "experiment.h"

extern const struct wl_experiment_ops wl_exp_copy;
extern const struct wl_experiment_ops wl_exp_transpose;

/* out = in transposed, both n x n row-major. */
void wl_transpose_reference(const float *in, float *out, size_t n);

#endif
