/* Every fuzz seed and every input a fuzzer once crashed on (tests/fuzz/), run
 * again through the same entry points in the ordinary sanitized build: a
 * finding fixed stays fixed. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz_targets.h"

static int replay_dir(const char *dir, void (*target)(const uint8_t *, size_t))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int count = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[1024];
		unsigned char *data;
		long size;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fseek(f, 0, SEEK_SET);
		data = malloc((size_t)size + 1);
		if (data && fread(data, 1, (size_t)size, f) == (size_t)size) {
			target(data, (size_t)size);
			count++;
		}
		free(data);
		fclose(f);
	}
	closedir(d);
	return count;
}

void test_fuzz_corpus_and_findings_replay_cleanly(void)
{
	int n;

	CHECK(wl_fuzz_init(".") == 0, "the fuzz targets start");
	n = replay_dir("tests/fuzz/corpus/request", wl_fuzz_request);
	CHECK(n >= 20, "%d request seeds", n);
	n = replay_dir("tests/fuzz/corpus/http", wl_fuzz_http);
	CHECK(n >= 20, "%d http seeds", n);
	n = replay_dir("tests/fuzz/corpus/head", wl_fuzz_head);
	CHECK(n >= 8, "%d head seeds", n);
	n = replay_dir("tests/fuzz/corpus/source", wl_fuzz_source);
	CHECK(n >= 8, "%d source seeds", n);
	CHECK(replay_dir("tests/fuzz/regressions/head", wl_fuzz_head) >= 0, "head findings");
	CHECK(replay_dir("tests/fuzz/regressions/source", wl_fuzz_source) >= 0, "source findings");
	CHECK(replay_dir("tests/fuzz/regressions/request", wl_fuzz_request) >= 0, "request findings");
	CHECK(replay_dir("tests/fuzz/regressions/http", wl_fuzz_http) >= 0, "http findings");
	wl_fuzz_fini();
}
