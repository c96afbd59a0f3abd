/* The directive check (see directive_check.h). The source is read as the
 * preprocessor's first phases leave it — line ends made one, lines spliced,
 * '%:' read as '#' — twice: once with trigraphs replaced and once without,
 * since compilers differ on them and either reading could hide a line start
 * from the other. Then one pass over each reading refuses any directive, name
 * or operator outside what is allowed. Literals end at the end of their line
 * as a compiler ends an unterminated one; a block comment that spans lines
 * starts a line; bytes outside ASCII count as white space (a byte-order mark,
 * a no-break space), which can only make the check stricter. */
#include "directive_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* White space that keeps a line's start: blanks, and any byte outside ASCII. */
static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c >= 0x80;
}

/* The trigraphs' replacements, by the character after "??"; 0 for none. */
static char trigraph(char c)
{
	static const char from[] = "=/'()!<>-", to[] = "#\\^[]|{}~";
	const char *p = c ? strchr(from, c) : NULL;

	return p ? to[p - from] : 0;
}

/* A reading of the source: its text and, for each byte, the original line. */
struct reading {
	char *s;
	int *line;
	size_t n;
};

static void reading_free(struct reading *r)
{
	free(r->s);
	free(r->line);
}

/* text as phases 1 and 2 leave it: "\r\n" and a lone '\r' become '\n',
 * trigraphs are replaced when trigraphs is set, "%:" becomes '#', and a
 * backslash before a line end (blanks between allowed, as GCC and clang
 * allow) joins the lines. -1 when out of memory. */
static int read_source(const char *text, size_t len, int trigraphs, struct reading *out)
{
	char *o = malloc(len + 1);
	int *l = malloc((len + 1) * sizeof(int));
	size_t n = 0;
	int line = 1;

	if (!o || !l) {
		free(o);
		free(l);
		return -1;
	}
	/* Pass 1, in place into o: line ends and trigraphs. */
	for (size_t i = 0; i < len;) {
		char c = text[i], t;

		if (c == '\r') {
			c = '\n';
			i += i + 1 < len && text[i + 1] == '\n' ? 2 : 1;
		} else if (trigraphs && c == '?' && i + 2 < len && text[i + 1] == '?' &&
			   (t = trigraph(text[i + 2]))) {
			c = t;
			i += 3;
		} else if (c == '%' && i + 1 < len && text[i + 1] == ':') {
			c = '#';
			i += 2;
		} else {
			i++;
		}
		o[n] = c;
		l[n++] = line;
		if (c == '\n')
			line++;
	}
	/* Pass 2, in place: splices. */
	{
		size_t w = 0;

		for (size_t i = 0; i < n; i++) {
			if (o[i] == '\\') {
				size_t j = i + 1;

				while (j < n && (o[j] == ' ' || o[j] == '\t' || o[j] == '\f' || o[j] == '\v'))
					j++;
				if (j < n && o[j] == '\n') {
					i = j;
					continue;
				}
			}
			o[w] = o[i];
			l[w++] = l[i];
		}
		n = w;
	}
	o[n] = '\0';
	out->s = o;
	out->line = l;
	out->n = n;
	return 0;
}

static const char *const allowed_directives[] = {
	"define", "undef", "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif",
	"pragma", "error", "warning", "line", NULL,
};

/* The pragmas a kernel has use for; GCC dependency, for one, looks a file up. */
static const char *const allowed_pragmas[] = {
	"OPENCL", "STDC", "unroll", "nounroll", "unroll_and_jam", "nounroll_and_jam", "clang", NULL,
};

/* Names that ask about files, or build a pragma out of a string. */
static const char *const refused_identifiers[] = {
	"__has_include", "__has_include_next", "__has_embed", "_Pragma", "__pragma", NULL,
};

static int in_list(const char *const *list, const char *s, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && strncmp(*list, s, n) == 0)
			return 1;
	return 0;
}

/* Skip blanks and block comments from i within the line (a directive's name
 * and a pragma's may stand after both, a comment spanning lines included). */
static size_t skip_blanks(const char *s, size_t n, size_t i)
{
	for (;;) {
		while (i < n && is_blank((unsigned char)s[i]))
			i++;
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
			const char *close = strstr(s + i + 2, "*/");

			i = close ? (size_t)(close - s) + 2 : n;
			continue;
		}
		return i;
	}
}

