/* The languages' spelling (see language.h), read and written with the names
 * that header gives. */
#include "language.h"

#include <string.h>

const char *wl_language_name(enum wl_language lang)
{
	return lang == WL_LANG_CUDA ? WL_LANG_CUDA_NAME : WL_LANG_OPENCL_NAME;
}

int wl_language_parse(const char *s, enum wl_language *out)
{
	if (s && strcmp(s, WL_LANG_OPENCL_NAME) == 0)
		*out = WL_LANG_OPENCL;
	else if (s && strcmp(s, WL_LANG_CUDA_NAME) == 0)
		*out = WL_LANG_CUDA;
	else
		return -1;
	return 0;
}
