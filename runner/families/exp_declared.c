/* The experiments declared as data (catalog/exp_data.h): the catalog's
 * lessons and an experiment a request brings of its own, whose buffers,
 * scalars, defines and check the host code reads instead of holding them
 * in C. At each point its buffers are filled as declared (declared_fill.h:
 * the generator's floats made on the device, the rest on the host); each
 * variant is built with the params it defines and timed as every
 * experiment's are. Then its output is checked one of three ways:
 * - by a reference the catalog names (references.h), against the output
 *   the timed launches left, read back once;
 * - against the variant the check names: launched once more on outputs
 *   filled afresh and compared with what that variant made from the same
 *   inputs, which is launched once, the same way, before the first variant
 *   is measured; its outputs stay on the device where there is room, and
 *   the two are compared there, read back (declared_check.h) only where
 *   their bits differ;
 * - not at all ("none"): the results say "not checked".
 * A request's own variants are someone else's code: the executor runs them
 * as custom kernels (their failures fail their point, under the
 * supervisor's eye). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_cost.h"
#include "declared_check.h"
#include "declared_fill.h"
#include "experiments.h"
#include "references.h"
#include "rng.h"

struct declared_buf {
	struct wl_buffer_def def;	/* as declared, its type the one the device holds */
	struct wl_fill_at at;		/* what its values are made from */
	size_t count, bytes;
	struct wl_buf mem;
	void *first;		/* an output's first contents, written again before each check (NULL: poisoned) */
	void *ref;		/* an output as the reference variant left it (in staging slot 0), or NULL */
	struct wl_buf ref_mem;	/* where it stays on the device instead, where the device has room */
};

struct declared_state {
	const struct wl_exp_data *d;
	size_t nbufs, nargs;
	struct declared_buf bufs[WL_DATA_BUFFERS_MAX];
	unsigned char scalars[WL_DATA_SCALARS_MAX][8];
	struct wl_arg_buffer args[WL_DATA_BUFFERS_MAX + WL_DATA_SCALARS_MAX];
	size_t largest, outputs;	/* bytes of the largest output and of all of them */
	int ref_made;
	char ref_failed[400];	/* why there is no reference, or "" */
	int in_float;		/* an "fp64" experiment's doubles held as floats */
	const struct wl_reference *reference;	/* the catalog's check, or NULL */
	void *ref_ctx;
	struct wl_ref_buffer ref_bufs[WL_DATA_BUFFERS_MAX];	/* what it reads of the buffers */
	struct declared_buf *output;	/* the one a reference checks */
	int on_device;		/* the reference's outputs stay in ref_mem, compared there */
	struct wl_buf differ;	/* the device comparison's flag */
};

static void declared_teardown(void *state)
{
	struct declared_state *s = state;

	if (!s)
		return;
	if (s->reference && s->reference->release)
		s->reference->release(s->ref_ctx);
	for (size_t i = 0; i < s->nbufs; i++) {
		wl_buf_release(&s->bufs[i].mem);
		wl_buf_release(&s->bufs[i].ref_mem);
		free(s->bufs[i].first);
	}
	wl_buf_release(&s->differ);
	free(s);
}

/* Whether pt runs an "fp64" experiment's doubles as floats. */
static int in_float(const struct wl_point *pt)
{
	return pt->exp->needs_fp64 && !pt->dev->fp64;
}

/* The -D definitions the experiment declares, at pt; an "fp64" one's
 * WL_FP64 where the device holds doubles. */
static void declared_options(const struct wl_point *pt, char *out, size_t len)
{
	out[0] = '\0';
	wl_exp_data_options(pt->exp->data, pt->values, out, len);
	if (pt->exp->needs_fp64 && !in_float(pt))
		snprintf(out + strlen(out), len - strlen(out), "%s" WL_FP64_OPTION, out[0] ? " " : "");
}

/* Buffer i made on the device and filled as declared: the generator's
 * floats and zeros there, the rest on the host and copied; an output keeps
 * its first contents for its checks. */
