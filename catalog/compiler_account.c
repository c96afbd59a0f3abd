/* Reading ptxas's report and PTX text (see compiler_account.h). Both are
 * read line by line with plain string matching: the formats are a few fixed
 * phrases, and anything not recognised is left out, never guessed. */
#include "compiler_account.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number just before word in line ("28 registers"), or -1. */
static long long number_before(const char *line, const char *word)
{
	const char *w = strstr(line, word), *p;

	if (!w || w == line)
		return -1;
	p = w - 1;
	while (p > line && *p == ' ')
		p--;
	if (!isdigit((unsigned char)*p))
		return -1;
	while (p > line && isdigit((unsigned char)p[-1]))
		p--;
	return strtoll(p, NULL, 10);
}

/* The text between the first pair of quotes after key in line, into out. */
static int quoted_after(const char *line, const char *key, char *out, size_t len)
{
	const char *p = strstr(line, key), *end;

	if (!p || !(p = strchr(p + strlen(key), '\'')) || !(end = strchr(p + 1, '\'')) ||
	    (size_t)(end - p - 1) >= len)
		return -1;
	memcpy(out, p + 1, (size_t)(end - p - 1));
	out[end - p - 1] = '\0';
	return 0;
}

static void set_figure(json_t *kernel, const char *name, long long value)
{
	if (kernel && value >= 0)
		json_object_set_new(kernel, name, json_integer(value));
}

/* One line of ptxas's report, about the kernel *current (set by "Compiling
 * entry function" and "Function properties for" lines). */
static void ptxas_line(json_t *out, const char *line, json_t **current)
{
	char name[256], target[64];

	if (quoted_after(line, "Compiling entry function", name, sizeof(name)) == 0) {
		*current = json_object_get(out, name);
		if (!*current) {
			*current = json_object();
			json_object_set_new(out, name, *current);
		}
		if (quoted_after(line, "' for", target, sizeof(target)) == 0)
			json_object_set_new(*current, "target", json_string(target));
		return;
	}
	if (strstr(line, "Function properties for ")) {
		const char *n = strstr(line, "Function properties for ") + strlen("Function properties for ");
		size_t len = strcspn(n, " \r\n");

		snprintf(name, sizeof(name), "%.*s", (int)len, n);
		*current = json_object_get(out, name);
		return;
	}
	if (strstr(line, "bytes stack frame")) {
		set_figure(*current, "stack_bytes", number_before(line, "bytes stack frame"));
		set_figure(*current, "spill_store_bytes", number_before(line, "bytes spill stores"));
		set_figure(*current, "spill_load_bytes", number_before(line, "bytes spill loads"));
		return;
	}
	if (strstr(line, "Used ") && strstr(line, " registers")) {
		long long smem = number_before(line, "bytes smem");

		set_figure(*current, "registers", number_before(line, "registers"));
		set_figure(*current, "barriers", number_before(line, "barriers"));
		set_figure(*current, "shared_bytes", smem < 0 ? 0 : smem);
	}
}

json_t *wl_ptxas_figures(const char *log)
{
	json_t *out = json_object(), *current = NULL;
	const char *p = log;

	while (out && p && *p) {
		size_t len = strcspn(p, "\n");
		char line[1024];

		if (strncmp(p, "ptxas", 5) == 0) {
			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			ptxas_line(out, line, &current);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return out;
}

int wl_ptx_is_text(const unsigned char *binary, size_t len)
{
	static const char marks[][10] = { ".version", ".target", ".entry" };
	size_t n = len < 4096 ? len : 4096;

	for (size_t i = 0; i < n && binary[i]; i++)
		if (binary[i] < 9 || (binary[i] > 13 && binary[i] < 32) || binary[i] > 126)
			return 0;
	for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++)
		if (memmem(binary, len, marks[m], strlen(marks[m])))
			return 1;
	return 0;
}

char *wl_ptx_for_users(const char *ptx, size_t len)
{
	size_t n = strnlen(ptx, len);
	/* A replaced name adds at most 8 bytes to a line of at least 10. */
	char *out = malloc(2 * n + 1), *w = out;
	const char *p = ptx, *end = ptx + n;

	if (!out)
		return NULL;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t line = eol ? (size_t)(eol - p) + 1 : (size_t)(end - p);
		const char *t = p, *open, *close = NULL;

		while (t < p + line && (*t == ' ' || *t == '\t'))
			t++;
		open = memchr(p, '"', line);
		if (open)
			close = memchr(open + 1, '"', (size_t)(p + line - open - 1));
		if (close && (size_t)(p + line - t) > 5 && strncmp(t, ".file", 5) == 0 &&
		    isspace((unsigned char)t[5])) {
			size_t head = (size_t)(open - p) + 1, tail = (size_t)(p + line - close);

			memcpy(w, p, head);
			memcpy(w + head, "<source>", 8);
			memcpy(w + head + 8, close, tail);
			w += head + 8 + tail;
		} else {
			memcpy(w, p, line);
			w += line;
		}
		p += line;
	}
	*w = '\0';
	return out;
}

