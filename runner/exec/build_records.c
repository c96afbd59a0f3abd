/* A run's build notes (see build_records.h): a short list, one entry per
 * (variant, options), searched linearly — a run has a few variants and
 * fewer option sets. */
#include "build_records.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "point.h"
#include "points.h"

/* Distinct launches of one build kept per note: a sweep whose local memory
 * grows with a parameter shows how occupancy follows it. */
#define LAUNCHES_MAX 16

struct build_note {
	char *variant, *options, *device, *driver, *log, *ptx;
	json_t *kernel;		/* its figures, with "launches" */
	char hash[17];
	int written;
	struct build_note *next;
};

static void note_free(struct build_note *n)
{
	free(n->variant);
	free(n->options);
	free(n->device);
	free(n->driver);
	json_decref(n->kernel);
	free(n->log);
	free(n->ptx);
	free(n);
}

void wl_build_records_clear(struct wl_build_records *r)
{
	while (r->head) {
		struct build_note *next = r->head->next;

		note_free(r->head);
		r->head = next;
	}
}

/* Add l's shape at pt to launches unless one alike is there: {"at": the
 * point, "work_group": sizes or null (the driver chose), "local_arg_bytes"}.
 * Returns whether it was added. */
static int add_launch(json_t *launches, const struct wl_point *pt, const struct wl_launch *l,
		      long long local_arg_bytes)
{
	json_t *group = json_array(), *launch, *old;
	char at[200];
	int chosen = 1;
	size_t i;

	if (!group)
		return 0;
	for (unsigned d = 0; d < l->dims; d++) {
		json_array_append_new(group, json_integer((json_int_t)l->local[d]));
		chosen = chosen && l->local[d] == 0;
	}
	if (chosen) {
		json_decref(group);
		group = json_null();
	}
	json_array_foreach(launches, i, old) {
		if (json_equal(json_object_get(old, "work_group"), group) &&
		    json_integer_value(json_object_get(old, "local_arg_bytes")) == local_arg_bytes) {
			json_decref(group);
			return 0;
		}
	}
	if (json_array_size(launches) >= LAUNCHES_MAX) {
		json_decref(group);
		return 0;
	}
	wl_point_text(pt->exp, pt->values, at, sizeof(at));
	launch = json_pack("{s:s, s:o, s:I}", "at", at, "work_group", group, "local_arg_bytes",
			   (json_int_t)local_arg_bytes);
	return launch && json_array_append_new(launches, launch) == 0;
}

void wl_build_records_note(struct wl_build_records *r, const struct wl_point *pt, const char *options,
			   const struct wl_launch *l, long long local_arg_bytes)
{
	const char *variant = pt->variant ? pt->variant : "";
	const char *log = NULL, *ptx = NULL;
	size_t ptx_dropped = 0;
	struct wl_kernel_site site;
	struct build_note *n;

	for (n = r->head; n; n = n->next) {
		if (strcmp(n->variant, variant) == 0 && strcmp(n->options, options) == 0) {
			/* Known: a new shape of launch is written again. */
			if (add_launch(json_object_get(n->kernel, "launches"), pt, l, local_arg_bytes))
				n->written = 0;
			return;
		}
	}
	if (!(n = calloc(1, sizeof(*n))))
		return;
	site = wl_point_site(pt);
	n->kernel = pt->backend->account(&site, options, l, &log, &ptx, &ptx_dropped);
	if (n->kernel)
		json_object_set_new(n->kernel, "launches", json_array());
	if (ptx && strlen(ptx) > WL_ACCOUNT_PTX_MAX) {
		ptx_dropped = strlen(ptx);
		ptx = NULL;
	}
	n->variant = strdup(variant);
	n->options = strdup(options);
	n->device = strdup(pt->dev->id);
	n->driver = pt->backend->compiler(pt->dev);
	n->log = strdup(log ? log : "");
	n->ptx = ptx ? strdup(ptx) : NULL;
	if (n->kernel && ptx_dropped) {
		json_object_set_new(n->kernel, "ptx_dropped_bytes", json_integer((json_int_t)ptx_dropped));
		json_object_set_new(n->kernel, "ptx_kept_max", json_integer(WL_ACCOUNT_PTX_MAX));
	}
	memcpy(n->hash, pt->source->hash, sizeof(n->hash));
	if (!n->variant || !n->options || !n->device || !n->driver || !n->log || (ptx && !n->ptx) ||
	    !n->kernel || !add_launch(json_object_get(n->kernel, "launches"), pt, l, local_arg_bytes)) {
		note_free(n);
		return;
	}
	n->next = r->head;
	r->head = n;
}

int wl_build_records_flush(struct wl_build_records *r, struct wl_store *st, long long run_id,
			   struct wl_error *err)
{
	for (struct build_note *n = r->head; n; n = n->next) {
		char *kernel;
		int rc;

		if (n->written)
			continue;
		kernel = json_dumps(n->kernel, JSON_COMPACT);
		if (!kernel) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
		rc = wl_store_put_build(st, run_id, &(const struct wl_build_row){ n->variant, n->options, n->device,
								      n->driver, n->hash, kernel, n->log, n->ptx },
					err);
		free(kernel);
		if (rc < 0)
			return -1;
		n->written = 1;
	}
	return 0;
}
