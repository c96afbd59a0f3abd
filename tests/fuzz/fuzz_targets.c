/* The fuzz targets (fuzz_targets.h). The HTTP target builds a struct
 * wl_request the way the daemon does — method, decoded path, query arguments,
 * headers, body — from the fuzzer's bytes, and hands it to the real server on a
 * scratch store, so routing, every handler, the store and the static files are
 * all in reach. */
#include "fuzz_targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "catalog.h"
#include "compiler_account.h"
#include "directive_check.h"
#include "http_head.h"
#include "kernel_scan.h"
#include "device_fit.h"
#include "points.h"
#include "request.h"
#include "server.h"
#include "source_scan.h"

static struct wl_catalog *catalog;
static struct wl_server server;
static struct wl_server_config config;
static char scratch[256];
static int server_ready;

int wl_fuzz_init(const char *dir)
{
	static char catalog_path[4096], www_path[4096], db_path[512];
	struct wl_error err;

	if (catalog)
		return 0;
	snprintf(catalog_path, sizeof(catalog_path), "%s/kernels/catalog.json", dir);
	snprintf(www_path, sizeof(www_path), "%s/www", dir);
	if (wl_catalog_load(catalog_path, &catalog, &err) < 0) {
		fprintf(stderr, "fuzz: %s\n", err.msg);
		return -1;
	}
	snprintf(scratch, sizeof(scratch), "/tmp/warplab-fuzz-XXXXXX");
	if (!mkdtemp(scratch))
		return -1;
	snprintf(db_path, sizeof(db_path), "%s/fuzz.db", scratch);
	config = (struct wl_server_config){
		.listen = "127.0.0.1:0", .db = db_path, .www = www_path, .catalog = catalog_path,
		.max_body = 64 * 1024, .queue_limit = 200, .max_connections = 1,
		.per_ip_connections = 1, .connection_timeout = 1, .heartbeat = 15,
	};
	if (wl_server_init(&server, &config, &err) < 0) {
		fprintf(stderr, "fuzz: %s\n", err.msg);
		return -1;
	}
	server_ready = 1;
	return 0;
}

void wl_fuzz_fini(void)
{
	char cmd[300];

	if (server_ready)
		wl_server_free(&server);
	server_ready = 0;
	wl_catalog_free(catalog);
	catalog = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (scratch[0] && system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", scratch);
}

int wl_fuzz_request(const uint8_t *data, size_t size)
{
	struct wl_device_limits small = { "fuzz-gpu-0", 1e9, 2.5e8, 49152, 1024 };
	json_t *body, *norm = NULL;
	long long measurements;
	struct wl_error err;

	int outcome = WL_FUZZ_REFUSED;

	body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
	if (!body)
		return WL_FUZZ_REFUSED;
	if (wl_request_validate(catalog, body, &norm, &measurements, &err) == 0) {
		const struct wl_experiment *exp =
			wl_catalog_find(catalog, json_string_value(json_object_get(norm, "experiment")));
		struct wl_points pts;

		if (wl_request_points(exp, norm, &pts, &err) == 0) {
			if ((long long)pts.count * (long long)(json_array_size(json_object_get(norm, "variants")) +
							       json_array_size(json_object_get(norm, "kernels"))) !=
			    measurements)
				abort();	/* the count validation promised is the one expansion gives */
			wl_points_free(&pts);
		}
		wl_request_check_device(exp, norm, &small, &err);
		outcome = WL_FUZZ_ACCEPTED;
	}
	json_decref(norm);
	json_decref(body);
	return outcome;
}

/* The request as the fuzzer wrote it. */
struct fuzz_http {
	char method[16];
	char path[1024];
	char query[1024];
	char headers[4096];	/* "Name: value\n" lines */
	char arg_value[1024];
	char header_value[1024];
};

static const char *fuzz_header(void *ctx, const char *name)
{
	struct fuzz_http *h = ctx;
	size_t n = strlen(name);

	for (char *line = h->headers; *line;) {
		char *end = strchr(line, '\n');

		if (strncasecmp(line, name, n) == 0 && line[n] == ':') {
			const char *v = line + n + 1;
			size_t len = end ? (size_t)(end - v) : strlen(v);

			while (*v == ' ' && len) {
				v++;
				len--;
			}
			snprintf(h->header_value, sizeof(h->header_value), "%.*s", (int)len, v);
			return h->header_value;
		}
		if (!end)
			break;
		line = end + 1;
	}
	return NULL;
}

static const char *fuzz_arg(void *ctx, const char *name)
{
	struct fuzz_http *h = ctx;
	size_t n = strlen(name);

	for (char *p = h->query; *p;) {
		char *end = strchr(p, '&');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > n && strncmp(p, name, n) == 0 && p[n] == '=') {
			snprintf(h->arg_value, sizeof(h->arg_value), "%.*s", (int)(len - n - 1), p + n + 1);
			return h->arg_value;
		}
		if (len == n && strncmp(p, name, n) == 0)
			return "";
		if (!end)
			break;
		p = end + 1;
	}
	return NULL;
}

