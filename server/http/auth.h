/* Write authorisation: bearer tokens from a token file (one per line, '#'
 * comments), and the check a write's request passes. Reads stay open so
 * shared result URLs work without a token. */
#ifndef WL_AUTH_H
#define WL_AUTH_H

#include <stddef.h>

#include "error.h"
#include "response.h"

struct wl_tokens {
	size_t count;
	char **list;
};

#define WL_TOKEN_MAX 4096	/* characters in one token */

/* Load the token file at path into out, each line whole. A file with no
 * token is an error (it would lock every write out), and so is a token over
 * WL_TOKEN_MAX characters or with a NUL byte: the message names the line.
 * On failure out holds nothing. Caller frees with wl_tokens_free(). */
int wl_tokens_load(const char *path, struct wl_tokens *out, struct wl_error *err);
void wl_tokens_free(struct wl_tokens *t);

/* Whether an Authorization header value ("Bearer <token>") carries one of the
 * tokens. Each comparison takes time independent of where the strings differ. */
int wl_tokens_allow(const struct wl_tokens *t, const char *authorization);

/* Whether req may write: no token configured (t holds none), or its
 * Authorization header carries a valid bearer token. On refusal resp holds
 * the 401 and nothing else is touched. */
int wl_authorize(const struct wl_tokens *t, const struct wl_request *req, struct wl_response *resp);

/* Compare a (alen bytes) with b (blen bytes) in time that depends only on the
 * lengths. */
int wl_constant_time_equal(const char *a, size_t alen, const char *b, size_t blen);

#endif
