/* Kernel source for people: each built-in variant's signature in the catalog,
 * its template (the starting point of a custom kernel, GET
 * /api/experiments/{id}/variants/{variant}/source), and the code of every
 * variant of a run (GET /api/runs/{id}/sources): built-ins as they were at the
 * run's source hash, an experiment of the run's own from its definition,
 * custom kernels from its request with the template of their "like" variant
 * beside them for a diff. The server reads .cl files as text and
 * never compiles them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "api.h"
#include "kernel_scan.h"
#include "source.h"
#include "store.h"

void wl_family_sources_free(struct wl_server *srv)
{
	for (size_t i = 0; srv->families && i < srv->catalog->nexperiments; i++)
		wl_source_free(&srv->families[i]);
	free(srv->families);
	srv->families = NULL;
}

int wl_family_sources_load(struct wl_server *srv, json_t *catalog_json, struct wl_error *err)
{
	const struct wl_catalog *cat = srv->catalog;
	struct wl_kernel_list *list = malloc(sizeof(*list));
	int rc = -1;

	srv->families = calloc(cat->nexperiments + 1, sizeof(*srv->families));
	if (!list || !srv->families) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < cat->nexperiments; i++) {
		const struct wl_experiment *exp = &cat->experiments[i];
		struct wl_source *f = &srv->families[i];
		json_t *variants = json_object_get(json_array_get(json_object_get(catalog_json, "experiments"), i),
						   "variants");
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", cat->dir, exp->source);
		if (wl_source_load(path, f, err) < 0 || wl_kernels_scan(f->text, f->len, list, err) < 0)
			goto out;
		for (size_t v = 0; v < exp->nvariants; v++) {
			const struct wl_kernel_span *k = wl_kernels_find(list, exp->variants[v].kernel);
			char *sig = k ? wl_kernel_signature(f->text, k) : NULL;

			if (!sig) {
				wl_error_set(err, WL_ERR_CONFIG, "%s: no __kernel %s (variant %s of %s)", path,
					     exp->variants[v].kernel, exp->variants[v].id, exp->id);
				goto out;
			}
			json_object_set_new(json_array_get(variants, v), "signature", json_string(sig));
			free(sig);
		}
	}
	rc = 0;
out:
	free(list);
	return rc;
}

void wl_api_variant_source(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			   struct wl_response *resp)
{
	const char *exp_id = at->experiment, *variant_id = at->variant;
	const struct wl_experiment *exp = wl_catalog_find(srv->catalog, exp_id);
	const struct wl_variant_def *v = exp ? wl_experiment_variant(exp, variant_id, NULL) : NULL;
	const struct wl_source *f;
	struct wl_kernel_list *list = NULL;
	const struct wl_kernel_span *k;
	char *template = NULL, *sig = NULL;

	(void)req;
	if (!v) {
		wl_response_error(resp, 404, "not_found", NULL, "no variant '%.64s' of experiment '%.64s'",
				  variant_id, exp_id);
		return;
	}
	f = &srv->families[exp - srv->catalog->experiments];
	list = malloc(sizeof(*list));
	if (!list || wl_kernels_scan(f->text, f->len, list, NULL) < 0 ||
	    !(k = wl_kernels_find(list, v->kernel)) || !(sig = wl_kernel_signature(f->text, k)) ||
	    !(template = wl_kernel_template(f->text, f->len, v->kernel))) {
		wl_response_error(resp, 500, "internal", NULL, "cannot read the source of %s", v->id);
	} else {
		wl_response_json(resp, 200,
				 json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "experiment", exp->id,
					   "variant", v->id, "kernel", v->kernel, "file", exp->source,
					   "hash", f->hash, "signature", sig, "launch",
					   v->launch ? v->launch : exp->launch ? exp->launch : "",
					   "template", template));
	}
	free(template);
	free(sig);
	free(list);
}

/* {"id", "custom": false, "kernel", "line", "source"} for built-in variant id,
 * cut from the family text; line is the file's line of its first. */