static int make_buffer(const struct wl_point *pt, struct declared_state *s, size_t i, struct wl_error *err)
{
	struct declared_buf *b = &s->bufs[i];
	/* An output checked against a variant is read on the device too (by
	 * the comparison), so it is no write-only buffer. */
	enum wl_buf_role role = !b->def.output ? WL_BUF_IN :
		b->def.init.kind == WL_INIT_NONE && s->d->check.kind != WL_CHECK_AGAINST ? WL_BUF_OUT : WL_BUF_SCRATCH;
	int small_int_max = wl_declared_device_fill(&b->def);
	void *host = NULL;

	if (small_int_max >= 0) {
		struct wl_rng r = { .state = b->at.seed };
		size_t lanes = (size_t)b->def.type.lanes;

		return wl_point_random(pt, &r, b->count * (lanes == 3 ? 4 : lanes), small_int_max, NULL, role, &b->mem,
				       err);
	}
	if (!b->def.output && b->def.init.kind == WL_INIT_ZEROS)
		return wl_point_buffer(pt, role, b->bytes, NULL, &b->mem, err) < 0 ||
		       pt->backend->fill(pt->dev, &b->mem, 0, b->bytes, err) < 0 ? -1 : 0;
	if (b->def.init.kind != WL_INIT_NONE) {
		if (!(host = malloc(b->bytes)) || wl_declared_fill(&b->def, b->count, &b->at, host) < 0) {
			free(host);
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory for buffer '%s' (%zu bytes)", b->def.name,
				     b->bytes);
			return -1;
		}
	}
	if (wl_point_buffer(pt, role, b->bytes, host, &b->mem, err) < 0) {
		free(host);
		return -1;
	}
	if (b->def.output)
		b->first = host;
	else
		free(host);
	return 0;
}

/* The catalog's reference prepared at pt, on the buffers as made. */
static int prepare_reference(const struct wl_point *pt, struct declared_state *s, struct wl_error *err)
{
	struct wl_ref_buffer *bufs = s->ref_bufs;
	struct wl_ref_point in = { .pt = pt, .bufs = bufs, .nbufs = s->nbufs };

	if (!(s->reference = wl_reference_find(s->d->check.reference))) {
		wl_error_set(err, WL_ERR_CONFIG, "experiment '%s': no reference '%s' in this runner", pt->exp->id,
			     s->d->check.reference);
		return -1;
	}
	for (size_t i = 0; i < s->nbufs; i++) {
		bufs[i] = (struct wl_ref_buffer){ .def = &s->bufs[i].def, .count = s->bufs[i].count, .at = s->bufs[i].at };
		if (s->bufs[i].def.output) {
			if (in.output) {
				wl_error_set(err, WL_ERR_CONFIG, "experiment '%s': reference '%s' checks one output, not '%s' and '%s'",
					     pt->exp->id, s->reference->name, in.output->def->name, s->bufs[i].def.name);
				return -1;
			}
			in.output = &bufs[i];
			s->output = &s->bufs[i];
		}
	}
	if (!in.output) {
		wl_error_set(err, WL_ERR_CONFIG, "experiment '%s': reference '%s' needs an output", pt->exp->id,
			     s->reference->name);
		return -1;
	}
	/* The buffers outlive the reference (teardown releases it first); in
	 * does not, and is not kept. */
	if (s->reference->prepare(&in, &s->ref_ctx, err) < 0) {
		s->reference = NULL;
		return -1;
	}
	return 0;
}

/* Room on the device for the reference's outputs beside the outputs, and
 * the comparison's flag: 1 where there is (each place filled once, since a
 * driver may not allocate before), else 0 with nothing kept, as where an
 * output is no whole number of 4-byte words: the reference is then read
 * back to the host. */
static int keep_on_device(const struct wl_point *pt, struct declared_state *s)
{
	struct wl_error why;

	for (size_t i = 0; i < s->nbufs; i++) {
		struct declared_buf *b = &s->bufs[i];

		if (b->def.output && (b->bytes % 4 != 0 ||
				      wl_point_buffer(pt, WL_BUF_SCRATCH, b->bytes, NULL, &b->ref_mem, &why) < 0 ||
				      wl_point_poison(pt, &b->ref_mem, b->bytes, &why) < 0))
			goto none;
	}
	if (wl_point_buffer(pt, WL_BUF_SCRATCH, sizeof(uint32_t), NULL, &s->differ, &why) == 0)
		return 1;
none:
	for (size_t i = 0; i < s->nbufs; i++)
		wl_buf_release(&s->bufs[i].ref_mem);
	return 0;
}

