/* A CUDA kernel compiled for Oclgrind (see cuda_oclgrind.h): clang and
 * warplab-cuda-ir run as children with the kernel's source in a folder of
 * their own beneath TMPDIR (the one place a confined worker writes), and
 * what they say on stderr is the error. */
#include "cuda_oclgrind.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl_program.h"
#include "trace_helpers.h"

#define CUDA_HEADER "cuda_oclgrind.h"

/* dir/name into out; -1 where it does not fit. */
static int join(char *out, size_t len, const char *dir, const char *name)
{
	int n = snprintf(out, len, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* clang 14, whose LLVM is Oclgrind's: where WARPLAB_CLANG says (a clang
 * unpacked elsewhere, as on a lent GPU machine; none where it is not
 * there), else Debian's. */
static const char *clang_path(void)
{
	static const char *const known[] = { "/usr/bin/clang-14", "/usr/lib/llvm-14/bin/clang" };
	const char *env = getenv("WARPLAB_CLANG");

	if (env && *env)
		return access(env, X_OK) == 0 ? env : NULL;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (access(known[i], X_OK) == 0)
			return known[i];
	return NULL;
}

const char *wl_cuda_oclgrind_unavailable(const char *kernels_dir)
{
	char path[PATH_MAX];

	if (!clang_path())
		return "tracing a CUDA kernel needs clang 14 (apt-get install clang-14)";
	if (wl_trace_helper_path(WL_CUDA_IR, path, sizeof(path)) < 0)
		return "tracing a CUDA kernel needs " WL_CUDA_IR " beside warplab-runner";
	if (join(path, sizeof(path), kernels_dir, CUDA_HEADER) < 0 || access(path, R_OK) != 0)
		return "tracing a CUDA kernel needs " CUDA_HEADER " in the kernels folder";
	return NULL;
}

extern char **environ;

/* This process's environment less what makes a program start under
 * Oclgrind (LD_PRELOAD, which clang's own LLVM would meet twice), into
 * env (cap entries, NULL-ended). */
static void plain_environment(char **env, size_t cap)
{
	size_t n = 0;

	for (char **e = environ; *e && n + 1 < cap; e++)
		if (strncmp(*e, "LD_PRELOAD=", 11) != 0)
			env[n++] = *e;
	env[n] = NULL;
}

/* Run argv with its stderr into log (len bytes, the end kept), stdout to
 * /dev/null, outside the simulator. Returns its exit status, or -1 where
 * it did not run or was killed. */
static int run_child(char *const argv[], char *log, size_t len)
{
	int fds[2], status = 0;
	size_t used = 0;
	ssize_t n;
	char sink[512], *env[512];
	pid_t pid;

	log[0] = '\0';
	plain_environment(env, sizeof(env) / sizeof(env[0]));
	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fds[1], STDERR_FILENO);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		close(fds[0]);
		execve(argv[0], argv, env);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	while ((n = read(fds[0], used + 1 < len ? log + used : sink,
			 used + 1 < len ? len - 1 - used : sizeof(sink))) > 0)
		if (used + 1 < len)
			used += (size_t)n;
	log[used] = '\0';
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* options' -D and -U flags (as "-DX=1" or "-D X=1") appended to argv from
 * *n, up to cap; copy holds their text (the caller frees it). */
static int defines(const char *options, char **copy, char **argv, size_t *n, size_t cap)
{
	char *save = NULL, *tok;

	*copy = strdup(options ? options : "");
	if (!*copy)
		return -1;
	for (tok = strtok_r(*copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		int flag = strcmp(tok, "-D") == 0 || strcmp(tok, "-U") == 0;

		if (*n + 2 >= cap)
			return -1;
		if (flag) {
			char *value = strtok_r(NULL, " \t\n", &save);

			if (!value)
				break;
			argv[(*n)++] = tok;
			argv[(*n)++] = value;
		} else if (strncmp(tok, "-D", 2) == 0 || strncmp(tok, "-U", 2) == 0) {
			argv[(*n)++] = tok;
		}
	}
	return 0;
}

/* The first lines of a compiler's log, the temporary folder left out of
 * its paths ("kernel.cu:5:12: error: ..."), into err's message between
 * what and after. */
static void said(struct wl_error *err, enum wl_error_kind kind, const char *what, const char *dir, char *log,
		 const char *after)
{
	size_t n, cut = strlen(dir);
	char *at;

	while ((at = strstr(log, dir)) && at[cut] == '/')
		memmove(at, at + cut + 1, strlen(at + cut + 1) + 1);
	n = strlen(log);

	while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' '))
		n--;
	wl_error_set(err, kind, "%s%s%.*s%s", what, n ? ": " : "", (int)(n > 600 ? 600 : n), log, after);
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(text, 1, len, f) == len;

	if (f && fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* Compile src into the binary at dir/k.bc; -1 with err. */
static int compile(const char *dir, const char *kernels_dir, const struct wl_source *src, const char *options,
		   size_t dynamic_shared, char *log, size_t log_len, struct wl_error *err)
{
	char cu[PATH_MAX], raw[PATH_MAX], out[PATH_MAX], header[PATH_MAX], ir[PATH_MAX], shared[32];
	char *argv[96], *copy = NULL;
	size_t n = 0;
	int rc;

	snprintf(shared, sizeof(shared), "%zu", dynamic_shared);
	if (join(cu, sizeof(cu), dir, "kernel.cu") < 0 || join(raw, sizeof(raw), dir, "nvptx.bc") < 0 ||
	    join(out, sizeof(out), dir, "k.bc") < 0 || join(header, sizeof(header), kernels_dir, CUDA_HEADER) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "the temporary folder's path is too long");
		return -1;
	}
	if (write_file(cu, src->text, src->len) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot write the kernel for clang: %s", strerror(errno));
		return -1;
	}
	/* Oclgrind builds OpenCL at -Oz unless told otherwise: the same here,
	 * so a CUDA kernel and its OpenCL twin are traced alike. */
	const char *fixed[] = { clang_path(), "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
				"--cuda-gpu-arch=sm_70", "-Xclang", "-target-feature", "-Xclang", "+ptx70",
				"-Wno-unknown-cuda-version", "-Oz", "-fno-builtin",
				"-gline-tables-only", "-emit-llvm", "-c", "-include", header, "-o", raw };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		argv[n++] = (char *)fixed[i];
	if (defines(options, &copy, argv, &n, sizeof(argv) / sizeof(argv[0]) - 2) < 0) {
		free(copy);
		wl_error_set(err, WL_ERR_INTERNAL, "too many build options for clang");
		return -1;
	}
	argv[n++] = cu;
	argv[n] = NULL;
	rc = run_child(argv, log, log_len);
	free(copy);
	if (rc != 0) {
		said(err, WL_ERR_BUILD, "clang cannot compile the CUDA kernel for the simulator", dir, log, "");
		return -1;
	}
	if (wl_trace_helper_path(WL_CUDA_IR, ir, sizeof(ir)) < 0) {
		wl_error_set(err, WL_ERR_CONFIG, "tracing a CUDA kernel needs " WL_CUDA_IR " beside warplab-runner");
		return -1;
	}
	char *conv[] = { ir, raw, out, shared, NULL };
	rc = run_child(conv, log, log_len);
	if (rc == 2) {
		said(err, WL_ERR_CONFIG, "not traced: the simulator cannot run this CUDA kernel as written", dir, log,
		     "; the kernel's measurements stand");
		return -1;
	}
	if (rc != 0) {
		said(err, WL_ERR_INTERNAL, WL_CUDA_IR " failed", dir, log, "");
		return -1;
	}
	return 0;
}

/* The folder's files and the folder removed. */
static void clean(const char *dir)
{
	static const char *const files[] = { "kernel.cu", "nvptx.bc", "k.bc" };
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (join(path, sizeof(path), dir, files[i]) == 0)
			unlink(path);
	rmdir(dir);
}

int wl_cuda_oclgrind_program(struct wl_device *dev, const char *kernels_dir, const struct wl_source *src,
			     const char *options, size_t dynamic_shared, cl_program *out, struct wl_error *err)
{
	const char *tmp = getenv("TMPDIR"), *missing = wl_cuda_oclgrind_unavailable(kernels_dir);
	char dir[PATH_MAX], path[PATH_MAX], *log = malloc(16384);
	struct wl_source binary = { 0 };
	const unsigned char *bits;
	cl_int code = CL_SUCCESS;
	cl_device_id device = wl_cl_of(dev)->device;
	int rc = -1;

	*out = NULL;
	if (missing || !log) {
		wl_error_set(err, missing ? WL_ERR_CONFIG : WL_ERR_INTERNAL, "%s", missing ? missing : "out of memory");
		free(log);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/warplab-cuda-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot make a folder for clang: %s", strerror(errno));
		free(log);
		return -1;
	}
	if (join(path, sizeof(path), dir, "k.bc") < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "the temporary folder's path is too long");
		goto out;
	}
	if (compile(dir, kernels_dir, src, options, dynamic_shared, log, 16384, err) < 0)
		goto out;
	/* The program's bitcode, read as a source file is (whole, its length kept). */
	if (wl_source_load(path, &binary, err) < 0 || binary.len == 0) {
		wl_error_set(err, WL_ERR_INTERNAL, WL_CUDA_IR " wrote no program");
		goto out;
	}
	bits = (const unsigned char *)binary.text;
	*out = clCreateProgramWithBinary(wl_cl_of(dev)->context, 1, &device, &binary.len, &bits, NULL, &code);
	if (*out && (code = clBuildProgram(*out, 1, &device, "", NULL, NULL)) != CL_SUCCESS) {
		clReleaseProgram(*out);
		*out = NULL;
	}
	if (!*out) {
		wl_error_set(err, WL_ERR_INTERNAL, "the simulator refused the CUDA kernel's program: %s",
			     wl_cl_error_name(code));
		goto out;
	}
	rc = 0;
out:
	clean(dir);
	wl_source_free(&binary);
	free(log);
	return rc;
}
