/* The libFuzzer entry point, built once per target (fuzz_targets.h) with
 * -DWL_FUZZ_TARGET=wl_fuzz_request or wl_fuzz_http. WARPLAB_ROOT names the
 * repository (default: the working directory). */
#include <stdlib.h>

#include "fuzz_targets.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *root = getenv("WARPLAB_ROOT");

	(void)argc;
	(void)argv;
	if (wl_fuzz_init(root ? root : ".") < 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)WL_FUZZ_TARGET(data, size);
	return 0;
}
