/* The first, friendly refusal of a custom kernel that asks the preprocessor
 * for a file of the host: #include and its relatives, __has_include, the
 * pragmas that look a file up, and the means to build any of those out of
 * pieces (token pasting, _Pragma). It is deliberately stricter than any
 * compiler: every way a line could start a directive counts (a lone carriage
 * return, a splice spelled with a trigraph or not, a byte-order mark), so a
 * source it accepts makes no compiler open a file. It is not the last line of
 * defence: the process that builds kernels is confined (runner/confine.h). */
#ifndef WL_DIRECTIVE_CHECK_H
#define WL_DIRECTIVE_CHECK_H

#include <stddef.h>

/* Check text[0, len). Returns 0 when it is clean; otherwise -1, with what was
 * found in what ("#include", "__has_include", "## (token pasting)",
 * "#pragma GCC") and its 1-based line in *line. A source may use the
 * directives define, undef, if, ifdef, ifndef, elif, elifdef, elifndef, else,
 * endif, error, warning and line, the null directive and line markers, and
 * #pragma with OPENCL, STDC, unroll, nounroll, unroll_and_jam,
 * nounroll_and_jam or "clang loop". */
int wl_source_check_directives(const char *text, size_t len, char *what, size_t what_len,
			       int *line);

#endif
