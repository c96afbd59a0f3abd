/* What Oclgrind says while the traced kernel runs (see oclgrind_said.h):
 * stderr turned to a file in memory and back, and a call's line asked of
 * the trace plugin, whose LLVM reads the program's bitcode. */
#include "oclgrind_said.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int wl_said_begin(struct wl_said *s, struct wl_error *err)
{
	fflush(stderr);
	s->fd = memfd_create("oclgrind-said", MFD_CLOEXEC);
	s->saved = s->fd >= 0 ? dup(STDERR_FILENO) : -1;
	if (s->fd < 0 || s->saved < 0 || dup2(s->fd, STDERR_FILENO) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot keep what the simulator says: %s", strerror(errno));
		if (s->saved >= 0)
			close(s->saved);
		if (s->fd >= 0)
			close(s->fd);
		s->fd = s->saved = -1;
		return -1;
	}
	return 0;
}

char *wl_said_end(struct wl_said *s)
{
	off_t len;
	char *text = NULL;

	fflush(stderr);
	dup2(s->saved, STDERR_FILENO);
	close(s->saved);
	len = lseek(s->fd, 0, SEEK_END);
	if (len >= 0 && (text = malloc((size_t)len + 1))) {
		if (pread(s->fd, text, (size_t)len, 0) == len) {
			text[len] = '\0';
			fputs(text, stderr);
		} else {
			free(text);
			text = NULL;
		}
	}
	close(s->fd);
	s->fd = s->saved = -1;
	return text;
}

typedef unsigned (*call_line_fn)(const void *bits, size_t len, const char *kernel, const char *callee);

unsigned wl_said_call_line(void *programs, const char *kernel, const char *callee)
{
	const struct wl_said_programs *p = programs;
	const char *path = getenv("OCLGRIND_PLUGINS");
	void *plugin;
	call_line_fn find = NULL;
	unsigned line = 0;

	/* The plugin as Oclgrind loaded it (by the name it was given, in
	 * trace.c's exec_traced): never a second copy. */
	if (!path || !(plugin = dlopen(path, RTLD_NOW | RTLD_NOLOAD)))
		return 0;
	*(void **)&find = dlsym(plugin, "warplab_trace_call_line");
	for (size_t i = 0; find && !line && i < p->n; i++) {
		size_t len = 0;
		unsigned char *bits = NULL;

		if (clGetProgramInfo(p->list[i], CL_PROGRAM_BINARY_SIZES, sizeof(len), &len, NULL) != CL_SUCCESS ||
		    len == 0 || !(bits = malloc(len)))
			continue;
		if (clGetProgramInfo(p->list[i], CL_PROGRAM_BINARIES, sizeof(bits), &bits, NULL) == CL_SUCCESS)
			line = find(bits, len, kernel, callee);
		free(bits);
	}
	dlclose(plugin);
	return line;
}
