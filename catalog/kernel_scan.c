/* OpenCL C read as text (see kernel_scan.h). A small lexer finds kernel
 * definitions in the source as written, skipping comments, string and
 * character literals and preprocessor lines. The check of what a source may
 * ask the preprocessor is directive_check.c. */
#include "kernel_scan.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* ---- finding kernels ---- */

/* The comment lines directly above offset decl (no blank line between), so a
 * kernel's explanation travels with it. Returns where they start, or the start
 * of decl's line's leading white space when there are none. */
static size_t comment_start(const char *text, size_t decl)
{
	size_t line = decl;

	while (line > 0 && (text[line - 1] == ' ' || text[line - 1] == '\t'))
		line--;
	if (line > 0 && text[line - 1] != '\n')
		return decl;	/* something precedes decl on its line */
	for (;;) {
		size_t prev_end, prev, first;

		if (line == 0)
			break;
		prev_end = line - 1;	/* the '\n' ending the previous line */
		prev = prev_end;
		while (prev > 0 && text[prev - 1] != '\n')
			prev--;
		first = prev;
		while (first < prev_end && (text[first] == ' ' || text[first] == '\t'))
			first++;
		if (prev_end - first >= 2 && text[first] == '/' && text[first + 1] == '/') {
			line = prev;
			continue;
		}
		if (prev_end - first >= 2 && prev_end >= 2 && text[prev_end - 1] == '/' &&
		    text[prev_end - 2] == '*') {
			/* A block comment ending there: go to its opening line. */
			size_t open = prev_end - 2;

			while (open > 0 && !(text[open - 1] == '/' && text[open] == '*'))
				open--;
			if (open == 0)
				break;
			open--;
			while (open > 0 && text[open - 1] != '\n')
				open--;
			line = open;
			continue;
		}
		break;
	}
	return line;
}

/* Whether the parameter text [a, b) is empty or just "void". */
static int no_params(const char *text, size_t a, size_t b)
{
	while (a < b && isspace((unsigned char)text[a]))
		a++;
	while (b > a && isspace((unsigned char)text[b - 1]))
		b--;
	return a == b || (b - a == 4 && strncmp(text + a, "void", 4) == 0);
}

/* The state of one kernel definition being read. */
struct header {
	int active;
	size_t decl;
	int line;
	size_t last_ident, last_len;	/* the latest identifier outside parentheses */
	int parens, in_attr, in_params, have_sig, in_body;
	size_t params_start, sig_end;
	int commas;
	char name[WL_KERNEL_NAME_MAX + 1];
};

static int add_kernel(struct wl_kernel_list *out, const char *text, size_t len,
		      const struct header *h, size_t close, struct wl_error *err)
{
	struct wl_kernel_span *k;
	size_t end = close + 1;

	if (out->count == WL_KERNELS_MAX) {
		wl_error_set(err, WL_ERR_INVALID_FIELD, "more than %d kernels in one source",
			     WL_KERNELS_MAX);
		return -1;
	}
	while (end < len && (text[end] == ' ' || text[end] == '\t' || text[end] == '\r'))
		end++;
	if (end < len && text[end] == '\n')
		end++;
	else
		end = close + 1;
	k = &out->items[out->count++];
	memcpy(k->name, h->name, sizeof(k->name));
	k->decl = h->decl;
	k->start = comment_start(text, h->decl);
	k->sig_end = h->sig_end;
	k->end = end;
	k->line = h->line;
	k->first_line = h->line;
	for (size_t i = k->start; i < k->decl; i++)
		k->first_line -= text[i] == '\n';
	k->nparams = no_params(text, h->params_start, h->sig_end - 1) ? 0 : h->commas + 1;
	return 0;
}

/* Feed one character of normal code (outside comments and literals) at i to
 * the kernel being read. Returns 1 when it completed a definition. */
