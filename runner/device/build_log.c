/* Build logs as a user may see them (see build_log.h). An absolute path is a
 * '/' that starts a word (after the start, white space, a quote or an opening
 * bracket, '=', ':' or ','), then two or more names joined by '/', or one
 * name ending in ".cl" or ".h": division in an echoed source line ("n/2",
 * "(a)/b") starts no word and stays as written. */
#include "build_log.h"

#include <stdlib.h>
#include <string.h>

static int path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c != '\0' && strchr("._-~+@%", c));
}

static int starts_word(const char *log, const char *r)
{
	return r == log || strchr(" \t\n\r\"'`(<[{=:,", r[-1]) != NULL;
}

/* The end of the absolute path at r, or NULL when none starts there. */
static const char *path_end(const char *log, const char *r, int *is_source)
{
	const char *e = r;
	int names = 0;

	if (*r != '/' || !starts_word(log, r))
		return NULL;
	while (*e == '/' && path_char(e[1])) {
		e++;
		while (path_char(*e))
			e++;
		names++;
	}
	*is_source = e - r > 3 && strncmp(e - 3, ".cl", 3) == 0;
	if (names >= 2 || (names == 1 && (*is_source || (e - r > 2 && strncmp(e - 2, ".h", 2) == 0))))
		return e;
	return NULL;
}

char *wl_build_log_for_users(const char *log)
{
	/* A replacement ("<source>", 8 bytes) can be longer than the shortest
	 * path it replaces ("/a.cl", 5): twice the length always fits. */
	char *out = malloc(2 * strlen(log) + 1), *w = out;

	if (!out)
		return NULL;
	for (const char *r = log; *r;) {
		int is_source = 0;
		const char *end = path_end(log, r, &is_source);

		if (end) {
			const char *name = is_source ? "<source>" : "<path>";

			memcpy(w, name, strlen(name));
			w += strlen(name);
			r = end;
		} else if (strncmp(r, " <Spelling=", 11) == 0 && strchr(r, '>')) {
			r = strchr(r, '>') + 1;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return out;
}
