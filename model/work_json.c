/* A work-group's counts as JSON (see work_json.h): one table of the scalar
 * figures, and the arrays (reuse distances, first-level loads, buffers)
 * written out beside them. */
#include "work_json.h"

#include <stddef.h>
#include <string.h>

#define AT(field) offsetof(struct wl_launch_work, field)

static const struct {
	const char *key;
	size_t offset;
} scalars[] = {
	{ "groups", AT(groups) }, { "items", AT(items) }, { "global_requests", AT(global_requests) },
	{ "atomic_lanes", AT(atomic_lanes) }, { "partial_store_sectors", AT(partial_store_sectors) },
	{ "max_warp_requests", AT(max_warp_requests) }, { "paced_requests", AT(paced_requests) }, { "local_requests", AT(local_requests) },
	{ "max_warp_local", AT(max_warp_local) }, { "atomic_requests", AT(atomic_requests) },
	{ "moved_bytes", AT(moved_bytes) }, { "burst_bytes", AT(burst_bytes) },
	{ "store_moved_bytes", AT(store_moved_bytes) }, { "store_burst_bytes", AT(store_burst_bytes) },
	{ "local_wavefronts", AT(local_wavefronts) }, { "barriers", AT(barriers) },
	{ "warp_instructions", AT(warp_instructions) },
};

#define NSCALARS (sizeof(scalars) / sizeof(scalars[0]))

static const struct {
	const char *key;
	size_t offset;
} buffer_fields[] = {
	{ "bytes", offsetof(struct wl_buffer_use, bytes) },
	{ "read_sectors", offsetof(struct wl_buffer_use, read_sectors) },
	{ "written_sectors", offsetof(struct wl_buffer_use, written_sectors) },
	{ "read_bursts", offsetof(struct wl_buffer_use, read_bursts) },
	{ "written_bursts", offsetof(struct wl_buffer_use, written_bursts) },
	{ "load_sectors", offsetof(struct wl_buffer_use, load_sectors) },
	{ "store_sectors", offsetof(struct wl_buffer_use, store_sectors) },
	{ "cluster_groups", offsetof(struct wl_buffer_use, cluster_groups) },
	{ "cluster_read_sectors", offsetof(struct wl_buffer_use, cluster_read_sectors) },
	{ "cluster_read_sum", offsetof(struct wl_buffer_use, cluster_read_sum) },
	{ "shared_read_sectors", offsetof(struct wl_buffer_use, shared_read_sectors) },
};

#define NBUFFER_FIELDS (sizeof(buffer_fields) / sizeof(buffer_fields[0]))

static double *at(void *base, size_t offset)
{
	return (double *)((char *)base + offset);
}

json_t *wl_work_to_json(const struct wl_launch_work *w)
{
	json_t *o = json_object(), *loads = json_array(), *buffers = json_array();

	if (!o || !loads || !buffers)
		goto fail;
	for (size_t i = 0; i < NSCALARS; i++)
		if (json_object_set_new(o, scalars[i].key, json_real(*at((void *)w, scalars[i].offset))) < 0)
			goto fail;
	for (int i = 0; i < w->nloads && i < WL_LAUNCH_LOADS; i++) {
		const struct wl_first_level *f = &w->loads[i];
		json_t *reuse = json_array();

		for (int b = 0; reuse && b < WL_REUSE_BUCKETS; b++)
			json_array_append_new(reuse, json_real(f->reuse[b]));
		if (!reuse || json_array_append_new(loads, json_pack("{s:f, s:f, s:f, s:f, s:f, s:o}", "requests",
								      f->requests, "passes", f->passes, "lines",
								      f->lines, "touches", f->touches, "concurrent",
								      f->concurrent, "reuse", reuse)) < 0)
			goto fail;
	}
	for (int b = 0; b < w->nbuffers && b < WL_BUFFERS_MAX; b++) {
		json_t *u = json_pack("{s:b, s:b}", "irregular", w->buffers[b].irregular, "paged", w->buffers[b].paged);

		for (size_t f = 0; u && f < NBUFFER_FIELDS; f++)
			json_object_set_new(u, buffer_fields[f].key,
					    json_real(*at((void *)&w->buffers[b], buffer_fields[f].offset)));
		if (!u || json_array_append_new(buffers, u) < 0)
			goto fail;
	}
	if (json_object_set_new(o, "stores_in_loops", json_boolean(w->stores_in_loops)) < 0 ||
	    json_object_set_new(o, "loads", loads) < 0 || json_object_set_new(o, "buffers", buffers) < 0) {
		loads = buffers = NULL;
		goto fail;
	}
	return o;
fail:
	json_decref(o);
	json_decref(loads);
	json_decref(buffers);
	return NULL;
}

int wl_work_from_json(const json_t *obj, struct wl_launch_work *out)
{
	const json_t *v;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj))
		return 0;
	for (i = 0; i < NSCALARS; i++)
		*at(out, scalars[i].offset) = json_number_value(json_object_get(obj, scalars[i].key));
	out->stores_in_loops = json_is_true(json_object_get(obj, "stores_in_loops"));
	json_array_foreach(json_object_get(obj, "loads"), i, v) {
		struct wl_first_level *f = &out->loads[i];
		const json_t *b;
		size_t k;

		if (i >= WL_LAUNCH_LOADS)
			break;
		f->requests = json_number_value(json_object_get(v, "requests"));
		f->passes = json_number_value(json_object_get(v, "passes"));
		f->lines = json_number_value(json_object_get(v, "lines"));
		f->touches = json_number_value(json_object_get(v, "touches"));
		f->concurrent = json_number_value(json_object_get(v, "concurrent"));
		json_array_foreach(json_object_get(v, "reuse"), k, b)
			if (k < WL_REUSE_BUCKETS)
				f->reuse[k] = json_number_value(b);
		out->nloads = (int)i + 1;
	}
	json_array_foreach(json_object_get(obj, "buffers"), i, v) {
		if (i >= WL_BUFFERS_MAX)
			break;
		for (size_t f = 0; f < NBUFFER_FIELDS; f++)
			*at(&out->buffers[i], buffer_fields[f].offset) =
				json_number_value(json_object_get(v, buffer_fields[f].key));
		out->buffers[i].irregular = json_is_true(json_object_get(v, "irregular"));
		out->buffers[i].paged = json_is_true(json_object_get(v, "paged"));
		out->nbuffers = (int)i + 1;
	}
	return out->groups > 0 && out->items > 0;
}

int wl_traced_prediction(const json_t *figures, struct wl_prediction *out)
{
	const json_t *traced = json_object_get(figures, "traced"), *v;
	int counted;

	memset(out, 0, sizeof(*out));
	out->lanes = (int)json_integer_value(json_object_get(figures, "lanes"));
	if ((v = json_object_get(traced, "efficiency")) && json_is_number(v)) {
		out->has_global = 1;
		out->efficiency = json_number_value(v);
		out->sectors_per_request = json_number_value(json_object_get(traced, "sectors_per_request"));
	}
	if ((v = json_object_get(traced, "conflict_degree")) && json_is_number(v)) {
		out->has_local = 1;
		out->conflict_degree = json_number_value(v);
	}
	counted = wl_work_from_json(json_object_get(traced, "work"), &out->work);
	if (counted) {
		out->groups = out->work.groups;
		out->items = out->work.items;
		out->barriers = out->work.barriers;
		out->moved_bytes = out->work.moved_bytes;
		out->burst_bytes = out->work.burst_bytes;
	}
	return counted;
}
