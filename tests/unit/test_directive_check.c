/* The directive check (common/directive_check.h): a table of spellings that
 * must be refused and sources that must pass, then the check against the real
 * preprocessor — thousands of sources built from seeded random pieces, and for
 * every one the check accepts, clang's preprocessor must open no file and
 * look none up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "directive_check.h"
#include "rng.h"

static int refused(const char *src, char *what, size_t len, int *line)
{
	return wl_source_check_directives(src, strlen(src), what, len, line) < 0;
}

void test_directive_check_refuses_every_spelling(void)
{
	static const struct {
		const char *source;
		const char *what;	/* NULL: must pass */
		int line;
	} rows[] = {
		{ "#include \"/etc/hostname\"\n", "#include", 1 },
		{ "int a;\r#include \"/etc/hostname\"\n", "#include", 2 },	/* a lone CR ends a line */
		{ "int a;\r\n\r\n#include \"/etc/hostname\"\n", "#include", 3 },
		{ "int a = 'x;\n#include \"/etc/hostname\"\n", "#include", 2 },	/* unterminated ' */
		{ "char *s = \"open;\n#include \"/etc/hostname\"\n", "#include", 2 },	/* unterminated " */
		{ "\xef\xbb\xbf#include \"/etc/hostname\"\n", "#include", 1 },	/* byte-order mark */
		{ "\xc2\xa0#include \"/etc/hostname\"\n", "#include", 1 },
		{ "int x = '?\?'; \n#include \"/etc/hostname\"\n", "#include", 2 },	/* ??' is ^ */
		{ "int a = 1 ?\?/\n#include \"/etc/hostname\"\n", "#include", 2 },	/* a splice or not */
		{ "int x; /*\n*/ #include \"/etc/hostname\"\n", "#include", 2 },
		{ "?\?=include \"/etc/hostname\"\n", "#include", 1 },
		{ "%:include \"/etc/hostname\"\n", "#include", 1 },
		{ "#\\\ninclude \"/etc/hostname\"\n", "#include", 1 },
		{ "#pragma GCC dependency \"/etc/hostname\"\n", "#pragma GCC", 1 },
		{ "#pragma /* c */ GCC dependency \"/etc/hostname\"\n", "#pragma GCC", 1 },
		{ "#pragma clang __debug crash\n", "#pragma clang", 1 },
		{ "#define P GCC\n#pragma P dependency \"/etc/hostname\"\n", "#pragma P", 2 },
		{ "_Pragma(\"GCC dependency \\\"/etc/hostname\\\"\")\n", "_Pragma", 1 },
		{ "#define C(a, b) a##b\n#if C(__has_, include)(\"/etc/hostname\")\n#endif\n", "## (token pasting)", 1 },
		{ "#define C(a, b) a %:%: b\n", "## (token pasting)", 1 },
		{ "#define C(a, b) a ?\?=?\?= b\n", "## (token pasting)", 1 },
		{ "#if __has_include(\"/etc/hostname\")\n#endif\n", "__has_include", 1 },
		{ "#if __has_include_next(<x>)\n#endif\n", "__has_include_next", 1 },
		{ "int __has_includ\\u0065;\n", "a universal character name (\\u) outside a literal", 1 },
		{ "#embed \"/etc/hostname\"\n", "#embed", 1 },
		{ "#import \"/etc/hostname\"\n", "#import", 1 },
		{ "#include_next <x>\n", "#include_next", 1 },
		{ "#ident \"x\"\n", "#ident", 1 },
		/* What a kernel may do. */
		{ "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n__kernel void k(void) { }\n", NULL, 0 },
		{ "#pragma unroll 4\n#pragma clang loop unroll(full)\n", NULL, 0 },
		{ "#define S(x) #x\nconstant char *s = S(a) \"#include\";\n", NULL, 0 },
		{ "// #include \"/etc/hostname\"\n/* #include \"x\" */\n", NULL, 0 },
		{ "#define X 1 \\\n#include \"/etc/hostname\"\n", NULL, 0 },
		{ "#\n# 12 \"name\"\n#line 3\n#error stop\n", NULL, 0 },
		{ "float f = 1.5e3f; int q = a ? b : c; int h = x ?: y;\n", NULL, 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char what[128] = "";
		int line = 0, r = refused(rows[i].source, what, sizeof(what), &line);

		if (!rows[i].what) {
			CHECK(!r, "row %zu refused (%s, line %d): %s", i, what, line, rows[i].source);
			continue;
		}
		CHECK(r, "row %zu passed: %s", i, rows[i].source);
		CHECK(strcmp(what, rows[i].what) == 0 && line == rows[i].line,
		      "row %zu: %s at line %d, expected %s at line %d", i, what, line, rows[i].what, rows[i].line);
	}
}

