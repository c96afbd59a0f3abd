/* The architectures' occupancy limits (see gpu_limits.h). */
#include "gpu_limits.h"

#include <string.h>

/* The numbers an architecture entry must hold. */
static const char *const fields[] = { "warp", "warps", "groups", "registers", "register_unit",
				      "register_banks", "max_registers", "local_bytes",
				      "local_max_per_group", "local_unit" };

int wl_gpu_limits_check(const json_t *limits, struct wl_error *err)
{
	const char *vendor, *arch;
	json_t *archs, *entry;

	if (!json_is_object(limits)) {
		wl_error_set(err, WL_ERR_CONFIG, "gpu limits: not a JSON object");
		return -1;
	}
	json_object_foreach((json_t *)limits, vendor, archs) {
		if (strcmp(vendor, "about") == 0)
			continue;
		json_object_foreach(archs, arch, entry) {
			for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
				if (json_integer_value(json_object_get(entry, fields[i])) <= 0) {
					wl_error_set(err, WL_ERR_CONFIG,
						     "gpu limits: %s %s: field \"%s\" must be a positive integer",
						     vendor, arch, fields[i]);
					return -1;
				}
			}
			if (json_integer_value(json_object_get(entry, "local_reserved")) < 0) {
				wl_error_set(err, WL_ERR_CONFIG, "gpu limits: %s %s: \"local_reserved\" is negative",
					     vendor, arch);
				return -1;
			}
		}
	}
	return 0;
}

const json_t *wl_gpu_limits_for(const json_t *limits, const json_t *device, const char **why)
{
	const char *vendor = json_string_value(json_object_get(device, "vendor"));
	const char *cc = json_string_value(json_object_get(device, "compute_capability"));
	const json_t *entry;

	if (!vendor || !strstr(vendor, "NVIDIA")) {
		*why = "no limits are known for this vendor's compute units";
		return NULL;
	}
	if (!cc) {
		*why = "the device's compute capability was not recorded";
		return NULL;
	}
	entry = json_object_get(json_object_get(limits, "nvidia"), cc);
	if (!entry)
		*why = "no limits are known for this compute capability";
	return entry;
}