/* The memory access an instruction line makes, into *m: its op, state space,
 * vector width and element bits. 0 when it is one (of global, shared, local
 * or constant memory), -1 otherwise. */
struct memory_op {
	char op[8], space[8];
	int vector, bits;
};

static int memory_op(const char *line, struct memory_op *m)
{
	char word[96], *save = NULL;
	const char *p = line;
	size_t len;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '@')			/* a predicate: "@%p1 ld.global..." */
		p += strcspn(p, " \t"), p += strspn(p, " \t");
	len = strcspn(p, " \t;");
	if (len == 0 || len >= sizeof(word))
		return -1;
	memcpy(word, p, len);
	word[len] = '\0';
	memset(m, 0, sizeof(*m));
	m->vector = 1;
	for (char *part = strtok_r(word, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
		if (!m->op[0]) {
			if (strcmp(part, "ld") && strcmp(part, "st") && strcmp(part, "atom") &&
			    strcmp(part, "red") && strcmp(part, "ldu"))
				return -1;
			snprintf(m->op, sizeof(m->op), "%s", strcmp(part, "ldu") ? part : "ld");
		} else if (!strcmp(part, "global") || !strcmp(part, "shared") || !strcmp(part, "local") ||
			   !strcmp(part, "const")) {
			snprintf(m->space, sizeof(m->space), "%s", part);
		} else if (part[0] == 'v' && (part[1] == '2' || part[1] == '4' || part[1] == '8') && !part[2]) {
			m->vector = part[1] - '0';
		} else if (strchr("fubs", part[0]) && isdigit((unsigned char)part[1])) {
			m->bits = atoi(part + 1);	/* the type comes last: f32, u64, b16 */
		}
	}
	return m->op[0] && m->space[0] ? 0 : -1;
}

/* Whether line opens the entry function kernel: ".entry NAME(" perhaps after
 * ".visible". */
static int entry_of(const char *line, const char *kernel)
{
	const char *e = strstr(line, ".entry");
	size_t n = strlen(kernel);

	if (!e)
		return 0;
	e += 6;
	while (*e == ' ' || *e == '\t')
		e++;
	return strncmp(e, kernel, n) == 0 && (e[n] == '(' || e[n] == ' ' || e[n] == '\t' || !e[n]);
}

/* Add one memory instruction at index i of the view. */
static void add_memory(json_t *memory, json_t *counts, size_t i, const struct memory_op *m)
{
	char key[48];
	int bytes = m->bits / 8 * m->vector;

	json_array_append_new(memory, json_pack("{s:I, s:s, s:s, s:i, s:i, s:i}", "line", (json_int_t)i, "op",
						m->op, "space", m->space, "vector", m->vector, "bits", m->bits,
						"bytes", bytes));
	snprintf(key, sizeof(key), "%s %s %s", m->space, m->op, m->vector > 1 ? (m->vector == 2 ? "v2" : m->vector == 4 ? "v4" : "v8") : "scalar");
	json_object_set_new(counts, key, json_integer(json_integer_value(json_object_get(counts, key)) + 1));
}

json_t *wl_ptx_kernel_view(const char *ptx, const char *kernel)
{
	json_t *lines = json_array(), *sources = json_array(), *memory = json_array(), *counts = json_object();
	const char *p = ptx;
	int inside = 0, depth = 0, opened = 0;
	long long source = 0;

	while (lines && sources && memory && counts && p && *p) {
		size_t len = strcspn(p, "\n");
		char line[1024];
		const char *t;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		if (!inside && !(inside = entry_of(line, kernel)))
			continue;
		for (t = line; *t == ' ' || *t == '\t'; t++)
			;
		if (strncmp(t, ".loc", 4) == 0 && isspace((unsigned char)t[4])) {
			int file = 0, at = 0;

			if (sscanf(t + 4, "%d %d", &file, &at) == 2 && file == 1)
				source = at;
			continue;
		}
		{
			struct memory_op m;

			if (strncmp(t, "//", 2) && memory_op(t, &m) == 0)
				add_memory(memory, counts, json_array_size(lines), &m);
		}
		json_array_append_new(lines, json_string(line));
		json_array_append_new(sources, json_integer(source));
		for (const char *c = line; *c && strncmp(c, "//", 2); c++) {
			if (*c == '{')
				depth++, opened = 1;
			else if (*c == '}')
				depth--;
		}
		if (opened && depth <= 0)
			break;
	}
	if (!lines || !sources || !memory || !counts || !inside || !opened) {
		json_decref(lines);
		json_decref(sources);
		json_decref(memory);
		json_decref(counts);
		return NULL;
	}
	return json_pack("{s:s, s:o, s:o, s:o, s:o}", "kernel", kernel, "lines", lines, "source_lines", sources,
			 "memory", memory, "counts", counts);
}
