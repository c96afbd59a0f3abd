/* The pieces that stand between hostile input and the host, each alone: the
 * gate's framing check, the build-log cleaner, and the worker's confinement
 * (a child process confines itself and then tries the host's files). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build_log.h"
#include "check.h"
#include "confine.h"
#include "http_head.h"

void test_http_heads_with_unsound_framing_are_refused(void)
{
	static const struct {
		const char *head;
		int status;
		const char *message;
	} rows[] = {
		{ "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 0, NULL },
		{ "GET / HTTP/1.0\r\n\r\n", 0, NULL },
		{ "POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 42\r\n\r\n", 0, NULL },
		{ "POST /api/runs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 0, NULL },
		{ "GET http://127.0.0.1:8080/api/health HTTP/1.1\r\nHost: x\r\n\r\n", 0, NULL },
		{ "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n", 400, "several Content-Length" },
		{ "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\ncontent-length: 4\r\n\r\n", 400, "several Content-Length" },
		{ "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400, "'abc' is not a length" },
		{ "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", 400, "'-5' is not a length" },
		{ "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12345678901234567890\r\n\r\n", 400, "is not a length" },
		{ "POST / HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n", 400, "is not a length" },
		{ "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "both Content-Length and Transfer-Encoding" },
		{ "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 400, "'chunked' alone" },
		{ "GET /index.html%00.png HTTP/1.1\r\nHost: x\r\n\r\n", 400, "%00" },
		{ "GET /a\x01 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "control character" },
		{ "GET / HTTP/1.1\r\n\r\n", 400, "exactly one Host" },
		{ "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "exactly one Host" },
		{ "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400, "folded" },
		{ "GET / HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n", 400, "no colon" },
		{ "GET /\r\n\r\n", 400, "METHOD TARGET VERSION" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char msg[256] = "";
		int status = wl_http_head_check(rows[i].head, strlen(rows[i].head), msg, sizeof(msg));

		CHECK(status == rows[i].status, "row %zu: %d (%s), expected %d", i, status, msg, rows[i].status);
		CHECK(!rows[i].message || strstr(msg, rows[i].message), "row %zu: '%s' lacks '%s'", i, msg,
		      rows[i].message);
	}
}

void test_build_logs_lose_every_host_path(void)
{
	static const struct {
		const char *log, *shown;
	} rows[] = {
		{ "/root/.cache/pocl/kcache/tempfile_ab.cl:3:5: error: x", "<source>:3:5: error: x" },
		{ "error: <source>:1:1: static assertion failed: \"/root/.cache/pocl/kcache/tempfile_x.cl\"",
		  "error: <source>:1:1: static assertion failed: \"<source>\"" },
		{ "note: in file included from /usr/lib/clang/15/include/opencl-c.h:12:",
		  "note: in file included from <path>:12:" },
		{ "cannot open file '/tmp/warplab-secret-x/secret.h': Permission denied",
		  "cannot open file '<path>': Permission denied" },
		{ "at (/home/lab/k.h) and =/etc/hostname", "at (<path>) and =<path>" },
		{ "  x = n/2/k; y = (a)/b/c; // keep", "  x = n/2/k; y = (a)/b/c; // keep" },
		{ "a / b and /x alone", "a / b and /x alone" },
		{ "x <Spelling=/usr/lib/clang/opencl-c-base.h:354:32>", "x" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *shown = wl_build_log_for_users(rows[i].log);

		CHECK(shown && strcmp(shown, rows[i].shown) == 0, "row %zu: '%s', expected '%s'", i,
		      shown ? shown : "(null)", rows[i].shown);
		free(shown);
	}
}

/* In a child: confine to kernels=dir (read) and store=dir/store (read and
 * write), then report by exit status what could be opened. */
static int confined_child(const char *dir, const char *outside)
{
	char kernels[600], store[600], file[700], what[256];
	struct wl_confine_paths paths;
	int fd, bits = 0;

	snprintf(kernels, sizeof(kernels), "%s/kernels", dir);
	snprintf(store, sizeof(store), "%s/store", dir);
	paths = (struct wl_confine_paths){ .kernels = kernels, .store_dir = store };
	if (wl_confine(&paths, what, sizeof(what)) < 0)
		_exit(100);
	snprintf(file, sizeof(file), "%s/k.cl", kernels);
	if ((fd = open(file, O_RDONLY)) >= 0) {
		bits |= 1;	/* a kernel can be read */
		close(fd);
	}
	snprintf(file, sizeof(file), "%s/new.db", store);
	if ((fd = open(file, O_RDWR | O_CREAT, 0600)) >= 0) {
		bits |= 2;	/* the store can be written */
		close(fd);
	}
	if ((fd = open(outside, O_RDONLY)) < 0 && errno == EACCES)
		bits |= 4;	/* a host file cannot be read */
	if ((fd = open("/etc/passwd", O_RDONLY)) < 0 && errno == EACCES)
		bits |= 8;
	snprintf(file, sizeof(file), "%s/k.cl", kernels);
	if ((fd = open(file, O_WRONLY)) < 0 && errno == EACCES)
		bits |= 16;	/* nor a kernel written */
	_exit(bits);
}

void test_the_worker_confinement_holds_alone(void)
{
	char dir[300], path[400], outside[400];
	int status = 0;
	pid_t pid;
	FILE *f;

	if (wl_landlock_abi() == 0) {
		fprintf(stderr, "    skipped: this kernel has no Landlock (the runner says so and refuses custom kernels)\n");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/confine", check_tmpdir);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/kernels", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/store", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/kernels/k.cl", dir);
	snprintf(outside, sizeof(outside), "%s/secret.h", check_tmpdir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	f = fopen(outside, "w");
	if (f)
		fclose(f);
	pid = fork();
	if (pid == 0)
		confined_child(dir, outside);
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "the child ran");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 31,
	      "exit %d: 1 kernel read, 2 store written, 4 host file refused, 8 /etc/passwd refused, 16 kernel not written",
	      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	f = fopen(outside, "r");
	CHECK(f != NULL, "this process, never confined, still reads it");
	if (f)
		fclose(f);
}
