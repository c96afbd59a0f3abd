/* The registry of the references the catalog names: a new one is a
 * ref_*.c file and a line here. */
#include <stdio.h>
#include <string.h>

#include "references.h"
#include "json_strict.h"

extern const struct wl_reference wl_ref_copy, wl_ref_gather, wl_ref_transpose, wl_ref_sum, wl_ref_dot,
	wl_ref_myadd, wl_ref_minplus, wl_ref_banks;

static const struct wl_reference *const references[] = {
	&wl_ref_copy, &wl_ref_gather, &wl_ref_transpose, &wl_ref_sum,
	&wl_ref_dot,  &wl_ref_myadd,  &wl_ref_minplus,   &wl_ref_banks,
};

const struct wl_reference *wl_reference_find(const char *name)
{
	for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++)
		if (strcmp(references[i]->name, name) == 0)
			return references[i];
	return NULL;
}

void wl_reference_names(char *out, size_t len)
{
	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++)
		wl_list_append(out, len, references[i]->name);
}

int wl_reference_serves(const struct wl_reference *r, const struct wl_point *a, const struct wl_point *b)
{
	if (!r->reads)
		return memcmp(a->values, b->values, a->exp->nparams * sizeof(*a->values)) == 0;
	for (size_t i = 0; r->reads[i]; i++) {
		int p = wl_experiment_param(a->exp, r->reads[i]);

		if (p >= 0 && a->values[p] != b->values[p])
			return 0;
	}
	return 1;
}