static json_t *builtin_entry(const struct wl_experiment *exp, const char *id, const char *text,
			     const struct wl_kernel_list *list)
{
	const struct wl_variant_def *v = exp ? wl_experiment_variant(exp, id, NULL) : NULL;
	const struct wl_kernel_span *k = v && text ? wl_kernels_find(list, v->kernel) : NULL;

	if (!k)
		return json_pack("{s:s, s:b, s:n}", "id", id, "custom", 0, "source");
	return json_pack("{s:s, s:b, s:s, s:i, s:s%}", "id", id, "custom", 0, "kernel", v->kernel,
			 "line", k->first_line, "source", text + k->start, k->end - k->start);
}

void wl_api_run_sources(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			struct wl_response *resp)
{
	struct wl_store *st = NULL;
	struct wl_error err;
	struct wl_run run = { 0 };
	json_t *stored = NULL, *variants = NULL;
	const struct wl_experiment *exp;
	struct wl_kernel_list *list = malloc(sizeof(*list));
	char *name = NULL, *text = NULL, hash[17] = "";
	const char *as_of = "run", *source_hash;
	size_t i, len = 0;

	(void)req;
	if (!list) {
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
		return;
	}
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 || wl_store_get_run(st, at->id, 0, &stored, &err) < 0 ||
	    wl_run_read(srv->catalog, stored, &run, &err) < 0) {
		wl_response_from_error(resp, &err);
		goto out;
	}
	exp = run.exp;
	source_hash = run.source_hash;
	if (run.own) {
		/* An experiment of the run's own: its kernels are its definition's
		 * source, which the run keeps as it was queued. */
		if (!(text = strdup(run.own->source))) {
			wl_response_error(resp, 500, "internal", NULL, "out of memory");
			goto out;
		}
		snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)wl_fnv1a64(text, strlen(text)));
		as_of = "definition";
	} else if (source_hash) {
		/* The family's part of the run's hash names the text it ran; a
		 * run not started yet will run today's file. */
		snprintf(hash, sizeof(hash), "%.16s", source_hash);
		if (wl_store_get_source(st, hash, &name, &text, &err) < 0 && err.kind != WL_ERR_NOT_FOUND) {
			wl_response_from_error(resp, &err);
			goto out;
		}
	}
	if (!text && exp && !run.own) {
		const struct wl_source *f = &srv->families[exp - srv->catalog->experiments];

		if (!source_hash || strcmp(hash, f->hash) == 0) {
			text = strdup(f->text);
			snprintf(hash, sizeof(hash), "%s", f->hash);
			as_of = source_hash ? "run" : "current";
		}
	}
	len = text ? strlen(text) : 0;
	if (text && wl_kernels_scan(text, len, list, NULL) < 0)
		list->count = 0;
	else if (!text)
		list->count = 0;
	variants = json_array();
	for (i = 0; i < run.nbuiltins; i++)
		json_array_append_new(variants, builtin_entry(exp, run.builtins[i], text, list));
	for (i = 0; i < run.nkernels; i++) {
		const struct wl_run_kernel *k = &run.kernels[i];
		const struct wl_variant_def *def = exp && k->like ? wl_experiment_variant(exp, k->like, NULL) : NULL;
		char *base = def && text ? wl_kernel_template(text, len, def->kernel) : NULL;

		json_array_append_new(variants, json_pack("{s:O, s:b, s:O, s:O, s:O, s:s?}", "id", k->name_json,
							  "custom", 1, "like", k->like_json, "entry", k->entry,
							  "source", k->source, "like_source", base));
		free(base);
	}
	wl_response_json(resp, 200,
			 json_pack("{s:I, s:s?, s:{s:s?, s:s?, s:s}, s:o}", "run", (json_int_t)at->id,
				   "source_hash", source_hash, "family", "file",
				   run.own ? NULL : name ? name : exp ? exp->source : NULL, "hash", text ? hash : NULL, "as_of",
				   text ? as_of : "unknown", "variants", variants));
out:
	free(name);
	free(text);
	free(list);
	wl_run_free(&run);
	json_decref(stored);
	if (st)
		wl_store_pool_put(srv->pool, st);
}
