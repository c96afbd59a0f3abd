/* A kernel's parameter list read as text (see kernel_params.h). The list is
 * cut from the signature kernel_scan.c found, its comments blanked, split
 * at the commas outside brackets, and each parameter read word by word:
 * qualifiers set flags, '*' and '[' count pointer levels, and what is left
 * is the type's words and, last, the name. */
#include "kernel_params.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem_type.h"

/* A word of a parameter: where it starts in the cleaned text, its length. */
struct word {
	size_t at, len;
};

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

static int word_is(const char *s, size_t len, const char *w)
{
	return strlen(w) == len && strncmp(s, w, len) == 0;
}

static int word_in(const char *s, size_t len, const char *const *list)
{
	for (; *list; list++)
		if (word_is(s, len, *list))
			return 1;
	return 0;
}

/* The parameter list of k: [*from, *to) between the parentheses whose ')'
 * ends its signature, found by reading from its keyword with comments and
 * literals skipped (an attribute's parentheses come before it). -1 where
 * the span does not hold one. */
static int param_list(const char *text, const struct wl_kernel_span *k, size_t *from, size_t *to)
{
	size_t open = 0, close = k->sig_end - 1;
	int depth = 0, found = 0;

	for (size_t i = k->decl; i <= close; i++) {
		char c = text[i], next = i < close ? text[i + 1] : '\0';

		if (c == '/' && next == '/') {
			while (i < close && text[i] != '\n')
				i++;
		} else if (c == '/' && next == '*') {
			for (i += 2; i < close && !(text[i] == '*' && text[i + 1] == '/'); i++)
				;
			i++;
		} else if (c == '"' || c == '\'') {
			for (i++; i < close && text[i] != c; i++)
				i += text[i] == '\\';
		} else if (c == '(') {
			if (depth++ == 0)
				open = i;
		} else if (c == ')' && depth > 0 && --depth == 0 && i == close) {
			found = 1;
		}
	}
	if (!found)
		return -1;
	*from = open + 1;
	*to = close;
	return 0;
}

/* text[from, to) with every comment made a space, as a new string (caller
 * frees), NULL when out of memory. */
static char *without_comments(const char *text, size_t from, size_t to)
{
	char *out = malloc(to - from + 1);
	size_t n = 0;

	if (!out)
		return NULL;
	for (size_t i = from; i < to; i++) {
		if (text[i] == '/' && i + 1 < to && text[i + 1] == '/') {
			while (i < to && text[i] != '\n')
				i++;
			out[n++] = ' ';
		} else if (text[i] == '/' && i + 1 < to && text[i + 1] == '*') {
			for (i += 2; i + 1 < to && !(text[i] == '*' && text[i + 1] == '/'); i++)
				;
			i++;
			out[n++] = ' ';
		} else {
			out[n++] = text[i];
		}
	}
	out[n] = '\0';
	return out;
}

/* s[0, len) with runs of white space folded to one space and trimmed,
 * into out (size bytes): -1 where it does not fit. */
static int fold(const char *s, size_t len, char *out, size_t size)
{
	size_t n = 0;
	int space = 0;

	for (size_t i = 0; i < len; i++) {
		if (isspace((unsigned char)s[i])) {
			space = n > 0;
			continue;
		}
		if (n + space + 2 > size)
			return -1;
		if (space)
			out[n++] = ' ';
		space = 0;
		out[n++] = s[i];
	}
	out[n] = '\0';
	return 0;
}

/* ---- one parameter ---- */

static const char *const BUILTIN_TYPES[] = { "void", "bool", "char", "short", "int", "long", "float", "double",
					     "half", "signed", "unsigned", "size_t", NULL };
static const char *const RESTRICT[] = { "restrict", "__restrict", "__restrict__", NULL };
static const char *const IGNORED_OPENCL[] = { "read_only", "__read_only", "write_only", "__write_only", "read_write",
					      "__read_write", NULL };
static const char *const IGNORED_CUDA[] = { "__grid_constant__", NULL };

/* The address space a qualifier names (OpenCL's words, with and without
 * underscores), or -1 where the word is none. */