int wl_fuzz_http(const uint8_t *data, size_t size)
{
	struct fuzz_http h;
	struct wl_request req;
	struct wl_response resp;
	const char *p = (const char *)data, *end = p + size, *nl, *space, *q;
	size_t hl = 0;
	int status;

	memset(&h, 0, sizeof(h));
	/* The request line: METHOD SP PATH[?QUERY] LF. Strings stop at NUL, as
	 * libmicrohttpd's do. */
	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return 0;
	space = memchr(p, ' ', (size_t)(nl - p));
	if (!space || space == p || (size_t)(space - p) >= sizeof(h.method))
		return 0;
	memcpy(h.method, p, (size_t)(space - p));
	q = memchr(space + 1, '?', (size_t)(nl - space - 1));
	snprintf(h.path, sizeof(h.path), "%.*s", (int)((q ? q : nl) - space - 1), space + 1);
	if (q)
		snprintf(h.query, sizeof(h.query), "%.*s", (int)(nl - q - 1), q + 1);
	if (h.path[0] != '/')
		return 0;	/* libmicrohttpd hands over only absolute paths */
	p = nl + 1;
	/* Header lines until an empty one. */
	while (p < end && *p != '\n') {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (hl + (size_t)(nl - p) + 2 < sizeof(h.headers)) {
			memcpy(h.headers + hl, p, (size_t)(nl - p));
			hl += (size_t)(nl - p);
			h.headers[hl++] = '\n';
		}
		p = nl < end ? nl + 1 : end;
	}
	if (p < end)
		p++;
	req = (struct wl_request){
		.method = h.method,
		.path = h.path,
		.body = p < end ? p : NULL,
		.body_len = p < end ? (size_t)(end - p) : 0,
		.header = fuzz_header,
		.arg = fuzz_arg,
		.ctx = &h,
	};
	wl_response_init(&resp);
	wl_server_handle(&server, &req, &resp);
	if (resp.status < 200 || resp.status > 599)
		abort();	/* every request gets a real status */
	status = (int)resp.status;
	wl_response_free(&resp);
	return status;
}

int wl_fuzz_head(const uint8_t *data, size_t size)
{
	char msg[256];

	return wl_http_head_check((const char *)data, size, msg, sizeof(msg)) == 0 ? WL_FUZZ_ACCEPTED :
										      WL_FUZZ_REFUSED;
}

int wl_fuzz_source(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), what[128];
	struct wl_kernel_list *list = malloc(sizeof(*list));
	int line, outcome = WL_FUZZ_REFUSED;

	if (text && list) {
		memcpy(text, data, size);
		text[size] = '\0';
		struct wl_error err;
		json_t *scanned = NULL;

		if (wl_source_check_directives(text, strlen(text), what, sizeof(what), &line) == 0)
			outcome = WL_FUZZ_ACCEPTED;
		wl_kernels_scan(text, strlen(text), list, NULL);
		/* Read as POST /api/sources/scan reads a pasted source, in both
		 * languages: its kernels' parameters and the draft over them. */
		for (int lang = WL_LANG_OPENCL; lang <= WL_LANG_CUDA; lang++) {
			if (wl_source_scan(catalog, text, strlen(text), (enum wl_language)lang, &scanned, &err) == 0)
				json_decref(scanned);
			scanned = NULL;
		}
	}
	free(list);
	free(text);
	return outcome;
}

int wl_fuzz_compiler(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *nl, *clean = NULL;
	json_t *figures = NULL, *view = NULL;
	int outcome = WL_FUZZ_REFUSED;

	if (!text)
		return outcome;
	memcpy(text, data, size);
	text[size] = '\0';
	nl = strchr(text, '\n');
	if (nl) {
		*nl = '\0';
		figures = wl_ptxas_figures(nl + 1);
		(void)wl_ptx_is_text((const unsigned char *)nl + 1, size - (size_t)(nl + 1 - text));
		clean = wl_ptx_for_users(nl + 1, size - (size_t)(nl + 1 - text));
		view = clean ? wl_ptx_kernel_view(clean, text) : NULL;
		if (view)
			outcome = WL_FUZZ_ACCEPTED;
	}
	json_decref(view);
	json_decref(figures);
	free(clean);
	free(text);
	return outcome;
}
