/* CUDA modules kept on disk (cuda_compile.c over program_disk.c): a module
 * of a catalog source kept under its compute capability is loaded, not
 * compiled — with no NVRTC at all, as here in CI — with its log and PTX; a
 * user's source is never read from disk; and where this machine has NVRTC,
 * a compile leaves its module on disk for the next worker. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuda_compile.h"
#include "cuda_nvrtc.h"
#include "program_disk.h"
#include "source.h"

/* The files in dir (removed where remove is set). */
static int files_in(const char *dir, int remove)
{
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	for (; d && (e = readdir(d)) != NULL;)
		if (e->d_name[0] != '.') {
			n++;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (remove)
				unlink(path);
		}
	if (d)
		closedir(d);
	return n;
}

void test_cuda_modules_kept_on_disk_are_loaded_not_compiled(void)
{
	struct wl_nvrtc none, nv;
	struct wl_source src, user;
	struct wl_cuda_compiled *got = NULL;
	struct wl_program_file kept = { (unsigned char *)"CUBIN", 5, "ptxas info    : Used 6 registers",
					".version 8.0" };
	struct wl_error err;
	char dir[] = "/tmp/wl-cuda-kept-XXXXXX", key[1536], why[256];

	memset(&none, 0, sizeof(none));	/* no NVRTC: whatever is not on disk fails */
	CHECK(mkdtemp(dir) != NULL, "temporary folder");
	if (wl_source_from_text("__global__ void k(float *x) { x[0] = TILE; }", &src, &err) < 0 ||
	    wl_source_from_text("__global__ void k(float *x) { x[0] = TILE; }", &user, &err) < 0)
		return;
	src.keep_binary = 1;	/* as a catalog file's */
	wl_cuda_compiled_keep_in(dir);
	wl_cuda_disk_key(&none, 90, &src, "-D TILE=16", key, sizeof(key));
	CHECK(wl_program_disk_save(dir, key, src.text, src.len, &kept, &err) == 0, "%s", err.msg);
	CHECK(wl_cuda_compile(&none, 90, &src, "-D TILE=16", &got, &err) == 0 && got && got->loaded &&
	      got->len == 5 && memcmp(got->bin, "CUBIN", 5) == 0 && strcmp(got->log, kept.log) == 0 &&
	      got->ptx && strcmp(got->ptx, kept.ptx) == 0, "kept: loaded with its log and PTX, NVRTC not asked");
	wl_cuda_compiled_free(got);
	got = NULL;
	CHECK(wl_cuda_compile(&none, 80, &src, "-D TILE=16", &got, &err) < 0 && !got,
	      "another compute capability: not the kept one");
	CHECK(wl_cuda_compile(&none, 90, &src, "-D TILE=32", &got, &err) < 0 && !got, "other options: not it");
	CHECK(wl_cuda_compile(&none, 90, &user, "-D TILE=16", &got, &err) < 0 && !got,
	      "a user's source is never read from disk");
	files_in(dir, 1);
	if (wl_nvrtc_open(NULL, &nv, why, sizeof(why)) == 0) {
		CHECK(wl_cuda_compile(&nv, 90, &src, "-D TILE=16", &got, &err) == 0 && got && !got->loaded, "%s",
		      err.msg);
		CHECK(files_in(dir, 0) == 1, "compiled, its module is kept");
		wl_cuda_compiled_free(got);
		got = NULL;
		CHECK(wl_cuda_compile(&nv, 90, &user, "-D TILE=16", &got, &err) == 0 && files_in(dir, 0) == 1,
		      "a user's module is compiled and not kept");
		wl_cuda_compiled_free(got);
	}
	wl_cuda_compiled_keep_in(NULL);
	files_in(dir, 1);
	rmdir(dir);
	wl_source_free(&src);
	wl_source_free(&user);
}
