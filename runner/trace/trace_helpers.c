/* Where the tracer's helpers are (see trace_helpers.h). */
#include "trace_helpers.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

int wl_trace_helper_path(const char *name, char *out, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = '\0';
		snprintf(out, len, "%s/%s", dirname(self), name);
		if (access(out, R_OK) == 0)
			return 0;
	}
#ifdef WL_LIBDIR
	snprintf(out, len, "%s/%s", WL_LIBDIR, name);
	if (access(out, R_OK) == 0)
		return 0;
#endif
	return -1;
}

int wl_trace_plugin_path(char *out, size_t len)
{
	return wl_trace_helper_path(WL_TRACE_PLUGIN, out, len);
}
