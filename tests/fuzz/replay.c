/* The fuzz replay: every seed (tests/fuzz/corpus/<target>/) and every past
 * finding (tests/fuzz/regressions/<target>/) run again through the fuzz
 * targets in a build with AddressSanitizer and UBSan (make test builds it so,
 * whatever SANITIZE says), so a finding fixed stays fixed. A seed must only
 * not crash; a finding must also keep the outcome its fix gave it, which its
 * file name says: accepted-*, refused-* or status-NNN-* (the HTTP status).
 * Prints a line per finding and per seed folder and ends with
 * "fuzz replay: N passed, N failed". */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

struct target {
	const char *name;
	int (*run)(const uint8_t *, size_t);
	int seeds_min;		/* a corpus folder that lost its seeds fails */
};

static const struct target targets[] = {
	{ "request", wl_fuzz_request, 20 },
	{ "http", wl_fuzz_http, 20 },
	{ "head", wl_fuzz_head, 8 },
	{ "source", wl_fuzz_source, 8 },
	{ "compiler", wl_fuzz_compiler, 8 },
};

static int passed, failed;

static void report(int ok, const char *what, const char *why)
{
	if (ok) {
		passed++;
		printf("ok - %s\n", what);
	} else {
		failed++;
		printf("not ok - %s: %s\n", what, why);
	}
}

/* The outcome name asks of an input, or -1 when it names none. */
static int expected(const struct target *t, const char *name)
{
	if (strncmp(name, "accepted-", 9) == 0)
		return WL_FUZZ_ACCEPTED;
	if (strncmp(name, "refused-", 8) == 0)
		return WL_FUZZ_REFUSED;
	if (t->run == wl_fuzz_http && strncmp(name, "status-", 7) == 0)
		return atoi(name + 7);
	return -1;
}

/* Run every file of dir through t; with findings, hold each to the outcome
 * its name says. Returns how many ran, -1 when dir cannot be read. */
static int replay(const struct target *t, const char *dir, int findings)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), ran = 0;

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char path[1024], what[1100], why[160];
		unsigned char *data = NULL;
		long size;
		FILE *f = NULL;
		int got, want;

		if (names[i]->d_name[0] == '.')
			goto next;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		f = fopen(path, "rb");
		if (!f || fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0 ||
		    !(data = malloc((size_t)size + 1)) || fread(data, 1, (size_t)size, f) != (size_t)size) {
			report(0, path, "cannot be read");
			goto next;
		}
		got = t->run(data, (size_t)size);
		ran++;
		if (findings) {
			want = expected(t, names[i]->d_name);
			snprintf(what, sizeof(what), "%s keeps its fix", path);
			if (want < 0)
				snprintf(why, sizeof(why), "its name says no outcome (accepted-, refused-%s)",
					 t->run == wl_fuzz_http ? " or status-NNN-" : "");
			else
				snprintf(why, sizeof(why), "outcome %d, its name says %d", got, want);
			report(want >= 0 && got == want, what, why);
		}
next:
		free(data);
		if (f)
			fclose(f);
		free(names[i]);
	}
	free(names);
	return ran;
}

int main(void)
{
	if (wl_fuzz_init(".") < 0) {
		printf("not ok - the fuzz targets start\nfuzz replay: 0 passed, 1 failed\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		const struct target *t = &targets[i];
		char dir[256], what[300], why[64];
		int n;

		snprintf(dir, sizeof(dir), "tests/fuzz/corpus/%s", t->name);
		n = replay(t, dir, 0);
		snprintf(what, sizeof(what), "%s: every seed runs clean", dir);
		snprintf(why, sizeof(why), "%d seeds, at least %d expected", n, t->seeds_min);
		report(n >= t->seeds_min, what, why);
		snprintf(dir, sizeof(dir), "tests/fuzz/regressions/%s", t->name);
		if (replay(t, dir, 1) < 0)
			report(0, dir, "cannot be read");
	}
	wl_fuzz_fini();
	printf("fuzz replay: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