/* Pieces of hostile sources: what could start or end a line, hide one, or
 * open a file (FILE stands for the probe's path). */
static const char *const pieces[] = {
	"\n", "\r", "\r\n", "\\\n", "\\ \n", "?\?/\n", "?\?/", "'", "\"", "\xef\xbb\xbf", "?\?'", "?\?",
	"/*\n*/", "/* x */", "/*", "*/", "//", " ", "\t", "\v", "\f", "\xc2\xa0", "int a;", "\\",
	"%:", "?\?=", "#", "# ", "#define X ", "#define C(a, b) a", "x", "L'", "u8\"", "'\\'", "\\'",
	"#if 0\n", "#endif\n", "#pragma ", "GCC ", "dependency ", "include ", "\"FILE\"", "<FILE>",
	"#include \"FILE\"\n", "# include <FILE>\n", "%:include \"FILE\"\n", "?\?=include \"FILE\"\n",
	"#pragma GCC dependency \"FILE\"\n", "#if __has_include(\"FILE\")\n#endif\n",
	"__has_", "include", "(\"FILE\")", "##", "%:%:", "_Pragma(\"GCC dependency \\\"FILE\\\"\")",
	"#import \"FILE\"\n", "#include_next \"FILE\"\n", "#line 4 \"FILE\"\n", "__FILE__",
	"#define H(x) x\n#if H(__has_include)(\"FILE\")\n#endif\n", "inc", "lude",
};

