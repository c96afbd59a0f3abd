/* A small unit-test harness: each test is a function registered in
 * tests/unit/main.c; CHECK records a failure with the expression, file and line
 * and a printf-style explanation, and the test goes on so a table-driven test
 * reports every bad row, not only the first. */
#ifndef WL_CHECK_H
#define WL_CHECK_H

#include <stdio.h>

extern int check_failures;	/* failures in the test being run */

#define CHECK(cond, ...)                                                                   \
	do {                                                                               \
		if (!(cond)) {                                                             \
			check_failures++;                                                  \
			fprintf(stderr, "    %s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                      \
			fputc('\n', stderr);                                               \
		}                                                                          \
	} while (0)

/* The directory for a test's scratch files (created by main, removed after). */
extern char check_tmpdir[];

/* Path of the repository's catalog, for tests that load the real one. */
#define CATALOG_PATH "kernels/catalog.json"

/* The repository's catalog, or NULL with a failed CHECK. Caller frees with
 * wl_catalog_free(). */
struct wl_catalog;
struct wl_catalog *check_load_catalog(void);

#endif
