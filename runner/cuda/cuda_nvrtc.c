/* NVRTC through dlopen (see nvrtc.h): its entry points by name, the
 * nvrtcResult codes as ints (0 is NVRTC_SUCCESS in every version). */
#include "cuda_nvrtc.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int open_one(const char *lib, struct wl_nvrtc *out, char *why, size_t why_len)
{
	int (*version)(int *, int *);
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(why, why_len, "no NVRTC (%s)", dlerror());
		return -1;
	}
	*(void **)&version = dlsym(h, "nvrtcVersion");
	*(void **)&out->create = dlsym(h, "nvrtcCreateProgram");
	*(void **)&out->compile = dlsym(h, "nvrtcCompileProgram");
	*(void **)&out->log_size = dlsym(h, "nvrtcGetProgramLogSize");
	*(void **)&out->log = dlsym(h, "nvrtcGetProgramLog");
	*(void **)&out->ptx_size = dlsym(h, "nvrtcGetPTXSize");
	*(void **)&out->ptx = dlsym(h, "nvrtcGetPTX");
	*(void **)&out->destroy = dlsym(h, "nvrtcDestroyProgram");
	*(void **)&out->cubin_size = dlsym(h, "nvrtcGetCUBINSize");
	*(void **)&out->cubin = dlsym(h, "nvrtcGetCUBIN");
	*(void **)&out->error_string = dlsym(h, "nvrtcGetErrorString");
	if (!version || !out->create || !out->compile || !out->log_size || !out->log || !out->ptx_size ||
	    !out->ptx || !out->destroy || !out->error_string || version(&out->major, &out->minor) != 0) {
		snprintf(why, why_len, "%s is not a usable NVRTC (entry points missing)", lib);
		dlclose(h);
		memset(out, 0, sizeof(*out));
		return -1;
	}
	out->handle = h;
	return 0;
}

int wl_nvrtc_open(const char *lib, struct wl_nvrtc *out, char *why, size_t why_len)
{
	static const char *const libs[] = { WL_NVRTC_LIBS };

	memset(out, 0, sizeof(*out));
	if (lib)
		return open_one(lib, out, why, why_len);
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (open_one(libs[i], out, why, why_len) == 0)
			return 0;
	snprintf(why, why_len, "no NVRTC (none of libnvrtc.so, libnvrtc.so.13, libnvrtc.so.12, "
		 "/usr/local/cuda/lib64/libnvrtc.so loads)");
	return -1;
}

/* The program's log, or an empty string; NULL only when out of memory. */
static char *program_log(const struct wl_nvrtc *nv, void *prog)
{
	size_t n = 0;
	char *text;

	if (nv->log_size(prog, &n) != 0 || n == 0)
		return strdup("");
	text = malloc(n + 1);
	if (text && nv->log(prog, text) != 0)
		text[0] = '\0';
	if (text)
		text[n] = '\0';
	return text;
}

/* The PTX of prog, compiled, into *ptx (NULL where NVRTC gives none). */
static void program_ptx(const struct wl_nvrtc *nv, void *prog, char **ptx)
{
	size_t n = 0;

	*ptx = NULL;
	if (nv->ptx_size(prog, &n) != 0 || !(*ptx = malloc(n + 1)))
		return;
	if (nv->ptx(prog, *ptx) != 0) {
		free(*ptx);
		*ptx = NULL;
		return;
	}
	(*ptx)[n] = '\0';
}

/* wl_nvrtc_compile's, and with cubin, the PTX of the same compile into
 * *ptx where ptx is not NULL. */
static int compile(const struct wl_nvrtc *nv, const char *src, const char *name, int arch, int cubin,
		   const char *const *options, int noptions, char **out, size_t *out_len, char **ptx, char **log,
		   struct wl_error *err)
{
	const char *all[35];
	char arch_opt[48];
	void *prog = NULL;
	size_t n = 0;
	int rc, nall = 0;

	*out = *log = NULL;
	*out_len = 0;
	if (!nv->handle) {
		wl_error_set(err, WL_ERR_INTERNAL, "no NVRTC");
		return -1;
	}
	if (noptions > 32) {
		wl_error_set(err, WL_ERR_INTERNAL, "%d build options: at most 32", noptions);
		return -1;
	}
	if (cubin && (!nv->cubin_size || !nv->cubin)) {
		wl_error_set(err, WL_ERR_INTERNAL, "this NVRTC (%d.%d) makes no cubin", nv->major, nv->minor);
		return -1;
	}
	snprintf(arch_opt, sizeof(arch_opt), "--gpu-architecture=%s_%d", cubin ? "sm" : "compute", arch);
	all[nall++] = arch_opt;
	all[nall++] = "--std=c++17";
	if (cubin)
		all[nall++] = "--ptxas-options=-v";
	for (int i = 0; i < noptions; i++)
		all[nall++] = options[i];
	if ((rc = nv->create(&prog, src, name, 0, NULL, NULL)) != 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "NVRTC cannot take %s: %s", name, nv->error_string(rc));
		return -1;
	}
	rc = nv->compile(prog, nall, all);
	*log = program_log(nv, prog);
	if (rc != 0) {
		/* NVRTC may fail with only ptxas's figures in its log (a kernel
		 * whose shared memory no block can have): its error's name too. */
		wl_error_set(err, WL_ERR_BUILD, "%s does not compile for compute_%d (%s): %.900s", name, arch,
			     nv->error_string(rc), *log && (*log)[0] ? *log : "NVRTC's log is empty");
		goto fail;
	}
	if ((cubin ? nv->cubin_size(prog, &n) : nv->ptx_size(prog, &n)) != 0 || !(*out = malloc(n + 1)) ||
	    (cubin ? nv->cubin(prog, *out) : nv->ptx(prog, *out)) != 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "NVRTC gave no %s for %s", cubin ? "cubin" : "PTX", name);
		goto fail;
	}
	(*out)[n] = '\0';
	*out_len = n;
	if (ptx)
		program_ptx(nv, prog, ptx);
	nv->destroy(&prog);
	return 0;
fail:
	nv->destroy(&prog);
	free(*out);
	free(*log);
	*out = *log = NULL;
	return -1;
}

int wl_nvrtc_compile(const struct wl_nvrtc *nv, const char *src, const char *name, int arch, int cubin,
		     const char *const *options, int noptions, char **out, size_t *out_len, char **log,
		     struct wl_error *err)
{
	return compile(nv, src, name, arch, cubin, options, noptions, out, out_len, NULL, log, err);
}

int wl_nvrtc_compile_cubin(const struct wl_nvrtc *nv, const char *src, const char *name, int arch,
			   const char *const *options, int noptions, char **cubin, size_t *len, char **ptx, char **log,
			   struct wl_error *err)
{
	*ptx = NULL;
	return compile(nv, src, name, arch, 1, options, noptions, cubin, len, ptx, log, err);
}