static int space_word(const char *s, size_t len)
{
	static const struct {
		const char *a, *b;
		enum wl_addr_space space;
	} words[] = {
		{ "__global", "global", WL_ADDR_GLOBAL },	   { "__local", "local", WL_ADDR_LOCAL },
		{ "__constant", "constant", WL_ADDR_CONSTANT }, { "__private", "private", WL_ADDR_PRIVATE },
		{ "__generic", "generic", WL_ADDR_NONE },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (word_is(s, len, words[i].a) || word_is(s, len, words[i].b))
			return (int)words[i].space;
	return -1;
}

/* The index just past the group of brackets opening at s[i] ('(' or '[')
 * and closing with its partner. */
static size_t skip_group(const char *s, size_t i, size_t len)
{
	char open = s[i], close = open == '(' ? ')' : ']';
	int depth = 0;

	for (; i < len; i++) {
		depth += s[i] == open;
		if (s[i] == close && --depth == 0)
			return i + 1;
	}
	return len;
}

/* The element type base spells, in elem_type.h's words, into out ("" where
 * none): C's and <stdint.h>'s spellings of the integers first. */
static void elem_of(const char *base, char *out, size_t size)
{
	static const char *const names[][2] = {
		{ "unsigned", "uint" },		   { "unsigned int", "uint" },
		{ "signed", "int" },		   { "signed int", "int" },
		{ "unsigned char", "uchar" },	   { "signed char", "char" },
		{ "unsigned short", "ushort" },	   { "unsigned short int", "ushort" },
		{ "short int", "short" },	   { "signed short", "short" },
		{ "long int", "long" },		   { "long long", "long" },
		{ "long long int", "long" },	   { "signed long", "long" },
		{ "unsigned long", "ulong" },	   { "unsigned long int", "ulong" },
		{ "unsigned long long", "ulong" }, { "unsigned long long int", "ulong" },
		{ "int8_t", "char" },		   { "uint8_t", "uchar" },
		{ "int16_t", "short" },		   { "uint16_t", "ushort" },
		{ "int32_t", "int" },		   { "uint32_t", "uint" },
		{ "int64_t", "long" },		   { "uint64_t", "ulong" },
		{ "size_t", "ulong" },
	};
	struct wl_elem_type t;
	const char *name = base;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(base, names[i][0]) == 0)
			name = names[i][1];
	if (strlen(name) < size && wl_elem_type_parse(name, &t) == 0)
		strcpy(out, name);
	else
		out[0] = '\0';
}

/* What the words of one parameter say, as read so far. */
struct reading {
	struct word words[32];
	int nwords;
	int star_before[32];		/* a '*' came between the word before and this one */
	int stars_since;
};

/* Read one qualifier or word at s[i, i + len) into p and r. */
static void read_word(const char *s, size_t i, size_t len, enum wl_language lang, struct wl_kernel_param *p,
		      struct reading *r)
{
	int space = lang == WL_LANG_CUDA ? -1 : space_word(s + i, len);

	if (space >= 0) {
		p->space = (enum wl_addr_space)space;
	} else if (word_is(s + i, len, "const") || word_is(s + i, len, "__const")) {
		p->is_const |= p->pointer == 0;
	} else if (word_in(s + i, len, RESTRICT)) {
		p->is_restrict = 1;
	} else if (word_is(s + i, len, "volatile")) {
		p->is_volatile = 1;
	} else if (!word_in(s + i, len, lang == WL_LANG_CUDA ? IGNORED_CUDA : IGNORED_OPENCL) &&
		   r->nwords < (int)(sizeof(r->words) / sizeof(r->words[0]))) {
		r->star_before[r->nwords] = r->stars_since;
		r->words[r->nwords++] = (struct word){ i, len };
		r->stars_since = 0;
	}
}

/* The parameter written in s (comments gone) into p: -1 with err where its
 * name or type does not fit p. */
