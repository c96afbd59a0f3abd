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

/* A test that cannot run here sets why (e.g. "no NVRTC: ..."): it is then
 * reported "# SKIP skipped: why", never as passed silently. */
extern char check_skipped[300];

/* The directory for a test's scratch files (created by main, removed after). */
extern char check_tmpdir[];

/* The PostgreSQL server the store tests run against a second time (the libpq
 * URI in WARPLAB_TEST_PG, see tests/postgres.sh), while a store test runs
 * on it; NULL while it runs on SQLite. */
extern const char *check_store_pg;

/* A fresh, empty store named name for the engine being tested, as a --db
 * value into out: a new SQLite file in check_tmpdir, or a new PostgreSQL
 * schema (dropped first if a previous run left it). -1 on failure. */
int check_store_target(const char *name, char *out, size_t len);

/* How long a test waits for a wake-up that should come (a PostgreSQL NOTIFY
 * travels through the server) or should not. */
#define CHECK_WAKE_MS (check_store_pg ? 2000 : 0)
#define CHECK_NO_WAKE_MS (check_store_pg ? 200 : 0)

/* Path of the repository's catalog, for tests that load the real one. */
#define CATALOG_PATH "kernels/catalog.json"

/* The repository's catalog, or NULL with a failed CHECK. Caller frees with
 * wl_catalog_free(). */
struct wl_catalog;
struct wl_catalog *check_load_catalog(void);

#endif
