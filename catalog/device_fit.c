/* Whether a device can hold a run (see device_fit.h): every (variant, point)
 * costed by the catalog's formulas against the device's memory, largest
 * buffer, local memory and work-group size, before anything is queued. */
#include "device_fit.h"

#include <stdio.h>
#include <string.h>

#include "custom_kernels.h"
#include "exp_data.h"
#include "json_strict.h"
#include "points.h"

static void format_bytes(double b, char *buf, size_t len)
{
	if (b >= 1024.0 * 1024 * 1024)
		snprintf(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.0f bytes", b);
}

/* An experiment's own buffers at a point against the device: their sum
 * against its memory, each against its largest allocation, said buffer by
 * buffer. */
static int check_buffers(const struct wl_experiment *exp, const long long *row, const char *where,
			 const struct wl_device_limits *dev, struct wl_error *err)
{
	char list[512] = "", need[32], have[32], item[96];
	double total = 0;

	for (size_t b = 0; b < exp->data->nbuffers; b++) {
		const struct wl_buffer_def *d = &exp->data->buffers[b];
		double bytes = wl_expr_eval_double(&d->count, row) * (double)d->type.bytes;

		total += bytes;
		format_bytes(bytes, need, sizeof(need));
		snprintf(item, sizeof(item), "%s %s", d->name, need);
		wl_list_append(list, sizeof(list), item);
		if (dev->max_alloc > 0 && bytes > dev->max_alloc) {
			char field[64];

			format_bytes(dev->max_alloc, have, sizeof(have));
			snprintf(field, sizeof(field), "experiment.buffers[%zu].count", b);
			wl_error_field(err, WL_ERR_DEVICE_LIMIT, field,
				       "%s: at %s, buffer '%s' of '%s' elements takes %s; device %s allocates at most %s in one buffer",
				       field, where, d->name, d->count_text, need, dev->id, have);
			return -1;
		}
	}
	if (total > dev->global_mem) {
		format_bytes(total, need, sizeof(need));
		format_bytes(dev->global_mem, have, sizeof(have));
		wl_error_field(err, WL_ERR_DEVICE_LIMIT, "experiment.buffers",
			       "experiment.buffers: at %s the buffers take %s (%s); device %s has %s", where, need, list,
			       dev->id, have);
		return -1;
	}
	return 0;
}

int wl_request_check_device(const struct wl_experiment *exp, const json_t *normalized,
			    const struct wl_device_limits *dev, struct wl_error *err)
{
	json_t *variants = json_object_get(normalized, "variants");
	json_t *kernels = json_object_get(normalized, "kernels");
	size_t nbuiltin = json_array_size(variants);
	struct wl_points pts;
	int rc = -1;

	if (wl_request_points(exp, normalized, &pts, err) < 0)
		return -1;
	for (size_t i = 0; i < pts.count; i++) {
		const long long *row = pts.values + i * pts.nparams;

		/* Built-in variants, then custom kernels, which cost what their
		 * "like" variant costs. */
		for (size_t k = 0; k < nbuiltin + json_array_size(kernels); k++) {
			const json_t *custom = k < nbuiltin ? NULL : json_array_get(kernels, k - nbuiltin);
			const struct wl_variant_def *v = custom ? wl_custom_kernel_like(exp, custom) :
				wl_experiment_variant(exp, json_string_value(json_array_get(variants, k)), NULL);
			const char *name = custom ? json_string_value(json_object_get(custom, "name")) :
				v ? v->id : NULL;
			double mem, buf, local, wg;
			char where[256], need[32], have[32];

			if (!v)
				continue;
			wl_point_text(exp, row, where, sizeof(where));
			if (exp->own && k == 0 && check_buffers(exp, row, where, dev, err) < 0)
				goto out;
			mem = wl_variant_cost(exp, v, WL_COST_MEMORY, row);
			buf = wl_variant_cost(exp, v, WL_COST_BUFFER, row);
			local = wl_variant_cost(exp, v, WL_COST_LOCAL, row);
			wg = wl_variant_cost(exp, v, WL_COST_WORK_GROUP, row);
			if (mem > dev->global_mem) {
				format_bytes(mem, need, sizeof(need));
				format_bytes(dev->global_mem, have, sizeof(have));
				wl_error_field(err, WL_ERR_DEVICE_LIMIT, "params",
					       "params: %s (%s) needs %s of device memory; device %s has %s",
					       where, name, need, dev->id, have);
				goto out;
			}
			if (dev->max_alloc > 0 && buf > dev->max_alloc) {
				format_bytes(buf, need, sizeof(need));
				format_bytes(dev->max_alloc, have, sizeof(have));
				wl_error_field(err, WL_ERR_DEVICE_LIMIT, "params",
					       "params: %s (%s) needs a %s buffer; device %s allocates at most %s at once",
					       where, name, need, dev->id, have);
				goto out;
			}
			if (local > dev->local_mem) {
				format_bytes(local, need, sizeof(need));
				format_bytes(dev->local_mem, have, sizeof(have));
				wl_error_field(err, WL_ERR_DEVICE_LIMIT, "params",
					       "params: %s (%s) needs %s of local memory per work-group; device %s has %s",
					       where, name, need, dev->id, have);
				goto out;
			}
			if (wg > (double)dev->max_work_group) {
				wl_error_field(err, WL_ERR_DEVICE_LIMIT, "params",
					       "params: %s (%s) needs work-groups of %.0f work-items; device %s allows at most %lld",
					       where, name, wg, dev->id, dev->max_work_group);
				goto out;
			}
		}
	}
	rc = 0;
out:
	wl_points_free(&pts);
	return rc;
}

int wl_device_runs(const json_t *info, enum wl_language lang)
{
	const json_t *l;
	size_t i;

	if (lang == WL_LANG_OPENCL)
		return 1;
	json_array_foreach(json_object_get(info, "languages"), i, l)
		if (json_is_string(l) && strcmp(json_string_value(l), wl_language_name(lang)) == 0)
			return 1;
	return 0;
}

const char *wl_device_cuda_reason(const json_t *info)
{
	return json_string_value(json_object_get(json_object_get(info, "cuda"), "reason"));
}
