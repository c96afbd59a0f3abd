/* Kernel sources as text with their hash (see source.h). */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t wl_fnv1a64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

int wl_source_load(const char *path, struct wl_source *out, struct wl_error *err)
{
	FILE *f = fopen(path, "rb");
	long size;

	memset(out, 0, sizeof(*out));
	if (!f) {
		wl_error_set(err, WL_ERR_CONFIG, "cannot open kernel source %s: %s", path,
			     strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0 ||
	    !(out->text = malloc((size_t)size + 1)) ||
	    fread(out->text, 1, (size_t)size, f) != (size_t)size) {
		wl_error_set(err, WL_ERR_CONFIG, "cannot read kernel source %s", path);
		fclose(f);
		wl_source_free(out);
		return -1;
	}
	fclose(f);
	out->text[size] = '\0';
	out->len = (size_t)size;
	out->keep_binary = 1;
	snprintf(out->hash, sizeof(out->hash), "%016llx",
		 (unsigned long long)wl_fnv1a64(out->text, out->len));
	return 0;
}

int wl_source_from_text(const char *text, struct wl_source *out, struct wl_error *err)
{
	memset(out, 0, sizeof(*out));
	out->len = strlen(text);
	out->text = strdup(text);
	if (!out->text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	snprintf(out->hash, sizeof(out->hash), "%016llx",
		 (unsigned long long)wl_fnv1a64(out->text, out->len));
	return 0;
}

void wl_source_free(struct wl_source *src)
{
	free(src->text);
	memset(src, 0, sizeof(*src));
}
