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

const struct wl_experiment_ops *wl_experiment_ops_find(const struct wl_experiment *exp)
{
	const char *id = exp->id;

	if (exp->data)
		return &wl_exp_declared;
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (strcmp(families[i]->id, id) == 0)
			return families[i];
	for (size_t i = 0; i < sizeof(test_only) / sizeof(test_only[0]); i++)
		if (strcmp(test_only[i]->id, id) == 0)
			return test_only[i];
	return NULL;
}

static int in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

/* Whether variant v's launch declaration is one ops can make: declared,
 * naming only its buffers, and an output it knows (or none where it has one). */
static int check_host(const struct wl_experiment_ops *ops, const struct wl_experiment *exp,
		      const struct wl_variant_def *v, struct wl_error *err)
{
	const struct wl_launch_decl *d = &v->host;
	char known[256] = "";

	if (d->dims == 0) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "experiment '%s' variant '%s': the catalog declares no launch ('host')",
			     exp->id, v->id);
		return -1;
	}
	for (int i = 0; i < d->nargs; i++)
		if (d->args[i].kind == WL_ARG_BUFFER && !in_list(ops->buffers, d->args[i].buffer)) {
			wl_list_join(ops->buffers, known, sizeof(known));
			wl_error_set(err, WL_ERR_CONFIG,
				     "experiment '%s' variant '%s' host.args[%d]: '%s' is no buffer of this family (allowed: %s)",
				     exp->id, v->id, i, d->args[i].buffer, known);
			return -1;
		}
	if (ops->outputs ? !d->output || !in_list(ops->outputs, d->output) : d->output != NULL) {
		if (ops->outputs)
			wl_list_join(ops->outputs, known, sizeof(known));
		wl_error_set(err, WL_ERR_CONFIG,
			     "experiment '%s' variant '%s' host.output: '%s' is not one this family writes (allowed: %s)",
			     exp->id, v->id, d->output ? d->output : "(none)", ops->outputs ? known : "none");
		return -1;
	}
	return 0;
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
		const struct wl_experiment_ops *ops = wl_experiment_ops_find(&cat->experiments[i]);

		if (!ops) {
			wl_list_append(missing, sizeof(missing), id);
			continue;
		}
		for (size_t v = 0; v < cat->experiments[i].nvariants; v++)
			if (check_host(ops, &cat->experiments[i], &cat->experiments[i].variants[v], err) < 0)
				return -1;
	}
	if (missing[0]) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "the catalog lists experiments this runner does not implement: %s",
			     missing);
		return -1;
	}
	return 0;
}

void wl_experiment_options(const struct wl_experiment_ops *ops, const struct wl_point *pt, char *out,
			   size_t len)
{
	if (ops->options)
		ops->options(pt, out, len);
	else if (len > 0)
		out[0] = '\0';
}
