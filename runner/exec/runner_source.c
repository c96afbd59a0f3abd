/* The runner's own programs' sources (see point.h, wl_runner_source): one
 * text for every language, each backend's prelude before it, made once. */
#include "point.h"

#include <stdlib.h>
#include <string.h>

const struct wl_source *wl_runner_source(const struct wl_backend *be, const char *body, struct wl_source *made,
					 struct wl_error *err)
{
	struct wl_source *source = &made[(unsigned)be->language % WL_DEVICE_APIS];
	const char *prelude = be->opencl_prelude ? be->opencl_prelude : "";
	size_t len = strlen(prelude), body_len = strlen(body);
	int rc;

	if (!source->text) {
		char *text = malloc(len + body_len + 1);

		if (!text) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return NULL;
		}
		memcpy(text, prelude, len);
		memcpy(text + len, body, body_len + 1);
		rc = wl_source_from_text(text, source, err);
		free(text);
		if (rc < 0)
			return NULL;
		/* Kept on disk where the backend keeps binaries (OpenCL's program
		 * cache), so a fresh worker does not build it again. */
		source->keep_binary = 1;
	}
	return source;
}
