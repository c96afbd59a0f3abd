/* An own experiment's CUDA modules compiled by builder processes
 * (cuda_builders.h), each builder here a child of the test that runs the
 * builder's side: every module of a run arrives on the worker's list as
 * its builder answers — with ptxas's report, the cubin and the PTX where
 * this machine has NVRTC — one that does not compile arrives as not
 * compiled, and where the builders cannot compile at all (no NVRTC, as in
 * CI) every module still arrives, as not compiled, so that no point waits
 * for ever and each compiles its own. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cuda_builders.h"
#include "cuda_compile.h"

static struct wl_nvrtc builders_nv;	/* what the children compile with */
static pid_t children[8];
static int nchildren;

/* A wl_builder_spawn: a child of this process speaking on WL_BUILDER_FD. */
static int fork_builder(const char *where, int *fd, int *pidfd, pid_t *pid)
{
	int pair[2];

	if (nchildren == 8 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0)
		return -1;
	*pid = fork();
	if (*pid == 0) {
		/* Nothing of the test's but its socket, as an exec'd builder has:
		 * another builder's socket held here would never close. */
		if (dup2(pair[1], WL_BUILDER_FD) < 0)
			_exit(127);
		close_range(WL_BUILDER_FD + 1, ~0u, 0);
		_exit(strncmp(where, "cuda\n", 5) == 0 ? wl_cuda_builder_main(&builders_nv, where + 5) : 2);
	}
	close(pair[1]);
	if (*pid < 0 || (*pidfd = (int)syscall(SYS_pidfd_open, *pid, 0)) < 0) {
		if (*pid > 0)
			kill(*pid, SIGKILL);
		close(pair[0]);
		return -1;
	}
	children[nchildren++] = *pid;
	*fd = pair[0];
	return 0;
}

void test_cuda_modules_come_from_builders(void)
{
	static const char text[] = "extern \"C\" __global__ void scale(float *x) { x[threadIdx.x] *= SCALE; }\n";
	char options[3][128] = { "-D SCALE=2", "-D SCALE=3", "-D SCALE=(" };
	char why[256];
	struct wl_source src;
	struct wl_error err;
	int have = wl_nvrtc_open(NULL, &builders_nv, why, sizeof(why)) == 0;
	size_t sent;

	if (wl_source_from_text(text, &src, &err) < 0) {
		CHECK(0, "%s", err.msg);
		return;
	}
	nchildren = 0;
	sent = wl_cuda_builders_start(90, &src, options, 3, 2, fork_builder, "the test");
	CHECK(sent == 3, "3 modules sent to builders, got %zu", sent);
	for (size_t i = 0; i < 3; i++) {
		struct wl_cuda_compiled *c = wl_cuda_compiled_take(&src, options[i]);

		if (have && i < 2)
			CHECK(c && c->len > 4 && memcmp(c->bin, "\177ELF", 4) == 0 && c->ptx && strstr(c->ptx, ".entry scale") &&
				      c->log && !c->loaded,
			      "'%s': a cubin, its PTX and ptxas's report from a builder", options[i]);
		else
			CHECK(c == NULL, "'%s': arrived as not compiled (%s)", options[i], have ? "it does not compile" : why);
		wl_cuda_compiled_free(c);
	}
	CHECK(nchildren == 2, "two builders, got %d", nchildren);
	/* Each ends once the thread closes its socket. */
	for (int k = 0; k < nchildren; k++) {
		int status = 0;

		CHECK(waitpid(children[k], &status, 0) == children[k] && WIFEXITED(status) &&
			      WEXITSTATUS(status) == (have ? 0 : 1),
		      "builder %d ended with %d", k, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	wl_source_free(&src);
}