static size_t ident_end(const char *s, size_t n, size_t i)
{
	while (i < n && is_ident((unsigned char)s[i]))
		i++;
	return i;
}

/* The directive whose '#' is at i: 0 when allowed, else -1 with what. */
static int check_directive(const char *s, size_t n, size_t i, char *what, size_t what_len)
{
	size_t b = skip_blanks(s, n, i + 1), e = ident_end(s, n, b);

	/* A null directive or a line marker (# 12 "name") reads no file. */
	if (e == b || !is_ident_start((unsigned char)s[b]))
		return 0;
	if (!in_list(allowed_directives, s + b, e - b)) {
		snprintf(what, what_len, "#%.*s", (int)(e - b > 40 ? 40 : e - b), s + b);
		return -1;
	}
	if (e - b == 6 && strncmp(s + b, "pragma", 6) == 0) {
		size_t pb = skip_blanks(s, n, e), pe = ident_end(s, n, pb);
		int ok = pe > pb && in_list(allowed_pragmas, s + pb, pe - pb);

		if (ok && pe - pb == 5 && strncmp(s + pb, "clang", 5) == 0) {
			size_t lb = skip_blanks(s, n, pe), le = ident_end(s, n, lb);

			ok = le - lb == 4 && strncmp(s + lb, "loop", 4) == 0;
		}
		if (!ok) {
			snprintf(what, what_len, "#pragma %.*s", (int)(pe - pb > 40 ? 40 : pe - pb), s + pb);
			return -1;
		}
	}
	return 0;
}

/* One pass over a reading; 0 when clean, else -1 with what and *line. */
static int check_reading(const struct reading *r, char *what, size_t what_len, int *line)
{
	const char *s = r->s;
	size_t n = r->n, i = 0;
	int line_start = 1;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			const char *close = strstr(s + i + 2, "*/");
			size_t end = close ? (size_t)(close - s) + 2 : n;

			if (memchr(s + i, '\n', end - i))
				line_start = 1;
			i = end;
			continue;
		}
		if (c == '"' || c == '\'') {
			/* Up to the closing quote or the line's end, which stays. */
			for (i++; i < n && s[i] != (char)c && s[i] != '\n'; i++)
				if (s[i] == '\\' && i + 1 < n && s[i + 1] != '\n')
					i++;
			if (i < n && s[i] == (char)c)
				i++;
			line_start = 0;
			continue;
		}
		if (c == '\\' && i + 1 < n && (s[i + 1] == 'u' || s[i + 1] == 'U')) {
			snprintf(what, what_len, "a universal character name (\\%c) outside a literal", s[i + 1]);
			*line = r->line[i];
			return -1;
		}
		if (c == '#') {
			if (i + 1 < n && s[i + 1] == '#') {
				snprintf(what, what_len, "## (token pasting)");
				*line = r->line[i];
				return -1;
			}
			if (line_start && check_directive(s, n, i, what, what_len) < 0) {
				*line = r->line[i];
				return -1;
			}
			line_start = 0;
			i++;
			continue;
		}
		if (is_ident_start(c) && (i == 0 || !is_ident((unsigned char)s[i - 1]))) {
			size_t e = ident_end(s, n, i);

			if (in_list(refused_identifiers, s + i, e - i)) {
				snprintf(what, what_len, "%.*s", (int)(e - i), s + i);
				*line = r->line[i];
				return -1;
			}
			line_start = 0;
			i = e;
			continue;
		}
		if (c == '\n')
			line_start = 1;
		else if (!is_blank(c))
			line_start = 0;
		i++;
	}
	return 0;
}

int wl_source_check_directives(const char *text, size_t len, char *what, size_t what_len,
			       int *line)
{
	for (int trigraphs = 1; trigraphs >= 0; trigraphs--) {
		struct reading r;
		int rc;

		if (read_source(text, len, trigraphs, &r) < 0) {
			snprintf(what, what_len, "(out of memory)");
			*line = 0;
			return -1;
		}
		rc = check_reading(&r, what, what_len, line);
		reading_free(&r);
		if (rc < 0)
			return -1;
	}
	return 0;
}