/* Append piece to buf, FILE replaced by path. */
static void append_piece(char *buf, size_t cap, const char *piece, const char *path)
{
	size_t n = strlen(buf);

	for (const char *p = piece; *p && n + 1 < cap; p++) {
		if (strncmp(p, "FILE", 4) == 0 && n + strlen(path) + 1 < cap) {
			memcpy(buf + n, path, strlen(path));
			n += strlen(path);
			p += 3;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
}

/* Run clang's preprocessor over sources dir/s<first>.cl .. s<first+n-1>.cl in
 * one call (it goes on past a failed input) and set touched[k] for each whose
 * dependency list names a file holding marker, or for which a diagnostic says
 * such a file was not found. -1 when clang cannot be run. */
static int clang_touches(const char *dir, int first, int n, const char *marker, char *touched)
{
	size_t cap = (size_t)n * 600 + 512, used;
	char *cmd = malloc(cap), deps[600], errs[600], line[4096];
	int status, current = -1;
	FILE *f;

	if (!cmd)
		return -1;
	snprintf(deps, sizeof(deps), "%s/deps.txt", dir);
	snprintf(errs, sizeof(errs), "%s/errs.txt", dir);
	/* Two clangs at once, each over half the batch: one input costs clang
	 * about 20 ms, nearly all of it starting up. */
	used = (size_t)snprintf(cmd, cap, "cd '%s' && { clang -x cl -cl-std=CL1.2 -E -M", dir);
	for (int k = first; k < first + n; k++) {
		if (k == first + n / 2)
			used += (size_t)snprintf(cmd + used, cap - used,
						 " >deps1.txt 2>errs1.txt & clang -x cl -cl-std=CL1.2 -E -M");
		used += (size_t)snprintf(cmd + used, cap - used, " s%d.cl", k);
	}
	snprintf(cmd + used, cap - used, " >deps2.txt 2>errs2.txt; wait; } ; cat deps1.txt deps2.txt >'%s'; cat errs1.txt errs2.txt >'%s'", deps, errs);
	status = system(cmd);
	free(cmd);
	if (status == -1 || (WIFEXITED(status) && WEXITSTATUS(status) == 127))
		return -1;
	/* "s12.o: s12.cl a.h \" then continued lines. */
	if ((f = fopen(deps, "r"))) {
		while (fgets(line, sizeof(line), f)) {
			int k;

			if (line[0] == 's' && sscanf(line, "s%d.o:", &k) == 1)
				current = k;
			if (current >= first && current < first + n && strstr(line, marker))
				touched[current - first] = 1;
		}
		fclose(f);
	}
	/* "s12.cl:1:10: fatal error: '.../wl_probe_absent.h' file not found". */
	if ((f = fopen(errs, "r"))) {
		while (fgets(line, sizeof(line), f)) {
			int k;

			if (sscanf(line, "s%d.cl:", &k) == 1 && k >= first && k < first + n &&
			    strstr(line, marker) && strstr(line, "file not found"))
				touched[k - first] = 1;
		}
		fclose(f);
	}
	return 0;
}

static void print_escaped(const char *s)
{
	for (; *s; s++)
		fprintf(stderr, (unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ? "\\x%02x" : "%c",
			(unsigned char)*s);
	fputc('\n', stderr);
}

#define DIFFERENTIAL_SOURCES 2000
#define CLANG_BATCH 250

void test_directive_check_agrees_with_clang(void)
{
	char present[512], absent[512], path[600];
	char **sources = calloc(DIFFERENTIAL_SOURCES, sizeof(*sources));
	char touched[CLANG_BATCH];
	struct wl_rng rng;
	int accepted = 0, refusals = 0, missed = 0;
	FILE *f;

	wl_rng_seed(&rng, 20261123);
	snprintf(present, sizeof(present), "%s/wl_probe_present.h", check_tmpdir);
	snprintf(absent, sizeof(absent), "%s/wl_probe_absent.h", check_tmpdir);
	f = fopen(present, "w");
	CHECK(f != NULL && sources != NULL, "cannot write %s", present);
	if (!f || !sources) {
		free(sources);
		return;
	}
	fputs("int wl_probe;\n", f);
	fclose(f);
	/* The accepted sources, numbered from 0 as s<k>.cl. */
	for (int k = 0; k < DIFFERENTIAL_SOURCES; k++) {
		int npieces = 2 + (int)(wl_rng_next(&rng) % 7), line;
		const char *probe = wl_rng_next(&rng) % 2 ? present : absent;
		char what[128], buf[4096] = "";

		for (int i = 0; i < npieces; i++)
			append_piece(buf, sizeof(buf), pieces[wl_rng_next(&rng) % (sizeof(pieces) / sizeof(pieces[0]))], probe);
		append_piece(buf, sizeof(buf), "\n", probe);
		if (refused(buf, what, sizeof(what), &line)) {
			refusals++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/s%d.cl", check_tmpdir, accepted);
		if (!(f = fopen(path, "w")))
			continue;
		fputs(buf, f);
		fclose(f);
		sources[accepted++] = strdup(buf);
	}
	for (int first = 0; first < accepted; first += CLANG_BATCH) {
		int n = accepted - first < CLANG_BATCH ? accepted - first : CLANG_BATCH;

		memset(touched, 0, sizeof(touched));
		if (clang_touches(check_tmpdir, first, n, "wl_probe_", touched) < 0) {
			CHECK(0, "clang could not be run: deploy/install-deps.sh installs it for the tests");
			break;
		}
		for (int k = 0; k < n; k++) {
			if (!touched[k] || ++missed > 5)
				continue;
			CHECK(0, "this source passed the check, but clang's preprocessor looked up the probe file:");
			print_escaped(sources[first + k]);
		}
	}
	fprintf(stderr, "    %d generated sources: %d refused, %d accepted, of which clang opened a file for %d\n",
		DIFFERENTIAL_SOURCES, refusals, accepted, missed);
	CHECK(accepted > DIFFERENTIAL_SOURCES / 4, "only %d of the sources were accepted: the generator tests little", accepted);
	for (int k = 0; k < accepted; k++)
		free(sources[k]);
	free(sources);
}
