/* The family of experiments declared as data (catalog/exp_data.h): an
 * experiment a request brings of its own, whose buffers, scalars, defines
 * and check the host code reads instead of holding them in C. At each
 * point its buffers are filled as declared (declared_fill.h); each variant
 * is built with the params it defines, timed as every family's are, then
 * launched once more on outputs filled afresh and read back, and compared
 * with what the variant the check names made from the same inputs
 * (declared_check.h), which is launched once, the same way, before the
 * first variant is measured. A check of "none" leaves the results "not
 * checked". Every variant is someone else's code: the executor runs it as
 * a custom kernel (its failures fail its point, under the supervisor's eye). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "declared_check.h"
#include "declared_fill.h"
#include "experiments.h"
#include "rng.h"

struct declared_buf {
	const struct wl_buffer_def *def;
	size_t count, bytes;
	struct wl_buf mem;
	void *first;		/* an output's first contents, written again before each check (NULL: poisoned) */
	void *ref;		/* an output as the reference variant left it, or NULL */
};

struct declared_state {
	const struct wl_exp_data *d;
	size_t nbufs, nargs;
	struct declared_buf bufs[WL_DATA_BUFFERS_MAX];
	unsigned char scalars[WL_DATA_SCALARS_MAX][8];
	struct wl_arg_buffer args[WL_DATA_BUFFERS_MAX + WL_DATA_SCALARS_MAX];
	void *got;		/* host memory an output is read into for its check */
	int ref_made;
	char ref_failed[400];	/* why there is no reference, or "" */
};

static void declared_teardown(void *state)
{
	struct declared_state *s = state;

	if (!s)
		return;
	for (size_t i = 0; i < s->nbufs; i++) {
		wl_buf_release(&s->bufs[i].mem);
		free(s->bufs[i].first);
		free(s->bufs[i].ref);
	}
	free(s->got);
	free(s);
}

/* The -D definitions the experiment declares, at pt. */
static void declared_options(const struct wl_point *pt, char *out, size_t len)
{
	out[0] = '\0';
	wl_exp_data_options(pt->exp->data, pt->values, out, len);
}

/* Buffer i made on the device and filled as declared; an output keeps its
 * first contents for its checks. */
static int make_buffer(const struct wl_point *pt, struct declared_state *s, size_t i, long long rows,
		       long long per_row, struct wl_error *err)
{
	struct declared_buf *b = &s->bufs[i];
	enum wl_buf_role role = !b->def->output ? WL_BUF_IN : b->def->init.kind == WL_INIT_NONE ? WL_BUF_OUT :
		WL_BUF_SCRATCH;
	void *host = NULL;

	if (b->def->init.kind != WL_INIT_NONE) {
		if (!(host = malloc(b->bytes)) ||
		    wl_declared_fill(b->def, b->count, wl_rng_derive(pt->seed, i + 1), rows, per_row, host) < 0) {
			free(host);
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory for buffer '%s' (%zu bytes)", b->def->name,
				     b->bytes);
			return -1;
		}
	}
	if (wl_point_buffer(pt, role, b->bytes, host, &b->mem, err) < 0) {
		free(host);
		return -1;
	}
	if (b->def->output)
		b->first = host;
	else
		free(host);
	return 0;
}

static int declared_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	const struct wl_exp_data *d = pt->exp->data;
	struct declared_state *s = calloc(1, sizeof(*s));
	long long rows = 0, per_row = 0;
	size_t largest = 0;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->d = d;
	if (wl_exp_data_check_point(d, pt->values, 0, err) < 0 || wl_exp_data_csr(d, pt->values, &rows, &per_row) < 0)
		goto fail;
	for (size_t i = 0; i < d->nbuffers; i++) {
		struct declared_buf *b = &s->bufs[i];
		long long count, bytes;
		const char *why;

		b->def = &d->buffers[i];
		wl_buffer_size(b->def, pt->values, &count, &bytes, &why);
		b->count = (size_t)count;
		b->bytes = (size_t)bytes;
		s->nbufs = i + 1;
		if (make_buffer(pt, s, i, rows, per_row, err) < 0)
			goto fail;
		if (b->def->output && b->bytes > largest)
			largest = b->bytes;
		s->args[s->nargs++] = (struct wl_arg_buffer){ .name = b->def->name, .mem = &b->mem };
	}
	for (size_t i = 0; i < d->nscalars; i++) {
		const struct wl_scalar_def *c = &d->scalars[i];
		long long v = 0;
		const char *why;

		if (!c->type.is_float && wl_expr_eval(&c->value, pt->values, &v, &why) < 0) {
			wl_error_set(err, WL_ERR_CONFIG, "scalar '%s': %s", c->name, why);
			goto fail;
		}
		wl_declared_store(&c->type, s->scalars[i], 0, c->type.is_float ? c->real : (double)v);
		s->args[s->nargs++] = (struct wl_arg_buffer){ .name = c->name, .value = s->scalars[i],
							      .bytes = c->type.lane_bytes };
	}
	if (largest && !(s->got = malloc(largest))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory for the outputs' check (%zu bytes)", largest);
		goto fail;
	}
	*state = s;
	return 0;
