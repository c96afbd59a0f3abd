/* A run's build notes (see build_records.h): a short list, one entry per
 * (variant, options), searched linearly — a run has a few variants and
 * fewer option sets. */
#include "build_records.h"

#include <stdlib.h>
#include <string.h>

#include "point.h"

struct build_note {
	char *variant, *options, *device, *driver, *kernel_json, *log, *ptx;
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
	free(n->kernel_json);
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

/* One of the kernel's clGetKernelWorkGroupInfo figures into json as name,
 * when the driver gives it. */
static void kernel_figure(json_t *json, const char *name, cl_kernel k, cl_device_id dev,
			  cl_kernel_work_group_info what, int is_size_t)
{
	size_t size = 0;
	cl_ulong ulong = 0;
	cl_int rc = is_size_t ? clGetKernelWorkGroupInfo(k, dev, what, sizeof(size), &size, NULL)
			      : clGetKernelWorkGroupInfo(k, dev, what, sizeof(ulong), &ulong, NULL);

	if (rc == CL_SUCCESS)
		json_object_set_new(json, name, json_integer(is_size_t ? (json_int_t)size : (json_int_t)ulong));
}

/* The kernel's own figures as pt's device reports them, as JSON text. */
static char *kernel_figures(const struct wl_point *pt, const struct wl_launch *l, cl_ulong static_local)
{
	char name[256] = "";
	json_t *json = json_object(), *group = json_array();
	char *text = NULL;
	int chosen = 1;

	if (json && group) {
		clGetKernelInfo(l->kernel, CL_KERNEL_FUNCTION_NAME, sizeof(name) - 1, name, NULL);
		json_object_set_new(json, "kernel", json_string(name));
		for (cl_uint d = 0; d < l->dims; d++) {
			json_array_append_new(group, json_integer((json_int_t)l->local[d]));
			chosen = chosen && l->local[d] == 0;
		}
		/* All 0: the driver chose the size, and nobody knows it. */
		json_object_set(json, "work_group", chosen ? json_null() : group);
		json_object_set_new(json, "static_local_bytes", json_integer((json_int_t)static_local));
		kernel_figure(json, "local_bytes", l->kernel, pt->dev->device, CL_KERNEL_LOCAL_MEM_SIZE, 0);
		kernel_figure(json, "private_bytes", l->kernel, pt->dev->device, CL_KERNEL_PRIVATE_MEM_SIZE, 0);
		kernel_figure(json, "max_work_group", l->kernel, pt->dev->device, CL_KERNEL_WORK_GROUP_SIZE, 1);
		kernel_figure(json, "preferred_multiple", l->kernel, pt->dev->device,
			      CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, 1);
		text = json_dumps(json, JSON_COMPACT);
	}
	json_decref(group);
	json_decref(json);
	return text;
}

void wl_build_records_note(struct wl_build_records *r, const struct wl_point *pt, const char *options,
			   const struct wl_launch *l, cl_ulong static_local)
{
	const char *variant = pt->variant ? pt->variant : "", *log = NULL, *ptx = NULL;
	const char *driver = json_string_value(json_object_get(pt->dev->info, "driver"));
	struct build_note *n;

	for (n = r->head; n; n = n->next)
		if (strcmp(n->variant, variant) == 0 && strcmp(n->options, options) == 0)
			return;
	if (wl_program_account(pt->programs, pt->dev, pt->source, options, &log, &ptx) < 0 ||
	    !(n = calloc(1, sizeof(*n))))
		return;
	n->variant = strdup(variant);
	n->options = strdup(options);
	n->device = strdup(pt->dev->id);
	n->driver = strdup(driver ? driver : "");
	n->log = strdup(log);
	n->ptx = ptx ? strdup(ptx) : NULL;
	n->kernel_json = kernel_figures(pt, l, static_local);
	memcpy(n->hash, pt->source->hash, sizeof(n->hash));
	if (!n->variant || !n->options || !n->device || !n->driver || !n->log || (ptx && !n->ptx) ||
	    !n->kernel_json) {
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
		const struct wl_build_row row = { n->variant, n->options, n->device, n->driver,
						  n->hash, n->kernel_json, n->log, n->ptx };

		if (n->written)
			continue;
		if (wl_store_put_build(st, run_id, &row, err) < 0)
			return -1;
		n->written = 1;
	}
	return 0;
}