static int read_param(const char *s, size_t len, enum wl_language lang, struct wl_kernel_param *p,
		      struct wl_error *err)
{
	struct reading r = { 0 };
	char *cut = NULL;
	size_t n = 0, name_at = 0, name_len = 0;
	int named, rc = -1;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < len;) {
		if (is_ident((unsigned char)s[i]) && !isdigit((unsigned char)s[i])) {
			size_t b = i;

			while (b < len && is_ident((unsigned char)s[b]))
				b++;
			if (word_is(s + i, b - i, "__attribute__") || word_is(s + i, b - i, "__attribute")) {
				while (b < len && s[b] != '(')
					b++;
				b = b < len ? skip_group(s, b, len) : len;
			} else {
				read_word(s, i, b - i, lang, p, &r);
			}
			i = b;
		} else if (s[i] == '*') {
			p->pointer++;
			r.stars_since = 1;
			i++;
		} else if (s[i] == '[') {
			p->pointer++;
			i = skip_group(s, i, len);
		} else {
			i++;
		}
	}
	/* The last word is the name where something of the type comes before it
	 * and it is no type's word ("unsigned int" has no name). */
	named = r.nwords > 0 && (r.nwords > 1 || r.star_before[r.nwords - 1]) &&
		!word_in(s + r.words[r.nwords - 1].at, r.words[r.nwords - 1].len, BUILTIN_TYPES);
	if (named) {
		name_at = r.words[r.nwords - 1].at;
		name_len = r.words[r.nwords - 1].len;
		if (name_len >= sizeof(p->name)) {
			wl_error_set(err, WL_ERR_INVALID_FIELD, "a parameter's name is longer than %d bytes",
				     WL_PARAM_NAME_MAX - 1);
			return -1;
		}
		memcpy(p->name, s + name_at, name_len);
		r.nwords--;
	}
	for (int w = 0; w < r.nwords; w++) {
		if (n + r.words[w].len + 2 > sizeof(p->base))
			goto too_long;
		if (n)
			p->base[n++] = ' ';
		memcpy(p->base + n, s + r.words[w].at, r.words[w].len);
		n += r.words[w].len;
	}
	p->base[n] = '\0';
	if (!(cut = malloc(len + 1))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	memcpy(cut, s, name_at);
	memcpy(cut + name_at, s + name_at + name_len, len - name_at - name_len);
	if (fold(cut, len - name_len, p->type, sizeof(p->type)) < 0)
		goto too_long;
	elem_of(p->base, p->elem, sizeof(p->elem));
	if (p->pointer == 0)
		p->space = WL_ADDR_NONE;
	else if (lang == WL_LANG_CUDA)
		p->space = WL_ADDR_GLOBAL;
	rc = 0;
	goto out;
too_long:
	wl_error_set(err, WL_ERR_INVALID_FIELD, "parameter %s%s%sis longer than %d bytes", named ? "'" : "",
		     p->name, named ? "' " : "", WL_PARAM_TYPE_MAX - 1);
out:
	free(cut);
	return rc;
}

/* ---- the list ---- */

int wl_kernel_params_read(const char *text, const struct wl_kernel_span *k, enum wl_language lang,
			  struct wl_kernel_param *out, size_t *count, struct wl_error *err)
{
	size_t from, to, start = 0, len;
	char *s = NULL;
	int depth = 0, rc = -1;

	*count = 0;
	if (param_list(text, k, &from, &to) < 0) {
		wl_error_set(err, WL_ERR_INVALID_FIELD, "kernel '%s': its parameter list cannot be read", k->name);
		return -1;
	}
	if (!(s = without_comments(text, from, to))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	len = strlen(s);
	for (size_t i = 0; i <= len; i++) {
		char folded[8];

		if (i < len && (s[i] == '(' || s[i] == '[')) {
			depth++;
			continue;
		}
		if (i < len && (s[i] == ')' || s[i] == ']')) {
			depth -= depth > 0;
			continue;
		}
		if (i < len && (s[i] != ',' || depth > 0))
			continue;
		/* "()" and "(void)" have none. */
		if (*count == 0 && i == len && fold(s + start, i - start, folded, sizeof(folded)) == 0 &&
		    (!folded[0] || strcmp(folded, "void") == 0))
			break;
		if (*count == WL_KERNEL_PARAMS_MAX) {
			wl_error_set(err, WL_ERR_INVALID_FIELD, "kernel '%s': more than %d parameters", k->name,
				     WL_KERNEL_PARAMS_MAX);
			goto out;
		}
		if (read_param(s + start, i - start, lang, &out[*count], err) < 0) {
			char msg[sizeof(err->msg)];

			snprintf(msg, sizeof(msg), "kernel '%s': %.800s", k->name, err->msg);
			snprintf(err->msg, sizeof(err->msg), "%s", msg);
			goto out;
		}
		(*count)++;
		start = i + 1;
	}
	rc = 0;
out:
	if (rc < 0)
		*count = 0;
	free(s);
	return rc;
}

const char *wl_addr_space_name(enum wl_addr_space space)
{
	switch (space) {
	case WL_ADDR_GLOBAL:
		return "global";
	case WL_ADDR_LOCAL:
		return "local";
	case WL_ADDR_CONSTANT:
		return "constant";
	case WL_ADDR_PRIVATE:
		return "private";
	case WL_ADDR_NONE:
		break;
	}
	return NULL;
}
