/* The registry of experiment families: adding a family is a kernel file, a
 * catalog entry, an exp_*.c file and one line here. */
#include <stdio.h>
#include <string.h>

#include "experiments.h"
#include "json_strict.h"

/* Experiments that exist for warplab's own tests (a kernel that never ends);
 * a catalog may list them only for a runner started with --test-kernels. */
static const struct wl_experiment_ops *const test_only[] = {
	&wl_exp_test_spin,
};

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

static int is_test_only(const char *id)
{
	for (size_t i = 0; i < sizeof(test_only) / sizeof(test_only[0]); i++)
		if (strcmp(test_only[i]->id, id) == 0)
			return 1;
	return 0;
}

const struct wl_experiment_ops *wl_experiment_ops_find(const char *id)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (strcmp(families[i]->id, id) == 0)
			return families[i];
	for (size_t i = 0; i < sizeof(test_only) / sizeof(test_only[0]); i++)
		if (strcmp(test_only[i]->id, id) == 0)
			return test_only[i];
	return NULL;
}

int wl_experiments_check(const struct wl_catalog *cat, int allow_test, struct wl_error *err)
{
	char missing[512] = "";

	for (size_t i = 0; i < cat->nexperiments; i++) {
		const char *id = cat->experiments[i].id;

		if (is_test_only(id) && !allow_test) {
			wl_error_set(err, WL_ERR_CONFIG,
				     "the catalog lists '%s', which exists for warplab's own tests only (start the runner with --test-kernels to allow it)",
				     id);
			return -1;
		}
		if (!wl_experiment_ops_find(id))
			wl_list_append(missing, sizeof(missing), id);
	}
	if (missing[0]) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "the catalog lists experiments this runner does not implement: %s",
			     missing);
		return -1;
	}
	return 0;
}
