/* Build logs as a user may see them (see build_log.h). */
#include "build_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A copy of a build log with the compiler's temporary file names (PoCL writes
 * "/home/.../kcache/tempfile_x.cl:33:18: ...") shown as "<source>:33:18", and
 * clang's " <Spelling=/usr/.../opencl-c-base.h:354:32>" notes dropped, so the
 * log names the user's source, not paths of this host. Caller frees. */
char *wl_build_log_for_users(const char *log)
{
	/* A replaced name is at least "/x.cl", 5 bytes for 8: twice the length
	 * always fits. */
	char *out = malloc(2 * strlen(log) + 1), *w = out;

	if (!out)
		return NULL;
	for (const char *r = log; *r;) {
		const char *cl = NULL;

		if (*r == '/' && (r == log || r[-1] == ' ' || r[-1] == '\n' || r[-1] == '\t')) {
			const char *e = r;

			while (*e && *e != ' ' && *e != '\n' && *e != ':')
				e++;
			if (e - r > 3 && strncmp(e - 3, ".cl", 3) == 0 && *e == ':')
				cl = e;
		}
		if (cl) {
			w += sprintf(w, "%s", "<source>");
			r = cl;
		} else if (strncmp(r, " <Spelling=", 11) == 0 && strchr(r, '>')) {
			r = strchr(r, '>') + 1;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return out;
}