static int header_char(struct header *h, const char *text, size_t i, int *braces)
{
	char c = text[i];

	if (c == '(') {
		if (h->parens == 0 && !h->have_sig) {
			/* OpenCL's attributes, and CUDA's __launch_bounds__(...). */
			if (h->last_len && ((h->last_len == 13 && !strncmp(text + h->last_ident, "__attribute__", 13)) ||
					    (h->last_len == 11 && !strncmp(text + h->last_ident, "__attribute", 11)) ||
					    (h->last_len == 17 && !strncmp(text + h->last_ident, "__launch_bounds__", 17)))) {
				h->in_attr = 1;
			} else if (h->last_len && h->last_len <= WL_KERNEL_NAME_MAX) {
				memcpy(h->name, text + h->last_ident, h->last_len);
				h->name[h->last_len] = '\0';
				h->in_params = 1;
				h->params_start = i + 1;
			} else {
				h->active = 0;	/* not a definition we understand */
			}
		}
		h->parens++;
	} else if (c == ')') {
		if (h->parens > 0 && --h->parens == 0) {
			if (h->in_attr) {
				h->in_attr = 0;
			} else if (h->in_params) {
				h->in_params = 0;
				h->have_sig = 1;
				h->sig_end = i + 1;
			}
		}
	} else if (c == ',' && h->in_params && h->parens == 1) {
		h->commas++;
	} else if (c == ';' && h->parens == 0 && !h->in_body) {
		h->active = 0;	/* a prototype */
	} else if (c == '{' && h->parens == 0) {
		if (!h->have_sig) {
			h->active = 0;
			(*braces)++;
		} else {
			h->in_body = 1;
			(*braces)++;
		}
	} else if (c == '}' && h->in_body) {
		if (--(*braces) == 0)
			return 1;
	} else if (c == '{' || c == '}') {
		*braces += c == '{' ? 1 : -1;
	}
	return 0;
}

enum lex { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR, DIRECTIVE };

/* Where a CUDA kernel's declaration starts: at the extern "C" before its
 * __global__ (at), where there is one, so that its template and line keep
 * it; else at. */
static size_t linkage_start(const char *text, size_t at)
{
	size_t i = at;

	while (i > 0 && isspace((unsigned char)text[i - 1]))
		i--;
	if (i < 3 || strncmp(text + i - 3, "\"C\"", 3) != 0)
		return at;
	i -= 3;
	while (i > 0 && isspace((unsigned char)text[i - 1]))
		i--;
	if (i < 6 || strncmp(text + i - 6, "extern", 6) != 0 || (i > 6 && is_ident((unsigned char)text[i - 7])))
		return at;
	return i - 6;
}

/* The line breaks in text[from, to). */
static int lines_between(const char *text, size_t from, size_t to)
{
	int n = 0;

	for (size_t i = from; i < to; i++)
		n += text[i] == '\n';
	return n;
}

int wl_kernels_scan(const char *text, size_t len, struct wl_kernel_list *out,
		    struct wl_error *err)
{
	enum lex state = CODE, after_comment = CODE;
	struct header h = { 0 };
	int braces = 0, line = 1, line_start = 1;

