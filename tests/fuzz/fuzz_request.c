/* libFuzzer entry point over request validation (tests/fuzz/fuzz_targets.c).
 * WARPLAB_ROOT names the repository (default: the working directory). */
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
	wl_fuzz_request(data, size);
	return 0;
}
