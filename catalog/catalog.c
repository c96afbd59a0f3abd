/* The catalog's life (see catalog.h): loading the file, its top level and
 * limits (its experiments are catalog_load.c's), the architectures' limits
 * beside it, finding an experiment, listing them for the API (each is
 * catalog_json.c's), and freeing it all. The top of the catalog's own files:
 * it calls them, and none of them calls it. */
#include "catalog.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog_json.h"
#include "catalog_load.h"
#include "gpu_limits.h"
#include "json_strict.h"
#include "source.h"

void wl_catalog_free(struct wl_catalog *cat)
{
	if (!cat)
		return;
	for (size_t i = 0; i < cat->nexperiments; i++)
		wl_experiment_clear(&cat->experiments[i]);
	free(cat->experiments);
	free(cat->dir);
	json_decref(cat->gpu_limits);
	free(cat);
}

/* The architecture limits beside the catalog: none is no error (occupancy
 * then reads as unknown), a file that is not valid is. */
static int gpu_limits_load(struct wl_catalog *cat, struct wl_error *err)
{
	char path[4096];
	json_error_t jerr;

	snprintf(path, sizeof(path), "%s/gpu_limits.json", cat->dir);
	if (access(path, F_OK) != 0)
		return 0;
	cat->gpu_limits = json_load_file(path, 0, &jerr);
	if (!cat->gpu_limits) {
		wl_error_set(err, WL_ERR_CONFIG, "%s: line %d: %s", path, jerr.line, jerr.text);
		return -1;
	}
	if (wl_gpu_limits_check(cat->gpu_limits, err) < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		wl_error_set(err, WL_ERR_CONFIG, "%s: %s", path, msg);
		return -1;
	}
	return 0;
}

/* The parsed file's top level into cat: its keys, its "limits" and its
 * experiments; -1 with a message naming the entry. What was read stays in
 * cat for wl_catalog_free(). */
static int catalog_from_json(const json_t *root, struct wl_catalog *cat, struct wl_error *err)
{
	static const char *const keys[] = { "limits", "experiments", NULL };
	static const char *const limit_keys[] = { "max_measurements", "max_list", NULL };
	json_t *limits;

	if (!json_is_object(root)) {
		wl_error_set(err, WL_ERR_CONFIG, "top level must be an object");
		return -1;
	}
	if (wl_json_check_keys(root, keys, "top level", NULL, err) < 0)
		return -1;
	cat->max_measurements = 1024;
	cat->max_list = 1024;
	limits = json_object_get(root, "limits");
	if (limits) {
		if (!json_is_object(limits) || wl_json_check_keys(limits, limit_keys, "limits", NULL, err) < 0 ||
		    wl_json_get_int(limits, "max_measurements", 0, &cat->max_measurements, "limits", err) < 0 ||
		    wl_json_get_int(limits, "max_list", 0, &cat->max_list, "limits", err) < 0) {
			if (err && err->kind == WL_ERR_NONE)
				wl_error_set(err, WL_ERR_CONFIG, "limits: must be an object");
			return -1;
		}
	}
	return wl_catalog_experiments_load(json_object_get(root, "experiments"), &cat->experiments,
					   &cat->nexperiments, err);
}

/* cat->hash from the parsed file root and the limits beside it: its JSON
 * with sorted keys, so that spacing and key order do not change it. */
static int catalog_hash(const json_t *root, struct wl_catalog *cat, struct wl_error *err)
{
	const json_t *parts[2] = { root, cat->gpu_limits };
	uint64_t h = 0;

	for (int i = 0; i < 2; i++) {
		char *text = parts[i] ? json_dumps(parts[i], JSON_COMPACT | JSON_SORT_KEYS) : NULL;

		if (parts[i] && !text) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
		if (text)
			h = h * 1099511628211ULL ^ wl_fnv1a64(text, strlen(text));
		free(text);
	}
	cat->hash = h;
	return 0;
}

int wl_catalog_load(const char *path, struct wl_catalog **out, struct wl_error *err)
{
	json_error_t jerr;
	json_t *root = NULL;
	struct wl_catalog *cat = NULL;
	char *pathcopy = NULL;
	int rc = -1;

	wl_error_clear(err);
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		wl_error_set(err, WL_ERR_CONFIG, "%s:%d: %s", path, jerr.line, jerr.text);
		goto out;
	}
	cat = calloc(1, sizeof(*cat));
	pathcopy = strdup(path);
	if (!cat || !pathcopy) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	cat->dir = strdup(dirname(pathcopy));
	if (!cat->dir) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	if (catalog_from_json(root, cat, err) < 0) {
		char inner[sizeof(err->msg)];

		snprintf(inner, sizeof(inner), "%s", err->msg);
		wl_error_set(err, WL_ERR_CONFIG, "%s: %s", path, inner);
		goto out;
	}
	if (gpu_limits_load(cat, err) < 0 || catalog_hash(root, cat, err) < 0)
		goto out;
	*out = cat;
	cat = NULL;
	rc = 0;
out:
	wl_catalog_free(cat);
	free(pathcopy);
	json_decref(root);
	return rc;
}

const struct wl_experiment *wl_catalog_find(const struct wl_catalog *cat, const char *id)
{
	for (size_t i = 0; i < cat->nexperiments; i++)
		if (strcmp(cat->experiments[i].id, id) == 0)
			return &cat->experiments[i];
	return NULL;
}

json_t *wl_catalog_to_json(const struct wl_catalog *cat)
{
	json_t *list = json_array();

	if (!list)
		return NULL;
	for (size_t i = 0; i < cat->nexperiments; i++) {
		json_t *o = wl_experiment_to_json(&cat->experiments[i]);

		if (!o || json_array_append_new(list, o) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return json_pack("{s:o, s:{s:I}}", "experiments", list, "limits", "max_measurements",
			 (json_int_t)cat->max_measurements);
}
