/* Token file loading, constant-time token checks, and the 401. */
#include "auth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int wl_constant_time_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned char diff = alen != blen;

	/* Walk the full length of a whatever b holds, so timing reveals no prefix. */
	for (size_t i = 0; i < alen; i++)
		diff |= (unsigned char)a[i] ^ (unsigned char)(blen ? b[i % blen] : 0);
	return diff == 0;
}

int wl_tokens_allow(const struct wl_tokens *t, const char *authorization)
{
	const char *token;
	int ok = 0;

	if (!authorization || strncasecmp(authorization, "Bearer ", 7) != 0)
		return 0;
	token = authorization + 7;
	while (*token == ' ')
		token++;
	for (size_t i = 0; i < t->count; i++)
		ok |= wl_constant_time_equal(t->list[i], strlen(t->list[i]), token, strlen(token));
	return ok;
}

void wl_tokens_free(struct wl_tokens *t)
{
	for (size_t i = 0; i < t->count; i++)
		free(t->list[i]);
	free(t->list);
	t->list = NULL;
	t->count = 0;
}

int wl_tokens_load(const char *path, struct wl_tokens *out, struct wl_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	long lineno = 0;
	FILE *f = fopen(path, "r");

	memset(out, 0, sizeof(*out));
	if (!f) {
		wl_error_set(err, WL_ERR_CONFIG, "token file %s: %s", path, strerror(errno));
		return -1;
	}
	/* Whole lines, however long: a line cut in two would make two tokens. */
	while ((got = getline(&line, &cap, f)) >= 0) {
		char *s = line, *end = line + got, **grown;

		lineno++;
		while (*s == ' ' || *s == '\t')
			s++;
		while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (*s == '\0' || *s == '#')
			continue;
		if (strlen(s) != (size_t)(end - s) || end - s > WL_TOKEN_MAX) {
			wl_error_set(err, WL_ERR_CONFIG, "token file %s, line %ld: %s; a token is one line of at most %d characters",
				     path, lineno, strlen(s) != (size_t)(end - s) ? "holds a NUL byte" : "is too long", WL_TOKEN_MAX);
			goto fail;
		}
		grown = realloc(out->list, (out->count + 1) * sizeof(*out->list));
		if (!grown || !(grown[out->count] = strdup(s))) {
			if (grown)
				out->list = grown;
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			goto fail;
		}
		out->list = grown;
		out->count++;
	}
	free(line);
	fclose(f);
	if (out->count == 0) {
		wl_error_set(err, WL_ERR_CONFIG, "token file %s holds no token", path);
		return -1;
	}
	return 0;
fail:
	free(line);
	fclose(f);
	wl_tokens_free(out);
	return -1;
}

int wl_authorize(const struct wl_tokens *t, const struct wl_request *req, struct wl_response *resp)
{
	if (t->count == 0)
		return 1;
	if (wl_tokens_allow(t, req->header(req->ctx, "Authorization")))
		return 1;
	wl_response_error(resp, 401, "unauthorized", NULL,
			  "writes need an 'Authorization: Bearer <token>' header with a valid token");
	return 0;
}
