/* A source's kernels and a first draft of an experiment over them (see
 * source_scan.h): kernel_scan.c finds the kernels, kernel_params.c splits
 * their parameters, and this file turns each parameter into what an
 * experiment of one's own passes for it — a buffer, a scalar, a param
 * expression or local memory — by the rules the header lists. */
#include "source_scan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem_type.h"
#include "json_strict.h"
#include "kernel_params.h"
#include "kernel_scan.h"
#include "request_own.h"

/* The draft's params, as the header says. */
static const char DRAFT_PARAMS[] =
	"[{\"name\": \"n\", \"type\": \"int\", \"min\": 1024, \"max\": 268435456, \"default\": 1048576, "
	"\"multiple_of\": 1024}, {\"name\": \"local\", \"type\": \"int\", \"min\": 32, \"max\": 1024, "
	"\"default\": 256, \"pow2\": true}]";
#define DRAFT_SCALAR_VALUE "1.5"
#define DRAFT_INT_INIT "random_int:0:255"
#define DRAFT_REL 1e-6

/* What the draft has gathered over every kernel's parameters. */
struct draft {
	json_t *buffers, *scalars, *notes;
	json_t *named;			/* the names given a buffer or scalar so far */
	int oom;
};

static void note(struct draft *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct draft *d, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	d->oom |= json_array_append_new(d->notes, json_string(text)) < 0;
}

/* Whether name is one of the draft's params. */
static int is_draft_param(const char *name)
{
	return strcmp(name, "n") == 0 || strcmp(name, "local") == 0;
}

/* Add obj to list under name, unless a buffer or scalar has the name. */
static void add_named(struct draft *d, json_t *list, const char *name, json_t *obj)
{
	if (!obj) {
		d->oom = 1;
		return;
	}
	if (json_object_get(d->named, name)) {
		json_decref(obj);
		return;
	}
	d->oom |= json_object_set_new(d->named, name, json_true()) < 0 || json_array_append_new(list, obj) < 0;
}

/* A pointer to global or constant memory: a buffer of n elements, an input
 * where it is const, else an output. */
static void add_buffer(struct draft *d, const char *kernel, const struct wl_kernel_param *p,
		       const struct wl_elem_type *t)
{
	int input = p->is_const || p->space == WL_ADDR_CONSTANT;
	json_t *b = json_pack("{s:s, s:s, s:s}", "name", p->name, "type", t ? p->elem : "float", "count", "n");

	if (!t && !json_object_get(d->named, p->name))
		note(d, "%s: buffer '%s' holds %s, which is no type the runner fills (%s): the draft says float",
		     kernel, p->name, p->base[0] ? p->base : "no type", wl_elem_type_allowed());
	if (p->pointer > 1 && !json_object_get(d->named, p->name))
		note(d, "%s: '%s' is a pointer to pointers: the draft passes it a buffer of its elements", kernel,
		     p->name);
	if (b && input)
		d->oom |= json_object_set_new(b, "init", json_string(t && !t->is_float ? DRAFT_INT_INIT : "random")) < 0;
	else if (b)
		d->oom |= json_object_set_new(b, "output", json_true()) < 0;
	add_named(d, d->buffers, p->name, b);
}

/* What the draft passes for parameter i of kernel: a buffer's or scalar's
 * name, a param expression, or {"local": bytes}; NULL when out of memory. */
static json_t *arg_for(struct draft *d, const char *kernel, size_t i, const struct wl_kernel_param *p)
{
	struct wl_elem_type t;
	int typed = p->elem[0] && wl_elem_type_parse(p->elem, &t) == 0;
	char bytes[40];

	if (!p->name[0]) {
		note(d, "%s: parameter %zu (%s) has no name: the draft passes it n", kernel, i + 1, p->type);
		return json_string("n");
	}
	if (p->pointer && p->space == WL_ADDR_LOCAL) {
		snprintf(bytes, sizeof(bytes), "local*%zu", typed ? t.bytes : (size_t)4);
		return json_pack("{s:s}", "local", bytes);
	}
	if (p->pointer) {
		add_buffer(d, kernel, p, typed ? &t : NULL);
		return json_string(p->name);
	}
	if (typed && t.lanes == 1 && t.is_float) {
		add_named(d, d->scalars, p->name,
			  json_pack("{s:s, s:s, s:s}", "name", p->name, "type", p->elem, "value", DRAFT_SCALAR_VALUE));
		return json_string(p->name);
	}
	if (typed && t.lanes == 1 && t.bytes == 4)
		return json_string(is_draft_param(p->name) ? p->name : "n");
	if (typed && t.lanes == 1) {
		add_named(d, d->scalars, p->name,
			  json_pack("{s:s, s:s, s:s}", "name", p->name, "type", p->elem, "value",
				    is_draft_param(p->name) ? p->name : "n"));
		return json_string(p->name);
	}
	note(d, "%s: parameter '%s' (%s) is no buffer, scalar or integer the draft can pass: say what it takes",
	     kernel, p->name, p->type);
	return json_string(p->name);
}

