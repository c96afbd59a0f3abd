/* The model's version (see analysis.h, "the model's record"): what a
 * prediction was made by, so that the ledger never mixes the points of two
 * models. The build hashes the code predictions are made by (the Makefile's
 * MODEL_VERSION_SRC) into WL_MODEL_HASH; the catalog's hash, taken as it is
 * loaded, adds the declarations. A build without the hash (the fuzzers')
 * says so in its version. */
#include "analysis.h"

#include <inttypes.h>
#include <stdio.h>

#ifndef WL_MODEL_HASH
#define WL_MODEL_HASH "unhashed"
#endif

void wl_model_version(const struct wl_catalog *cat, char *out, size_t len)
{
	snprintf(out, len, "%s-%012" PRIx64, WL_MODEL_HASH, cat ? (uint64_t)(cat->hash & 0xffffffffffffULL) : (uint64_t)0);
}
