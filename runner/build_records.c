/* A run's build notes (see build_records.h): a short list, one entry per
 * (variant, options), searched linearly — a run has a few variants and
 * fewer option sets. */
#include "build_records.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_point.h"
#include "nvrtc.h"
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

/* The kernel's own figures as pt's device reports them, with an empty list
 * of launches; NULL when out of memory. */
static json_t *kernel_figures(const struct wl_point *pt, const struct wl_launch *l)
{
	char name[256] = "";
	json_t *json = json_object();

	if (!json)
		return NULL;
	clGetKernelInfo(l->kernel, CL_KERNEL_FUNCTION_NAME, sizeof(name) - 1, name, NULL);
	json_object_set_new(json, "kernel", json_string(name));
	kernel_figure(json, "local_bytes", l->kernel, pt->dev->device, CL_KERNEL_LOCAL_MEM_SIZE, 0);
	kernel_figure(json, "private_bytes", l->kernel, pt->dev->device, CL_KERNEL_PRIVATE_MEM_SIZE, 0);
	kernel_figure(json, "max_work_group", l->kernel, pt->dev->device, CL_KERNEL_WORK_GROUP_SIZE, 1);
	kernel_figure(json, "preferred_multiple", l->kernel, pt->dev->device,
		      CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, 1);
	json_object_set_new(json, "launches", json_array());
	return json;
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
	for (cl_uint d = 0; d < l->dims; d++) {
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

/* A CUDA build's "driver": NVRTC's version with the driver's, so that a
 * build of the same source by another compiler is another build. */
static char *cuda_driver(const struct wl_point *pt, const char *driver)
{
	char text[96];

	snprintf(text, sizeof(text), "NVRTC %d.%d, driver %s", pt->dev->nvrtc ? pt->dev->nvrtc->major : 0,
		 pt->dev->nvrtc ? pt->dev->nvrtc->minor : 0, driver ? driver : "");
	return strdup(text);
}

void wl_build_records_note(struct wl_build_records *r, const struct wl_point *pt, const char *options,
			   const struct wl_launch *l, long long local_arg_bytes)
{
	const char *variant = pt->variant ? pt->variant : "";
	struct wl_program_texts texts;
	const char *driver = json_string_value(json_object_get(pt->dev->info, "driver"));
	struct build_note *n;

	for (n = r->head; n; n = n->next) {
		if (strcmp(n->variant, variant) == 0 && strcmp(n->options, options) == 0) {
			/* Known: a new shape of launch is written again. */
			if (add_launch(json_object_get(n->kernel, "launches"), pt, l, local_arg_bytes))
				n->written = 0;
			return;
		}
	}
	memset(&texts, 0, sizeof(texts));
	if ((pt->cuda ? !l->cuda : wl_program_account(pt->programs, pt->dev, pt->source, options, &texts) < 0) ||
	    !(n = calloc(1, sizeof(*n))))
		return;
	if (pt->cuda) {
		n->kernel = wl_cuda_call_account(l->cuda, &texts.log, &texts.ptx);
		if (n->kernel)
			json_object_set_new(n->kernel, "launches", json_array());
		if (texts.ptx && strlen(texts.ptx) > WL_ACCOUNT_PTX_MAX) {
			texts.ptx_dropped = strlen(texts.ptx);
			texts.ptx = NULL;
		}
	}
	n->variant = strdup(variant);
	n->options = strdup(options);
	n->device = strdup(pt->dev->id);
	n->driver = pt->cuda ? cuda_driver(pt, driver) : strdup(driver ? driver : "");
	n->log = strdup(texts.log);
	n->ptx = texts.ptx ? strdup(texts.ptx) : NULL;
	if (!pt->cuda)
		n->kernel = kernel_figures(pt, l);
	if (n->kernel && texts.ptx_dropped) {
		json_object_set_new(n->kernel, "ptx_dropped_bytes", json_integer((json_int_t)texts.ptx_dropped));
		json_object_set_new(n->kernel, "ptx_kept_max", json_integer(WL_ACCOUNT_PTX_MAX));
	}
	memcpy(n->hash, pt->source->hash, sizeof(n->hash));
	if (!n->variant || !n->options || !n->device || !n->driver || !n->log || (texts.ptx && !n->ptx) ||
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