/* {"name", "type", ...} of one parameter, as the answer shows it. */
static json_t *param_json(const struct wl_kernel_param *p)
{
	const char *space = wl_addr_space_name(p->space);

	return json_pack("{s:s, s:s, s:s, s:o, s:i, s:o, s:b, s:b, s:b}", "name", p->name, "type", p->type, "base",
			 p->base, "elem", p->elem[0] ? json_string(p->elem) : json_null(), "pointer", p->pointer,
			 "space", space ? json_string(space) : json_null(), "const", p->is_const, "restrict",
			 p->is_restrict, "volatile", p->is_volatile);
}

/* The experiment's id from the first kernel's name (see the header). */
static void draft_id(const struct wl_catalog *cat, const char *kernel, char *out, size_t size)
{
	size_t n = 0;

	for (; kernel[n] && n < 60 && n + 1 < size; n++)
		out[n] = isalnum((unsigned char)kernel[n]) ? (char)tolower((unsigned char)kernel[n]) : '_';
	out[n] = '\0';
	if (!n)
		snprintf(out, size, "own");
	else if (cat && wl_catalog_find(cat, out))
		snprintf(out + n, size - n, "_own");
}

/* Every kernel's arguments into args[k] (a new array each), the buffers
 * and scalars they name into d. */
static void draft_args(struct draft *d, const struct wl_kernel_list *list, const struct wl_kernel_param *params,
		       const size_t *counts, size_t nkernels, json_t **args)
{
	for (size_t k = 0; k < nkernels; k++) {
		const struct wl_kernel_param *p = params + k * WL_KERNEL_PARAMS_MAX;

		args[k] = json_array();
		d->oom |= !args[k];
		for (size_t i = 0; args[k] && i < counts[k]; i++)
			d->oom |= json_array_append_new(args[k], arg_for(d, list->items[k].name, i, &p[i])) < 0;
	}
}

/* The draft of the experiment over list's first nkernels kernels. */
static json_t *draft_json(const struct wl_catalog *cat, const char *source, const struct wl_kernel_list *list,
			  const struct wl_kernel_param *params, const size_t *counts, size_t nkernels,
			  struct draft *d)
{
	json_t *args[WL_OWN_VARIANTS_MAX] = { NULL }, *variants = json_array(), *out = NULL;
	char id[72], title[512] = "";

	draft_args(d, list, params, counts, nkernels, args);
	for (size_t k = 0; variants && k < nkernels; k++) {
		json_t *v = json_pack("{s:s, s:s}", "id", list->items[k].name, "kernel", list->items[k].name);

		wl_list_append(title, sizeof(title), list->items[k].name);
		if (v && k > 0 && args[k] && !json_equal(args[k], args[0]))
			d->oom |= json_object_set_new(v, "host", json_pack("{s:O}", "args", args[k])) < 0;
		d->oom |= json_array_append_new(variants, v) < 0;
	}
	draft_id(cat, list->items[0].name, id, sizeof(id));
	if (!d->oom && variants && args[0])
		out = json_pack("{s:s, s:s, s:s, s:o, s:O, s:O, s:{s:[s], s:[s], s:O}, s:o, s:O}", "id", id, "title",
				title, "source", source, "params", json_loads(DRAFT_PARAMS, 0, NULL), "buffers",
				d->buffers, "scalars", d->scalars, "host", "global", "n", "local", "local", "args",
				args[0], "check",
				nkernels > 1 ? json_pack("{s:s, s:f}", "against", list->items[0].name, "rel", DRAFT_REL)
					     : json_string("none"),
				"variants", variants);
	for (size_t k = 0; k < nkernels; k++)
		json_decref(args[k]);
	json_decref(variants);
	return out;
}

