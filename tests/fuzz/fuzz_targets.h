/* What the fuzzers exercise, callable from libFuzzer and from the unit tests
 * (which replay the seed corpus and every past finding): request validation,
 * the whole HTTP handling path without a socket, the gate's framing check,
 * the custom-kernel source checks and the reading of a compiler's account. */
#ifndef WL_FUZZ_TARGETS_H
#define WL_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* Load the catalog (and, for the HTTP target, a server on a scratch store)
 * once; dir is the repository root. Returns 0 on success. */
int wl_fuzz_init(const char *dir);

/* What a target made of an input, so that a replayed finding can be held to
 * the outcome its fix gave it (tests/fuzz/regressions/ names it). */
#define WL_FUZZ_ACCEPTED 0
#define WL_FUZZ_REFUSED 1

/* The body of POST /api/runs: JSON parsing, validation against the catalog,
 * expansion into points and the device-limit check. Returns
 * WL_FUZZ_ACCEPTED for a valid request, else WL_FUZZ_REFUSED. */
int wl_fuzz_request(const uint8_t *data, size_t size);

/* A whole request: "METHOD PATH?QUERY\n", header lines "Name: value\n", an
 * empty line, then the body. Routed through wl_server_handle(); returns the
 * response's status, or 0 for an input libmicrohttpd would not hand over. */
int wl_fuzz_http(const uint8_t *data, size_t size);

/* A raw request head through the gate's framing check (http_head.h):
 * WL_FUZZ_ACCEPTED when it may go on, else WL_FUZZ_REFUSED. */
int wl_fuzz_head(const uint8_t *data, size_t size);

/* A kernel source through the directive check and the kernel scanner, as a
 * custom kernel's is before it is queued, and through the reading of its
 * kernels' parameters and the draft over them (source_scan.h):
 * WL_FUZZ_ACCEPTED when the check lets it pass, else WL_FUZZ_REFUSED. */
int wl_fuzz_source(const uint8_t *data, size_t size);

/* What the device's compiler said, read as the server reads a stored build
 * (compiler_account.h): the first line names a kernel, the rest is read as
 * a ptxas log and as PTX (cleaned of paths, that kernel's view cut out).
 * WL_FUZZ_ACCEPTED when the PTX has that entry function, else
 * WL_FUZZ_REFUSED. A custom kernel's name and code shape both texts. */
int wl_fuzz_compiler(const uint8_t *data, size_t size);

/* Release what wl_fuzz_init() made (for the replaying unit test). */
void wl_fuzz_fini(void);

#endif
