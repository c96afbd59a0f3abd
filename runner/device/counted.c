/* The words of counts that wait (see counted.h). */
#include "counted.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void wl_counts_error_extra(const char *why, char *extra, size_t len)
{
	json_t *o = json_pack("{s:s}", "counters_error", why ? why : "");
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	extra[0] = '\0';
	if (text && strlen(text) < len)
		memcpy(extra, text, strlen(text) + 1);
	free(text);
	json_decref(o);
}
