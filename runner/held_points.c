/* A run's points waiting for their counters (see held_points.h). */
#include "held_points.h"

#include <stdlib.h>

static void forget(struct wl_held_point *p)
{
	for (size_t i = 0; p->pr.failures && i < p->nvariants; i++)
		free(p->pr.failures[i]);
	free(p->pr.failures);
	free(p->pr.ms);
	free(p->params_text);
}

int wl_held_points_add(struct wl_held_points *h, const struct wl_point *pt, char **params_text,
		       struct wl_point_results *pr, size_t nvariants, size_t upto, struct wl_error *err)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		struct wl_held_point *grown = realloc(h->v, cap * sizeof(*grown));

		if (!grown) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
		h->v = grown;
		h->cap = cap;
	}
	h->v[h->n++] = (struct wl_held_point){ .pt = *pt, .params_text = *params_text, .pr = *pr,
					       .nvariants = nvariants, .upto = upto };
	*params_text = NULL;
	pr->ms = NULL;
	pr->failures = NULL;
	return 0;
}

int wl_held_points_record(struct wl_held_points *h, struct wl_store *st, long long runner_id, long long run_id,
			  const struct wl_run_variant *variants, struct wl_error *err)
{
	int rc = 0;

	for (size_t i = 0; i < h->n; i++) {
		struct wl_held_point *p = &h->v[i];

		if (rc == 0)
			rc = wl_point_results_record(st, runner_id, run_id, &p->pt, variants, p->params_text, &p->pr,
						     p->upto, err);
		forget(p);
	}
	h->n = 0;
	return rc;
}

void wl_held_points_free(struct wl_held_points *h)
{
	for (size_t i = 0; i < h->n; i++)
		forget(&h->v[i]);
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}