static int declared_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	const struct wl_exp_data *d = pt->exp->data;
	struct declared_state *s = calloc(1, sizeof(*s));
	long long rows = 0, per_row = 0;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->d = d;
	s->in_float = in_float(pt);
	if (wl_exp_data_check_point(d, pt->values, 0, err) < 0 || wl_exp_data_csr(d, pt->values, &rows, &per_row) < 0)
		goto fail;
	for (size_t i = 0; i < d->nbuffers; i++) {
		struct declared_buf *b = &s->bufs[i];
		long long count, bytes;
		const char *why;

		b->def = d->buffers[i];
		if (s->in_float && b->def.type.base == WL_ELEM_DOUBLE) {
			b->def.type.base = WL_ELEM_FLOAT;
			b->def.type.lane_bytes = sizeof(float);
			b->def.type.bytes /= 2;
		}
		wl_buffer_size(&b->def, pt->values, &count, &bytes, &why);
		b->count = (size_t)count;
		b->bytes = (size_t)bytes;
		b->at = (struct wl_fill_at){ .seed = wl_rng_derive(pt->seed, i + 1), .values = pt->values, .rows = rows,
					     .per_row = per_row };
		if (b->def.init.kind == WL_INIT_TRANSPOSE) {
			b->at.source = &s->bufs[b->def.init.source].def;
			b->at.source_seed = s->bufs[b->def.init.source].at.seed;
		}
		s->nbufs = i + 1;
		if (make_buffer(pt, s, i, err) < 0)
			goto fail;
		if (b->def.output && b->bytes > s->largest)
			s->largest = b->bytes;
		if (b->def.output)
			s->outputs += b->bytes;
		s->args[s->nargs++] = (struct wl_arg_buffer){ .name = b->def.name, .mem = &b->mem };
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
	if (d->check.kind == WL_CHECK_REFERENCE && prepare_reference(pt, s, err) < 0)
		goto fail;
	if (d->check.kind == WL_CHECK_AGAINST && !pt->simulated)
		s->on_device = keep_on_device(pt, s);
	*state = s;
	return 0;
fail:
	declared_teardown(s);
	return -1;
}

/* Whether expression e gives the same at values a and b (both failing
 * counts as not). */
static int same_value(const struct wl_expr *e, const long long *a, const long long *b)
{
	long long x, y;
	const char *why;

	return wl_expr_eval(e, a, &x, &why) == 0 && wl_expr_eval(e, b, &y, &why) == 0 && x == y;
}

/* Whether what setup made at prev is what it would make at pt: the same
 * seed, sizes, CSR shape, constants and scalars, and a reference that reads
 * nothing the two differ on. An own check's reference variant is built
 * with the point's defines, so it is made again at pt's first variant. */
static int declared_reuse(const struct wl_point *prev, const struct wl_point *pt, void *state)
{
	struct declared_state *s = state;
	const struct wl_exp_data *d = s->d;
	long long rows = 0, per_row = 0;

	if (prev->exp != pt->exp || pt->exp->data != d || prev->seed != pt->seed || s->in_float != in_float(pt) ||
	    wl_exp_data_csr(d, pt->values, &rows, &per_row) < 0)
		return 0;
	for (size_t i = 0; i < s->nbufs; i++) {
		const struct declared_buf *b = &s->bufs[i];
		long long count, bytes;
		const char *why;

		if (wl_buffer_size(&b->def, pt->values, &count, &bytes, &why) < 0 || (size_t)count != b->count ||
		    (size_t)bytes != b->bytes || rows != b->at.rows || per_row != b->at.per_row ||
		    (b->def.init.kind == WL_INIT_CONSTANT && b->def.init.has_expr &&
		     !same_value(&b->def.init.value_expr, prev->values, pt->values)))
			return 0;
	}
	for (size_t i = 0; i < d->nscalars; i++)
		if (!d->scalars[i].type.is_float && !same_value(&d->scalars[i].value, prev->values, pt->values))
			return 0;
	if (s->reference && !wl_reference_serves(s->reference, prev, pt))
		return 0;
	for (size_t i = 0; i < s->nbufs; i++)
		s->bufs[i].ref = NULL;
	s->ref_made = 0;
	s->ref_failed[0] = '\0';
	return 1;
}

/* The outputs as they were before any launch: written again, or poisoned
 * where nothing filled them, so an element a kernel does not write is
 * seen. */
