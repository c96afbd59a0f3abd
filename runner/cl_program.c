/* The program cache: a short list of built programs, searched linearly (a
 * runner builds a handful of distinct programs in its life), in front of the
 * binaries kept on disk. */
#include "cl_program.h"

#include "program_disk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

struct cached_program {
	const struct wl_cl_device *dev;
	char hash[17];
	char *options;
	cl_program program;
	struct cached_program *next;
};

struct wl_program_cache {
	struct cached_program *head;
	char *build_log;	/* of the last failed build */
	char *dir;		/* where binaries are kept, or NULL */
	long built, loaded;
};

struct wl_program_cache *wl_program_cache_new(const char *dir)
{
	struct wl_program_cache *cache = calloc(1, sizeof(*cache));

	if (cache && dir && *dir && !(cache->dir = strdup(dir))) {
		free(cache);
		return NULL;
	}
	return cache;
}

void wl_program_cache_counts(const struct wl_program_cache *cache, long *built, long *loaded)
{
	*built = cache->built;
	*loaded = cache->loaded;
}

static void cached_free(struct cached_program *c)
{
	if (c->program)
		clReleaseProgram(c->program);
	free(c->options);
	free(c);
}

void wl_program_cache_free(struct wl_program_cache *cache)
{
	if (!cache)
		return;
	while (cache->head) {
		struct cached_program *next = cache->head->next;

		cached_free(cache->head);
		cache->head = next;
	}
	free(cache->build_log);
	free(cache->dir);
	free(cache);
}

void wl_program_cache_drop_device(struct wl_program_cache *cache, const struct wl_cl_device *dev)
{
	struct cached_program **link = &cache->head;

	while (*link) {
		struct cached_program *c = *link;

		if (c->dev == dev) {
			*link = c->next;
			cached_free(c);
		} else {
			link = &c->next;
		}
	}
}

const char *wl_program_cache_build_log(const struct wl_program_cache *cache)
{
	return cache->build_log ? cache->build_log : "";
}

/* Keep the build log of program on dev in the cache, and its start in err. */
static void build_failure(struct wl_program_cache *cache, cl_program program,
			  const struct wl_cl_device *dev, cl_int rc, const char *options,
			  struct wl_error *err)
{
	size_t size = 0;
	char *log = NULL;

	free(cache->build_log);
	cache->build_log = NULL;
	if (clGetProgramBuildInfo(program, dev->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
		    CL_SUCCESS && size > 0 && (log = malloc(size + 1)) &&
	    clGetProgramBuildInfo(program, dev->device, CL_PROGRAM_BUILD_LOG, size, log, NULL) ==
		    CL_SUCCESS) {
		log[size] = '\0';
		cache->build_log = log;
		log = NULL;
	}
	free(log);
	wl_error_set(err, WL_ERR_BUILD, "kernel build failed on %s (%s, options '%s'): %.900s",
		     dev->id, wl_cl_error_name(rc), options, wl_program_cache_build_log(cache));
}

/* What a binary on disk is kept under: the device, its driver and OpenCL
 * version, the build options and the source's hash. */
static void disk_key(const struct wl_cl_device *dev, const struct wl_source *src,
		     const char *options, char *out, size_t len)
{
	json_t *info = dev->info;

	snprintf(out, len, "%s\n%s\n%s\n%s\n%s\n%s", dev->id,
		 json_string_value(json_object_get(info, "name")),
		 json_string_value(json_object_get(info, "driver")),
		 json_string_value(json_object_get(info, "opencl")), options, src->hash);
}

/* The program from the binary kept on disk, built (linked) for dev; NULL
 * when there is none or it does not load. */
static cl_program from_disk(struct wl_program_cache *cache, struct wl_cl_device *dev,
			    const struct wl_source *src, const char *key, const char *options)
{
	unsigned char *binary = NULL;
	size_t len = 0;
	cl_int rc, status;
	cl_program program;

	if (!src->keep_binary ||
	    wl_program_disk_load(cache->dir, key, src->text, src->len, &binary, &len) < 0)
		return NULL;
	program = clCreateProgramWithBinary(dev->context, 1, &dev->device, &len,
					    (const unsigned char **)&binary, &status, &rc);
	free(binary);
	if (!program)
		return NULL;
	if (status != CL_SUCCESS || clBuildProgram(program, 1, &dev->device, options, NULL, NULL) != CL_SUCCESS) {
		clReleaseProgram(program);
		return NULL;
	}
	return program;
}

/* Keep program's binary on disk for the next runner; best effort. */
static void to_disk(struct wl_program_cache *cache, const struct wl_cl_device *dev,
		    const struct wl_source *src, const char *key, cl_program program)
{
	size_t len = 0;
	unsigned char *binary;
	struct wl_error err;

	if (!cache->dir || !src->keep_binary ||
	    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(len), &len, NULL) != CL_SUCCESS ||
	    len == 0 || !(binary = malloc(len)))
		return;
	if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binary), &binary, NULL) == CL_SUCCESS &&
	    wl_program_disk_save(cache->dir, key, src->text, src->len, binary, len, &err) < 0)
		wl_log_warn("program %s for %s not kept: %s", src->hash, dev->id, err.msg);
	free(binary);
}

int wl_program_get(struct wl_program_cache *cache, struct wl_cl_device *dev,
		   const struct wl_source *src, const char *options, cl_program *out,
		   struct wl_error *err)
{
	struct cached_program *c;
	const char *text = src->text;
	cl_program program;
	char key[1024];
	int loaded = 0;
	cl_int rc;

	for (c = cache->head; c; c = c->next) {
		if (c->dev == dev && strcmp(c->hash, src->hash) == 0 &&
		    strcmp(c->options, options) == 0) {
			*out = c->program;
			return 0;
		}
	}
	if (wl_cl_device_open(dev, err) < 0)
		return -1;
	disk_key(dev, src, options, key, sizeof(key));
	program = cache->dir ? from_disk(cache, dev, src, key, options) : NULL;
	if (program) {
		loaded = 1;
	} else {
		program = clCreateProgramWithSource(dev->context, 1, &text, &src->len, &rc);
		if (!program) {
			wl_error_set(err, WL_ERR_INTERNAL, "clCreateProgramWithSource: %s",
				     wl_cl_error_name(rc));
			return -1;
		}
		rc = clBuildProgram(program, 1, &dev->device, options, NULL, NULL);
		if (rc != CL_SUCCESS) {
			build_failure(cache, program, dev, rc, options, err);
			clReleaseProgram(program);
			return -1;
		}
		to_disk(cache, dev, src, key, program);
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->options = strdup(options))) {
		free(c);
		clReleaseProgram(program);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	c->dev = dev;
	memcpy(c->hash, src->hash, sizeof(c->hash));
	c->program = program;
	c->next = cache->head;
	cache->head = c;
	if (loaded)
		cache->loaded++;
	else
		cache->built++;
	wl_log_info("%s program %s for %s (options '%s')", loaded ? "loaded" : "built", src->hash,
		    dev->id, options);
	*out = program;
	return 0;
}
