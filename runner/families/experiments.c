/* Which host implementation runs an experiment, and whether the catalog's
 * experiments can run: a new experiment is a kernel file and a catalog
 * entry, plus at most a reference (references.h). */
#include <stdio.h>
#include <string.h>

#include "experiments.h"
#include "json_strict.h"
#include "references.h"

/* Experiments that exist for warplab's own tests (a kernel that never ends);
 * a catalog may list them only for a runner started with --test-kernels. */
static const struct wl_experiment_ops *const test_only[] = {
	&wl_exp_test_spin,
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

/* Whether variant v's launch declaration is one its experiment can make:
 * declared, and an output its reference knows (or none where it has no
 * such choice). */
static int check_host(const struct wl_reference *ref, const struct wl_experiment *exp,
		      const struct wl_variant_def *v, struct wl_error *err)
{
	const struct wl_launch_decl *d = &v->host;
	const char *const *outputs = ref ? ref->outputs : NULL;
	char known[256] = "";

	if (d->dims == 0) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "experiment '%s' variant '%s': the catalog declares no launch ('host')",
			     exp->id, v->id);
		return -1;
	}
	if (outputs ? !d->output || !in_list(outputs, d->output) : d->output != NULL) {
		if (outputs)
			wl_list_join(outputs, known, sizeof(known));
		wl_error_set(err, WL_ERR_CONFIG,
			     "experiment '%s' variant '%s' host.output: '%s' is not one its check knows (allowed: %s)",
			     exp->id, v->id, d->output ? d->output : "(none)", outputs ? known : "none");
		return -1;
	}
	return 0;
}

/* The reference exp's check names, where it names one: *out NULL where it
 * names none; -1 where it names one this runner has not. */
static int find_reference(const struct wl_experiment *exp, const struct wl_reference **out, struct wl_error *err)
{
	char names[256];

	*out = NULL;
	if (!exp->data || exp->data->check.kind != WL_CHECK_REFERENCE)
		return 0;
	if ((*out = wl_reference_find(exp->data->check.reference)))
		return 0;
	wl_reference_names(names, sizeof(names));
	wl_error_set(err, WL_ERR_CONFIG, "experiment '%s' check.reference: '%s' is none of the runner's (allowed: %s)",
		     exp->id, exp->data->check.reference, names);
	return -1;
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
		const struct wl_reference *ref;

		if (!ops) {
			wl_list_append(missing, sizeof(missing), id);
			continue;
		}
		if (find_reference(&cat->experiments[i], &ref, err) < 0)
			return -1;
		for (size_t v = 0; ops == &wl_exp_declared && v < cat->experiments[i].nvariants; v++)
			if (check_host(ref, &cat->experiments[i], &cat->experiments[i].variants[v], err) < 0)
				return -1;
	}
	if (missing[0]) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "the catalog lists experiments this runner does not implement: %s (they declare no "
			     "buffers: an experiment declares its buffers, defines and check as data, docs/api.md)",
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