static int outputs_afresh(const struct wl_point *pt, struct declared_state *s, struct wl_error *err)
{
	for (size_t i = 0; i < s->nbufs; i++) {
		struct declared_buf *b = &s->bufs[i];
		int rc;

		if (!b->def.output)
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

/* Each output and the place its reference is kept on the device swapped:
 * the launches' arguments name the outputs' places, so a launch made and
 * run between two swaps writes the references. */
static void swap_outputs(struct declared_state *s)
{
	for (size_t i = 0; i < s->nbufs; i++) {
		struct declared_buf *b = &s->bufs[i];
		struct wl_buf t = b->mem;

		if (!b->def.output)
			continue;
		b->mem = b->ref_mem;
		b->ref_mem = t;
	}
}

/* The reference: the check's variant launched once on the point's inputs,
 * its outputs kept on the device where there is room, else one after
 * another in staging slot 0 (pinned: read at the bus's speed into pages
 * already there), the output checked going to slot 1. -1 with err where it
 * cannot be made. */
static int make_reference(const struct wl_point *pt, struct declared_state *s, const char *options,
			  struct wl_error *err)
{
	const struct wl_variant_def *ref = &pt->exp->variants[s->d->check.against];
	struct wl_point rpt = *pt;
	struct wl_launch l = { 0 };
	char *held;
	int rc = -1;

	rpt.variant = ref->id;
	rpt.builds = NULL;
	if (s->on_device) {
		/* Swapped before the launch is made: it takes its buffers then. */
		swap_outputs(s);
		rc = wl_point_prepare(&rpt, ref, options, s->args, s->nargs, &l, err) < 0 ||
		     checked_launch(&rpt, s, &l, err) < 0 ? -1 : 0;
		swap_outputs(s);
		goto out;
	}
	if (wl_point_prepare(&rpt, ref, options, s->args, s->nargs, &l, err) < 0 ||
	    checked_launch(&rpt, s, &l, err) < 0 || wl_point_staging(pt, 0, s->outputs, (void **)&held, err) < 0)
		goto out;
	for (size_t i = 0; i < s->nbufs; i++) {
		struct declared_buf *b = &s->bufs[i];

		if (!b->def.output)
			continue;
		if (wl_point_read(&rpt, &b->mem, b->bytes, held, err) < 0)
			goto out;
		b->ref = held;
		held += b->bytes;
	}
	rc = 0;
out:
	wl_launch_release(&l);
	return rc;
}

/* Output b against its reference, into res: on the device where it is
 * kept there, and where the bits differ (a tolerance may pass them, and a
 * failure names the first) read back and compared on the host. */
static int check_output(const struct wl_point *pt, struct declared_state *s, struct declared_buf *b,
			struct wl_measurement *res, struct wl_error *err)
{
	const char *reference = pt->exp->variants[s->d->check.against].id;
	struct wl_error why;
	void *got, *want = b->ref;

	if (s->on_device) {
		if (wl_point_same_on_device(pt, &b->mem, &b->ref_mem, b->bytes, &s->differ, &why) == 1)
			return 0;
		if (wl_point_staging(pt, 0, b->bytes, &want, err) < 0 ||
		    wl_point_read(pt, &b->ref_mem, b->bytes, want, err) < 0)
			return -1;
	}
	if (wl_point_staging(pt, 1, s->largest, &got, err) < 0 || wl_point_read(pt, &b->mem, b->bytes, got, err) < 0)
		return -1;
	res->verified = wl_declared_compare(&b->def, &s->d->check, reference, got, want, b->count, res->error,
					    sizeof(res->error));
	return 0;
}

/* v's outputs of its launch l against the reference, into res. */
static int check_outputs(const struct wl_point *pt, struct declared_state *s, const struct wl_launch *l,
			 struct wl_measurement *res, struct wl_error *err)
{
	if (checked_launch(pt, s, l, err) < 0)
		return -1;
	res->verified = 1;
	for (size_t i = 0; i < s->nbufs && res->verified; i++)
		if (s->bufs[i].def.output && check_output(pt, s, &s->bufs[i], res, err) < 0)
			return -1;
	return 0;
}

/* Variant v checked by the catalog's reference: timed, its output as the
 * timed launches left it read back once and handed to the reference. */
static int measure_referenced(const struct wl_point *pt, struct declared_state *s, const struct wl_variant_def *v,
			      const char *options, struct wl_measurement *res, struct wl_error *err)
{
	struct wl_launch l = { 0 };
	size_t bytes = s->output->bytes;
	const void *got = NULL;
	int rc;

	if (wl_point_prepare(pt, v, options, s->args, s->nargs, &l, err) < 0)
		return -1;
	if (s->reference->extent && s->reference->extent(s->ref_ctx, v, &l, &bytes, res, err) < 0) {
		wl_launch_release(&l);
		return -1;
	}
	/* Doubles held as floats move half the bytes the catalog counts. */
	if (s->in_float) {
		snprintf(res->note, sizeof(res->note), "ran in float: %s has no fp64", pt->dev->id);
		res->bytes = wl_variant_cost(pt->exp, v, WL_COST_BYTES, pt->values) / 2;
	}
	rc = wl_point_run(pt, &l, &s->output->mem, bytes, &got, res, err);
	if (rc > 0)
		s->reference->check(s->ref_ctx, pt, v, got, res);
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

static int declared_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			    struct wl_measurement *res, struct wl_error *err)
{
	struct declared_state *s = state;
	struct wl_launch l = { 0 };
	char options[512];
	int rc = -1, against = s->d->check.kind == WL_CHECK_AGAINST;

	declared_options(pt, options, sizeof(options));
	if (s->reference)
		return measure_referenced(pt, s, v, options, res, err);
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
	.reuse = declared_reuse,
};
