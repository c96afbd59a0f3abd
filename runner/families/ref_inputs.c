/* What the references share (references.h): finding the point's buffers
 * they read. */

#include "references.h"

const struct wl_ref_buffer *wl_ref_input(const struct wl_ref_point *in, size_t k, const char *reference,
					 struct wl_error *err)
{
	size_t want = k;

	for (size_t i = 0; i < in->nbufs; i++) {
		const struct wl_buffer_def *d = in->bufs[i].def;

		if (d->output || !d->type.is_float || d->init.kind == WL_INIT_NONE)
			continue;
		if (k-- > 0)
			continue;
		if (wl_declared_addressable(d))
			return &in->bufs[i];
		break;
	}
	wl_error_set(err, WL_ERR_CONFIG,
		     "reference '%s' needs input %zu of floating-point elements filled element by element "
		     "(zeros, index, constant, random, random_int or nonzero_int)", reference, want + 1);
	return NULL;
}

int wl_ref_floats(const struct wl_ref_point *in, const char *reference, struct wl_error *err)
{
	const struct wl_ref_buffer *first = NULL;

	for (size_t i = 0; i < in->nbufs && !first; i++)
		if (!in->bufs[i].def->output && in->bufs[i].def->type.is_float)
			first = &in->bufs[i];
	if (first && first->def->type.base == WL_ELEM_FLOAT && in->output->def->type.base == WL_ELEM_FLOAT)
		return 0;
	wl_error_set(err, WL_ERR_CONFIG, "reference '%s' compares floats: its input and output must hold float",
		     reference);
	return -1;
}