fail:
	declared_teardown(s);
	return -1;
}

/* The outputs as they were before any launch: written again, or poisoned
 * where nothing filled them, so an element a kernel does not write is
 * seen. */
static int outputs_afresh(const struct wl_point *pt, struct declared_state *s, struct wl_error *err)
{
	for (size_t i = 0; i < s->nbufs; i++) {
		struct declared_buf *b = &s->bufs[i];
		int rc;

		if (!b->def->output)
			continue;
		rc = b->first ? pt->backend->write(pt->dev, &b->mem, b->bytes, b->first, err) :
			wl_point_poison(pt, &b->mem, b->bytes, err);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* One launch of l on outputs afresh, waited for (under its probe's
 * deadline: it may be the kernel's first). */
static int checked_launch(const struct wl_point *pt, struct declared_state *s, const struct wl_launch *l,
			  struct wl_error *err)
{
	double ms;
	int refused = 0;

	if (outputs_afresh(pt, s, err) < 0)
		return -1;
	return wl_point_once(pt, l, &ms, &refused, err);
}

/* The reference: the check's variant launched once on the point's inputs,
 * its outputs kept. -1 with err where it cannot be made. */
static int make_reference(const struct wl_point *pt, struct declared_state *s, const char *options,
			  struct wl_error *err)
{
	const struct wl_variant_def *ref = &pt->exp->variants[s->d->check.against];
	struct wl_point rpt = *pt;
	struct wl_launch l = { 0 };
	int rc = -1;

	rpt.variant = ref->id;
	rpt.builds = NULL;
	if (wl_point_prepare(&rpt, ref, options, s->args, s->nargs, &l, err) < 0 ||
	    checked_launch(&rpt, s, &l, err) < 0)
		goto out;
	for (size_t i = 0; i < s->nbufs; i++) {
		struct declared_buf *b = &s->bufs[i];

		if (!b->def->output)
			continue;
		if (!(b->ref = malloc(b->bytes))) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory for the reference of '%s'", b->def->name);
			goto out;
		}
		if (wl_point_read(&rpt, &b->mem, b->bytes, b->ref, err) < 0)
			goto out;
	}
	rc = 0;
out:
	wl_launch_release(&l);
	return rc;
}

/* v's outputs of its launch l against the reference, into res. */
static int check_outputs(const struct wl_point *pt, struct declared_state *s, const struct wl_launch *l,
			 struct wl_measurement *res, struct wl_error *err)
{
	const char *reference = pt->exp->variants[s->d->check.against].id;

	if (checked_launch(pt, s, l, err) < 0)
		return -1;
	res->verified = 1;
	for (size_t i = 0; i < s->nbufs && res->verified; i++) {
		struct declared_buf *b = &s->bufs[i];

		if (!b->def->output)
			continue;
		if (wl_point_read(pt, &b->mem, b->bytes, s->got, err) < 0)
			return -1;
		res->verified = wl_declared_compare(b->def, &s->d->check, reference, s->got, b->ref, b->count,
						    res->error, sizeof(res->error));
	}
	return 0;
}

static int declared_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			    struct wl_measurement *res, struct wl_error *err)
{
	struct declared_state *s = state;
	struct wl_launch l = { 0 };
	char options[512];
	int rc = -1, against = s->d->check.kind == WL_CHECK_AGAINST;

	declared_options(pt, options, sizeof(options));
	/* The reference is made before the first variant is measured; a
	 * reference that fails fails its own point, and leaves the others
	 * timed but not checked. */
	if (against && !s->ref_made && !s->ref_failed[0]) {
		struct wl_error why;

		wl_error_clear(&why);
		if (make_reference(pt, s, options, &why) == 0) {
			s->ref_made = 1;
		} else {
			snprintf(s->ref_failed, sizeof(s->ref_failed), "%.399s", why.msg);
			if (strcmp(v->id, pt->exp->variants[s->d->check.against].id) == 0) {
				*err = why;
				return -1;
			}
		}
	}
	if (wl_point_prepare(pt, v, options, s->args, s->nargs, &l, err) < 0)
		return -1;
	if (wl_point_time(pt, &l, res, err) < 0)
		goto out;
	rc = 0;
	if (res->error[0])
		goto out;
	if (!against) {
		res->verified = -1;
	} else if (s->ref_failed[0]) {
		res->verified = 0;
		snprintf(res->error, sizeof(res->error), "not checked: its reference, variant '%s', failed: %.300s",
			 pt->exp->variants[s->d->check.against].id, s->ref_failed);
	} else if (check_outputs(pt, s, &l, res, err) < 0) {
		rc = -1;
		goto out;
	}
	rc = wl_point_extras(pt, &l, res, err);
out:
	wl_launch_release(&l);
	return rc;
}

const struct wl_experiment_ops wl_exp_declared = {
	.id = "(declared)",
	.setup = declared_setup,
	.measure = declared_measure,
	.teardown = declared_teardown,
	.options = declared_options,
};
