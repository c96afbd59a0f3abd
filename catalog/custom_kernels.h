/* Custom kernels: a run request's "kernels" list, each a user's OpenCL C kernel
 * that runs "like" one of the experiment's built-in variants — same arguments,
 * buffers, launch geometry, build options, byte count and CPU verification;
 * only the code differs. Here they are validated (before anything is queued)
 * and matched to the built-in variant they stand in for. */
#ifndef WL_CUSTOM_KERNELS_H
#define WL_CUSTOM_KERNELS_H

#include <jansson.h>

#include "catalog.h"
#include "error.h"

#define WL_CUSTOM_MAX 8			/* custom kernels in one run */
#define WL_CUSTOM_SOURCE_MAX 65536	/* bytes of source, all kernels together */
#define WL_CUSTOM_NAME_MAX 64		/* [A-Za-z_][A-Za-z0-9_]{0,63} */

/* Validate spec (the request's "kernels" value) for exp and append each kernel,
 * normalized to {name, like, entry, source}, to out (an array). Errors name the
 * field (kernels[1].entry, ...), quote the value and say what is allowed. */
int wl_custom_kernels_validate(const struct wl_experiment *exp, const json_t *spec, json_t *out,
			       struct wl_error *err);

/* The built-in variant that the normalized kernel k stands in for, or NULL. */
const struct wl_variant_def *wl_custom_kernel_like(const struct wl_experiment *exp, const json_t *k);

#endif