/* Each kernel of list, its parameters read into params (WL_KERNEL_PARAMS_MAX
 * a kernel) and counts, as the answer's "kernels". */
static json_t *kernels_json(const char *source, const struct wl_kernel_list *list, enum wl_language lang,
			    struct wl_kernel_param *params, size_t *counts, struct wl_error *err)
{
	json_t *out = json_array();

	for (size_t k = 0; out && k < list->count; k++) {
		struct wl_kernel_param *p = params + k * WL_KERNEL_PARAMS_MAX;
		char *sig = NULL;
		json_t *ps = json_array(), *entry;

		if (wl_kernel_params_read(source, &list->items[k], lang, p, &counts[k], err) < 0) {
			json_decref(ps);
			json_decref(out);
			return NULL;
		}
		for (size_t i = 0; ps && i < counts[k]; i++)
			if (json_array_append_new(ps, param_json(&p[i])) < 0)
				break;
		sig = wl_kernel_signature(source, &list->items[k]);
		entry = sig && ps ? json_pack("{s:s, s:i, s:s, s:O}", "name", list->items[k].name, "line",
					      list->items[k].line, "signature", sig, "params", ps)
				  : NULL;
		free(sig);
		json_decref(ps);
		if (json_array_append_new(out, entry) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	if (!out)
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
	return out;
}

int wl_source_scan(const struct wl_catalog *cat, const char *source, size_t len, enum wl_language lang,
		   json_t **out, struct wl_error *err)
{
	struct wl_kernel_list *list = NULL;
	struct wl_kernel_param *params = NULL;
	size_t *counts = NULL, nkernels;
	struct draft d = { json_array(), json_array(), json_array(), json_object(), 0 };
	json_t *kernels = NULL, *draft = NULL;
	int rc = -1;

	*out = NULL;
	if (len > WL_OWN_SOURCE_MAX) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "source", "source: %zu bytes; at most %d are allowed", len,
			       WL_OWN_SOURCE_MAX);
		goto out;
	}
	list = malloc(sizeof(*list));
	if (!list || !d.buffers || !d.scalars || !d.notes || !d.named)
		goto oom;
	if (wl_kernels_scan(source, len, list, err) < 0)
		goto field;
	params = calloc(list->count * WL_KERNEL_PARAMS_MAX + 1, sizeof(*params));
	counts = calloc(list->count + 1, sizeof(*counts));
	if (!params || !counts)
		goto oom;
	if (!(kernels = kernels_json(source, list, lang, params, counts, err)))
		goto field;
	nkernels = list->count < WL_OWN_VARIANTS_MAX ? list->count : WL_OWN_VARIANTS_MAX;
	if (list->count > WL_OWN_VARIANTS_MAX)
		note(&d, "the source defines %zu kernels; the draft takes the first %d (an experiment has at most %d variants)",
		     list->count, WL_OWN_VARIANTS_MAX, WL_OWN_VARIANTS_MAX);
	if (list->count == 0)
		note(&d, "no __kernel (or CUDA __global__) function is defined in the source");
	else if (!(draft = draft_json(cat, source, list, params, counts, nkernels, &d)))
		goto oom;
	if (d.oom || !(*out = json_pack("{s:s, s:O, s:O, s:O}", "language", wl_language_name(lang), "kernels", kernels,
					"draft", draft ? draft : json_null(), "notes", d.notes)))
		goto oom;
	rc = 0;
	goto out;
field:
	if (err->kind != WL_ERR_INTERNAL) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "source: %.1000s", err->msg);
		wl_error_field(err, WL_ERR_INVALID_FIELD, "source", "%s", msg);
	}
	goto out;
oom:
	wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
out:
	json_decref(draft);
	json_decref(kernels);
	json_decref(d.buffers);
	json_decref(d.scalars);
	json_decref(d.notes);
	json_decref(d.named);
	free(counts);
	free(params);
	free(list);
	return rc;
}
