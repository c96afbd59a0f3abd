/* The backends there are, and the one a request's language picks
 * (backend.h): the one place the language chooses the API. */
#include "backend.h"


const struct wl_backend *wl_backend_for(enum wl_language language)
{
	static const struct wl_backend *const all[] = { &wl_backend_opencl, &wl_backend_cuda };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i]->language == language)
			return all[i];
	return &wl_backend_opencl;
}
