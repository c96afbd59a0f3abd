/* The dashboard's static files, served from one folder (www/). A path is
 * served only when every component is a plain name (letters, digits, '.',
 * '_', '-', not starting with '.'), each directory and the file are opened
 * under the folder without following symbolic links, the file is a regular
 * file, and its extension has a known content type. The page routes (/,
 * /runs, /runs/{id}, /compare) map to their HTML. Text files go
 * gzip-compressed to a client that takes it, compressed once and kept in
 * the body cache. */
#ifndef WL_STATIC_FILES_H
#define WL_STATIC_FILES_H

#include "body_cache.h"
#include "response.h"

/* Where the files are: the folder, opened once, and the cache their
 * compressed forms are kept in. */
struct wl_www {
	int dir_fd;
	struct wl_body_cache *bodies;
};

/* Answer req for the file path names (a URL path): the file (or 304), or
 * the 404 page where it names none. */
void wl_static_serve(const struct wl_www *www, const char *path, const struct wl_request *req,
		     struct wl_response *resp);

/* Answer with the 404 page (404.html, or a line of text without it). */
void wl_static_not_found(const struct wl_www *www, struct wl_response *resp);

#endif
