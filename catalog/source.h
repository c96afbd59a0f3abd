/* A kernel source held as text with its FNV-1a 64-bit hash: read from the
 * kernels folder (a family's file) or given by a request (a custom kernel).
 * The hash names the exact source a result came from and keys the programs
 * built from it. */
#ifndef WL_SOURCE_H
#define WL_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* A kernel source read from disk, with its FNV-1a 64-bit hash as 16 hex digits
 * (recorded with every run so a result names the exact source it came from). */
struct wl_source {
	char *text;
	size_t len;
	char hash[17];
	int keep_binary;	/* worth keeping built on disk: a file of the catalog (set by
				 * wl_source_load) or the runner's own, not a user's kernel */
};

/* Read path into *out. Caller frees with wl_source_free(); on failure (-1,
 * err names the path) *out holds nothing to free. */
int wl_source_load(const char *path, struct wl_source *out, struct wl_error *err);
void wl_source_free(struct wl_source *src);

/* A source held in memory (a custom kernel's): text copied, hash computed.
 * Caller frees with wl_source_free(); -1 only when out of memory, with *out
 * holding nothing to free. */
int wl_source_from_text(const char *text, struct wl_source *out, struct wl_error *err);

/* FNV-1a, 64-bit: a cache key and provenance tag, not a security hash. */
uint64_t wl_fnv1a64(const void *data, size_t len);

#endif
