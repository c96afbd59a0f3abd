/* The dashboard's static files (see static_files.h). */
#include "static_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conditional.h"
#include "negotiate.h"

static const struct {
	const char *ext, *type;
} content_types[] = {
	{ ".html", "text/html; charset=utf-8" },
	{ ".js", "text/javascript; charset=utf-8" },
	{ ".mjs", "text/javascript; charset=utf-8" },
	{ ".css", "text/css; charset=utf-8" },
	{ ".json", "application/json; charset=utf-8" },
	{ ".svg", "image/svg+xml" },
	{ ".png", "image/png" },
	{ ".ico", "image/x-icon" },
	{ ".txt", "text/plain; charset=utf-8" },
};

static const char *content_type(const char *name)
{
	const char *dot = strrchr(name, '.');

	for (size_t i = 0; dot && i < sizeof(content_types) / sizeof(content_types[0]); i++)
		if (strcmp(dot, content_types[i].ext) == 0)
			return content_types[i].type;
	return NULL;
}

/* The file under www for a URL path, or NULL when it names none. */
static const char *page_for(const char *path, char *buf, size_t len)
{
	const char *p;

	if (strcmp(path, "/") == 0)
		return "index.html";
	if (strcmp(path, "/compare") == 0 || strcmp(path, "/compare/") == 0)
		return "compare.html";
	if (strcmp(path, "/runs") == 0)
		return "runs.html";
	if (strncmp(path, "/runs/", 6) == 0) {
		p = path + 6;
		if (*p >= '1' && *p <= '9' && strspn(p, "0123456789") == strlen(p) && strlen(p) <= 18)
			return "run.html";
		return NULL;
	}
	if (path[0] != '/' || strlen(path) >= len)
		return NULL;
	snprintf(buf, len, "%s", path + 1);
	return buf;
}

/* Whether rel is a relative path of plain names. */
static int plain_path(const char *rel)
{
	const char *seg = rel;

	if (!*rel || strspn(rel, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") !=
			     strlen(rel))
		return 0;
	for (;;) {
		const char *end = strchr(seg, '/');
		size_t n = end ? (size_t)(end - seg) : strlen(seg);

		if (n == 0 || seg[0] == '.')
			return 0;
		if (!end)
			return 1;
		seg = end + 1;
	}
}

/* Open rel under dirfd without following any symbolic link; a regular file only. */
static int open_beneath(int dirfd, const char *rel, struct stat *st)
{
	char part[256];
	int fd = dirfd, next;

	for (;;) {
		const char *end = strchr(rel, '/');
		size_t n = end ? (size_t)(end - rel) : strlen(rel);

		if (n >= sizeof(part))
			goto fail;
		memcpy(part, rel, n);
		part[n] = '\0';
		next = openat(fd, part, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (end ? O_DIRECTORY : 0));
		if (fd != dirfd)
			close(fd);
		if (next < 0)
			return -1;
		fd = next;
		if (!end)
			break;
		rel = end + 1;
	}
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode))
		goto fail;
	return fd;
fail:
	if (fd != dirfd)
		close(fd);
	return -1;
}

void wl_static_not_found(const struct wl_www *www, struct wl_response *resp)
{
	struct stat st;
	int fd = open_beneath(www->dir_fd, "404.html", &st);

	if (fd < 0) {
		wl_response_text(resp, 404, "text/plain; charset=utf-8", "not found\n", 10);
		return;
	}
	resp->status = 404;
	resp->fd = fd;
	resp->fd_size = (size_t)st.st_size;
	resp->content_type = "text/html; charset=utf-8";
	resp->cache_control = "no-cache";
}

/* Text compresses; images are already compressed or tiny. */
static int compressible(const char *type)
{
	return strncmp(type, "text/", 5) == 0 || strncmp(type, "application/json", 16) == 0 ||
	       strcmp(type, "image/svg+xml") == 0;
}

/* The file's gzip form from the body cache, made and kept on first use; the
 * key holds its size and modification time, so an edited file is a new
 * entry. NULL when it cannot be read or compressed (then it goes plain). */
static struct wl_body *gzipped(const struct wl_www *www, int fd, const char *rel, const struct stat *st,
			       const char *etag)
{
	char key[640], *text, *z = NULL;
	struct wl_body *b;
	size_t zlen;
	ssize_t got;

	snprintf(key, sizeof(key), "static:%s:%lld:%lld.%09ld", rel, (long long)st->st_size,
		 (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
	b = wl_body_cache_get(www->bodies, key);
	if (b)
		return b;
	text = malloc((size_t)st->st_size + 1);
	got = text ? pread(fd, text, (size_t)st->st_size, 0) : -1;
	if (got != (ssize_t)st->st_size || wl_gzip(text, (size_t)got, &z, &zlen) < 0) {
		free(text);
		return NULL;
	}
	free(text);
	b = wl_body_new(z, zlen, etag);
	free(z);
	if (b)
		wl_body_cache_put(www->bodies, key, b);
	return b;
}

void wl_static_serve(const struct wl_www *www, const char *path, const struct wl_request *req,
		     struct wl_response *resp)
{
	char etag[56], gz_etag[60];
	char buf[512];
	const char *rel = page_for(path, buf, sizeof(buf));
	const char *type;
	struct stat st;
	int fd;

	type = rel && plain_path(rel) ? content_type(rel) : NULL;
	fd = type ? open_beneath(www->dir_fd, rel, &st) : -1;
	if (fd < 0) {
		wl_static_not_found(www, resp);
		return;
	}
	resp->content_type = type;
	resp->cache_control = "no-cache";
	resp->vary = "Accept-Encoding";
	/* A file's tag is its size and modification time, like nginx's; its
	 * compressed form is another representation with its own tag. */
	snprintf(etag, sizeof(etag), "\"%llx-%llx%09lx\"", (unsigned long long)st.st_size,
		 (unsigned long long)st.st_mtim.tv_sec, (unsigned long)st.st_mtim.tv_nsec);
	snprintf(gz_etag, sizeof(gz_etag), "%.*s-gz\"", (int)strlen(etag) - 1, etag);
	if (st.st_size >= 512 && compressible(type) &&
	    wl_accepts_gzip(req->header(req->ctx, "Accept-Encoding"))) {
		struct wl_body *b = gzipped(www, fd, rel, &st, gz_etag);

		if (b) {
			close(fd);
			snprintf(resp->etag, sizeof(resp->etag), "%s", gz_etag);
			if (wl_etag_matches(req->header(req->ctx, "If-None-Match"), gz_etag)) {
				resp->status = 304;
				wl_body_unref(b);
				return;
			}
			resp->status = 200;
			resp->content_encoding = "gzip";
			resp->shared = b;
			return;
		}
	}
	snprintf(resp->etag, sizeof(resp->etag), "%s", etag);
	if (wl_etag_matches(req->header(req->ctx, "If-None-Match"), etag)) {
		close(fd);
		resp->status = 304;
		return;
	}
	resp->status = 200;
	resp->fd = fd;
	resp->fd_size = (size_t)st.st_size;
}
