/* A device's languages and counters (see cuda_languages.h). */
#include "cuda_languages.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti_counters.h"
#include "language.h"

int wl_cupti_loads(const char *lib, char *why, size_t len)
{
	void *h = wl_cupti_open(lib, why, len);

	if (h)
		dlclose(h);
	return h != NULL;
}

/* Whether the driver restricts profiling to administrators: its parameter
 * RmProfilingAdminOnly (NVreg_RestrictProfilingToAdminUsers) is 1. Unknown
 * (no file) counts as not restricted: the first profile then says. */
static int admin_only(const char *params)
{
	char line[256];
	FILE *f = fopen(params, "r");
	int restricted = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "RmProfilingAdminOnly:", 21) == 0)
			restricted = strtol(line + 21, NULL, 10) == 1;
	fclose(f);
	return restricted;
}

static json_t *part(int available, const char *reason)
{
	return json_pack("{s:b, s:s*}", "available", available, "reason", available ? NULL : reason);
}

json_t *wl_cuda_languages(const struct wl_cuda_parts *parts, const struct wl_pci_address *pci)
{
	char cuda_why[300] = "", counters_why[300] = "";
	int cuda = 0, counters = 0;

	if (!pci)
		snprintf(cuda_why, sizeof(cuda_why), "not an NVIDIA GPU");
	else if (!parts->driver || parts->driver->count == 0)
		snprintf(cuda_why, sizeof(cuda_why), "%s", parts->driver_why && parts->driver_why[0] ? parts->driver_why : "no CUDA driver");
	else if (wl_cuda_ordinal(parts->driver, pci->domain, pci->bus, pci->device) < 0)
		snprintf(cuda_why, sizeof(cuda_why), "the CUDA driver does not know the device at %04x:%02x:%02x",
			 pci->domain, pci->bus, pci->device);
	else if (!parts->nvrtc || !parts->nvrtc->handle)
		snprintf(cuda_why, sizeof(cuda_why), "%s", parts->nvrtc_why && parts->nvrtc_why[0] ? parts->nvrtc_why : "no NVRTC");
	else
		cuda = 1;
	if (!cuda)
		snprintf(counters_why, sizeof(counters_why), "no CUDA: %s", cuda_why);
	else if (!parts->cupti)
		snprintf(counters_why, sizeof(counters_why), "%s", parts->cupti_why && parts->cupti_why[0] ? parts->cupti_why : "no CUPTI");
	else if (!parts->admin && admin_only(parts->profiling_params))
		snprintf(counters_why, sizeof(counters_why), "not permitted: the driver lets only administrators profile "
			 "(NVreg_RestrictProfilingToAdminUsers; docs/operations.md says how a lab enables it)");
	else
		counters = 1;
	return json_pack("{s:[s, s*], s:o, s:o}", "languages", WL_LANG_OPENCL_NAME, cuda ? WL_LANG_CUDA_NAME : NULL, "cuda",
			 part(cuda, cuda_why), "counters", part(counters, counters_why));
}
