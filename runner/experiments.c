/* The registry of experiment families: adding a family is a kernel file, a
 * catalog entry, an exp_*.c file and one line here. */
#include <stdio.h>
#include <string.h>

#include "experiments.h"

static const struct wl_experiment_ops *const families[] = {
	&wl_exp_copy,
	&wl_exp_transpose,
	&wl_exp_strided,
	&wl_exp_offset,
	&wl_exp_reduction,
	&wl_exp_dot,
	&wl_exp_myadd,
	&wl_exp_minplus,
	&wl_exp_banks,
};

const struct wl_experiment_ops *wl_experiment_ops_find(const char *id)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (strcmp(families[i]->id, id) == 0)
			return families[i];
	return NULL;
}

int wl_experiments_check(const struct wl_catalog *cat, struct wl_error *err)
{
	char missing[512] = "";

	for (size_t i = 0; i < cat->nexperiments; i++)
		if (!wl_experiment_ops_find(cat->experiments[i].id))
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%s",
				 missing[0] ? ", " : "", cat->experiments[i].id);
	if (missing[0]) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "the catalog lists experiments this runner does not implement: %s",
			     missing);
		return -1;
	}
	return 0;
}
