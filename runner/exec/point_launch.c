/* A variant's launch as the catalog declares it (launch_decl.h), made at a
 * point: the work-group and grid sizes, a persistent grid sized to the
 * device, and the kernel's arguments bound from the family's buffers. */
#include "point.h"

#include "backend.h"
#include "build_records.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Work-items a compute unit keeps resident, for a persistent grid: what
 * NVIDIA's SMs hold (2048 threads) and near what others do. */
#define RESIDENT_ITEMS_PER_UNIT 2048

static const struct wl_arg_buffer *find_buffer(const struct wl_arg_buffer *buffers, size_t n,
					       const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(buffers[i].name, name) == 0)
			return &buffers[i];
	return NULL;
}

/* Work-groups of a persistent grid: as many as the device keeps resident,
 * fewer for small inputs, at least one. */
static size_t persistent_groups(const struct wl_point *pt, long long fill, long long local)
{
	size_t per_unit = local >= RESIDENT_ITEMS_PER_UNIT ? 1 : RESIDENT_ITEMS_PER_UNIT / (size_t)local;
	size_t groups = pt->dev->compute_units * per_unit;
	size_t most = (size_t)(fill / local);

	if (groups > most)
		groups = most;
	return groups ? groups : 1;
}

static int bind_arg(const struct wl_point *pt, const struct wl_variant_def *v, int i,
		    const struct wl_arg_buffer *buffers, size_t nbuffers, struct wl_launch *l,
		    struct wl_error *err)
{
	const struct wl_launch_arg *a = &v->host.args[i];
	const struct wl_arg_buffer *b;
	const char *why = NULL;
	long long value;

	if (a->kind == WL_ARG_BUFFER) {
		b = find_buffer(buffers, nbuffers, a->buffer);
		if (!b) {
			wl_error_set(err, WL_ERR_CONFIG,
				     "variant '%s' host.args[%d]: '%s' is no buffer of %s", v->id, i,
				     a->buffer, pt->exp->id);
			return -1;
		}
		return b->mem ? pt->backend->arg_buffer(l, (unsigned)i, b->mem, err) :
			pt->backend->arg_value(l, (unsigned)i, b->value, b->bytes, err);
	}
	if (wl_expr_eval(&a->value, pt->values, &value, &why) < 0 || value < INT32_MIN ||
	    value > (long long)UINT32_MAX) {
		wl_error_set(err, WL_ERR_CONFIG,
			     "variant '%s' host.args[%d]: %s", v->id, i,
			     why ? why : "the value does not fit in 32 bits");
		return -1;
	}
	return a->kind == WL_ARG_LOCAL ? pt->backend->arg_local(l, (unsigned)i, (size_t)value, err)
				       : pt->backend->arg_word(l, (unsigned)i, (uint32_t)value, err);
}

int wl_point_launch(const struct wl_point *pt, const struct wl_variant_def *v,
		    const struct wl_arg_buffer *buffers, size_t nbuffers, struct wl_launch *l,
		    struct wl_error *err)
{
	struct wl_launch_size size;

	if (wl_launch_decl_size(&v->host, pt->values, &size, err) < 0)
		return -1;
	l->dims = (unsigned)size.dims;
	for (int d = 0; d < size.dims; d++) {
		l->global[d] = (size_t)size.global[d];
		l->local[d] = (size_t)size.local[d];
	}
	if (v->host.has_fill)
		l->global[0] = persistent_groups(pt, size.fill, size.local[0]) * (size_t)size.local[0];
	/* A backend without a driver-chosen block (CUDA): the largest power of
	 * two up to 256 that divides the grid along x, one thread deep
	 * elsewhere. */
	if (!pt->backend->driver_block && l->local[0] == 0)
		for (unsigned d = 0; d < l->dims; d++) {
			size_t b = d == 0 ? 256 : 1;

			while (b > 1 && l->global[d] % b)
				b /= 2;
			l->local[d] = b;
		}
	for (int i = 0; i < v->host.nargs; i++)
		if (bind_arg(pt, v, i, buffers, nbuffers, l, err) < 0)
			return -1;
	return 0;
}

int wl_point_prepare(const struct wl_point *pt, const struct wl_variant_def *v, const char *options,
		     const struct wl_arg_buffer *buffers, size_t nbuffers, struct wl_launch *l,
		     struct wl_error *err)
{
	const struct wl_kernel_site site = wl_point_site(pt);

	if (wl_point_kernel(pt, options, v->kernel, l, err) < 0)
		return -1;
	if (wl_point_launch(pt, v, buffers, nbuffers, l, err) < 0 ||
	    (pt->backend->bound && pt->backend->bound(&site, l, err) < 0)) {
		wl_launch_release(l);
		return -1;
	}
	if (pt->builds)
		wl_build_records_note(pt->builds, pt, options, l, wl_launch_decl_local_arg_bytes(&v->host, pt->values));
	return 0;
}
