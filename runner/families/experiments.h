/* The host implementations of experiments: every experiment the catalog or
 * a request declares as data runs through one (exp_declared.c), its check a
 * reference of references.h or another variant; warplab's own tests add a
 * family in C (a kernel that never ends). */
#ifndef WL_EXPERIMENTS_H
#define WL_EXPERIMENTS_H

#include <stddef.h>

#include "experiment.h"

extern const struct wl_experiment_ops wl_exp_test_spin;
/* Every experiment declared as data (exp_data.h). */
extern const struct wl_experiment_ops wl_exp_declared;

#endif