	out->count = 0;
	for (size_t i = 0; i < len; i++) {
		char c = text[i], next = i + 1 < len ? text[i + 1] : '\0';

		switch (state) {
		case LINE_COMMENT:
			if (c == '\n' && (i == 0 || text[i - 1] != '\\'))
				state = CODE;
			break;
		case BLOCK_COMMENT:
			if (c == '*' && next == '/') {
				state = after_comment;
				i++;
			}
			break;
		case STRING:
		case CHAR:
			if (c == '\\')
				i++;
			else if (c == (state == STRING ? '"' : '\'') || c == '\n')
				state = CODE;
			break;
		case DIRECTIVE:
			if (c == '/' && next == '*') {
				state = BLOCK_COMMENT;
				after_comment = DIRECTIVE;
				i++;
			} else if (c == '/' && next == '/') {
				state = LINE_COMMENT;
			} else if (c == '\n' && text[i - 1] != '\\') {
				state = CODE;
			}
			break;
		case CODE:
			if (c == '/' && next == '/') {
				state = LINE_COMMENT;
				i++;
			} else if (c == '/' && next == '*') {
				state = BLOCK_COMMENT;
				after_comment = CODE;
				i++;
			} else if (c == '"') {
				state = STRING;
			} else if (c == '\'') {
				state = CHAR;
			} else if (c == '#' && line_start) {
				state = DIRECTIVE;
			} else if (is_ident_start((unsigned char)c) && (i == 0 || !is_ident((unsigned char)text[i - 1]))) {
				size_t b = i;

				while (b < len && is_ident((unsigned char)text[b]))
					b++;
				if (!h.active && braces == 0 &&
				    ((b - i == 8 && !strncmp(text + i, "__kernel", 8)) ||
				     (b - i == 6 && !strncmp(text + i, "kernel", 6)) ||
				     (b - i == 10 && !strncmp(text + i, "__global__", 10)))) {
					memset(&h, 0, sizeof(h));
					h.active = 1;
					h.decl = linkage_start(text, i);
					h.line = line - lines_between(text, h.decl, i);
				} else if (h.active && h.parens == 0 && !h.in_body) {
					h.last_ident = i;
					h.last_len = b - i;
				}
				i = b - 1;
			} else if (h.active) {
				if (header_char(&h, text, i, &braces)) {
					if (add_kernel(out, text, len, &h, i, err) < 0)
						return -1;
					h.active = 0;
				}
			} else if (c == '{') {
				braces++;
			} else if (c == '}' && braces > 0) {
				braces--;
			}
			break;
		}
		if (text[i] == '\n') {
			line++;
			line_start = 1;
		} else if (state == CODE && !isspace((unsigned char)text[i])) {
			line_start = 0;
		}
	}
	return 0;
}

const struct wl_kernel_span *wl_kernels_find(const struct wl_kernel_list *list, const char *name)
{
	for (size_t i = 0; i < list->count; i++)
		if (strcmp(list->items[i].name, name) == 0)
			return &list->items[i];
	return NULL;
}

/* ---- templates and signatures ---- */

char *wl_kernel_template(const char *text, size_t len, const char *name)
{
	struct wl_kernel_list *list = malloc(sizeof(*list));
	char *out = NULL;
	size_t n = 0, from = 0;

	if (!list || wl_kernels_scan(text, len, list, NULL) < 0 || !wl_kernels_find(list, name))
		goto out;
	out = malloc(len + 1);
	if (!out)
		goto out;
	for (size_t k = 0; k < list->count; k++) {
		const struct wl_kernel_span *s = &list->items[k];

		if (strcmp(s->name, name) == 0)
			continue;
		memcpy(out + n, text + from, s->start - from);
		n += s->start - from;
		from = s->end;
	}
	memcpy(out + n, text + from, len - from);
	n += len - from;
	out[n] = '\0';
	/* The cuts leave runs of blank lines: keep at most one. */
	{
		size_t w = 0;

		for (size_t r = 0; r < n; r++) {
			if (out[r] == '\n' && w >= 2 && out[w - 1] == '\n' && out[w - 2] == '\n')
				continue;
			out[w++] = out[r];
		}
		out[w] = '\0';
	}
out:
	free(list);
	return out;
}

char *wl_kernel_signature(const char *text, const struct wl_kernel_span *k)
{
	char *out = malloc(k->sig_end - k->decl + 1);
	size_t n = 0;

	if (!out)
		return NULL;
	for (size_t i = k->decl; i < k->sig_end; i++) {
		if (isspace((unsigned char)text[i])) {
			if (n > 0 && out[n - 1] != ' ')
				out[n++] = ' ';
		} else {
			out[n++] = text[i];
		}
	}
	out[n] = '\0';
	return out;
}
