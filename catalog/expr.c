/* The expression language: a recursive-descent parser that emits postfix code
 * (one level per precedence, C's order), and a stack evaluator over it. The
 * code is bounded (WL_EXPR_MAX operations, nesting depth 32), so a catalog or
 * a request cannot make either side recurse or allocate without limit. */
#include "expr.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH_MAX 32

struct parser {
	const char *text, *p;
	const char *const *names;
	int nnames, flags, depth;
	struct wl_expr *out;
	struct wl_error *err;
};

static const char *what(const struct parser *ps)
{
	return ps->flags & WL_EXPR_COST ? "formula" : "expression";
}

static int fail(struct parser *ps, const char *detail)
{
	wl_error_set(ps->err, WL_ERR_CONFIG, "%s '%s': %s", what(ps), ps->text, detail);
	return -1;
}

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

/* Consume tok when it comes next (callers try "<=" before "<"). */
static int accept(struct parser *ps, const char *tok)
{
	size_t len = strlen(tok);

	skip_space(ps);
	if (strncmp(ps->p, tok, len) != 0)
		return 0;
	ps->p += len;
	return 1;
}

static int emit(struct parser *ps, enum wl_expr_op op, int var, long long num)
{
	struct wl_expr *e = ps->out;

	if (e->n == WL_EXPR_MAX)
		return fail(ps, "too long (at most 48 operations)");
	e->code[e->n].op = (unsigned char)op;
	e->code[e->n].var = var;
	e->code[e->n].num = num;
	e->n++;
	return 0;
}

static int parse_or(struct parser *ps);

static int parse_primary(struct parser *ps)
{
	char msg[400];

	skip_space(ps);
	if (*ps->p == '(') {
		int rc;

		if (++ps->depth > DEPTH_MAX)
			return fail(ps, "nested too deeply");
		ps->p++;
		rc = parse_or(ps);
		ps->depth--;
		if (rc < 0)
			return -1;
		if (!accept(ps, ")"))
			return fail(ps, "a '(' is not closed");
		return 0;
	}
	if (isdigit((unsigned char)*ps->p)) {
		char *end;
		long long v = strtoll(ps->p, &end, 10);

		if (isalpha((unsigned char)*end) || *end == '_' || v >= (1LL << 62) ||
		    ((ps->flags & WL_EXPR_COST) && v <= 0)) {
			snprintf(msg, sizeof(msg), "bad number '%.*s'", (int)(end - ps->p) + 1, ps->p);
			return fail(ps, msg);
		}
		ps->p = end;
		return emit(ps, WL_EXPR_NUM, 0, v);
	}
	if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
		const char *start = ps->p;
		size_t len;

		while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
			ps->p++;
		len = (size_t)(ps->p - start);
		for (int i = 0; i < ps->nnames; i++)
			if (strlen(ps->names[i]) == len && strncmp(ps->names[i], start, len) == 0)
				return emit(ps, WL_EXPR_VAR, i, 0);
		if (ps->flags & WL_EXPR_COST) {
			snprintf(msg, sizeof(msg), "unknown parameter '%.*s'", (int)(len < 64 ? len : 64),
				 start);
		} else {
			int used = snprintf(msg, sizeof(msg), "unknown variable '%.*s' (known:",
					    (int)(len < 40 ? len : 40), start);

			for (int i = 0; i < ps->nnames && used > 0 && (size_t)used < sizeof(msg); i++)
				if (ps->names[i][0])
					used += snprintf(msg + used, sizeof(msg) - (size_t)used, " %s",
						 ps->names[i]);
			if (used > 0 && (size_t)used < sizeof(msg) - 1)
				strcat(msg, ")");
		}
		return fail(ps, msg);
	}
	if (*ps->p == '\0')
		return fail(ps, "ends where an operand is expected");
	snprintf(msg, sizeof(msg), "unexpected '%c'", *ps->p);
	return fail(ps, msg);
}

static int parse_unary(struct parser *ps)
{
	skip_space(ps);
	if (!(ps->flags & WL_EXPR_COST) && *ps->p == '-') {
		ps->p++;
		if (++ps->depth > DEPTH_MAX)
			return fail(ps, "nested too deeply");
		if (parse_unary(ps) < 0)
			return -1;
		ps->depth--;
		return emit(ps, WL_EXPR_NEG, 0, 0);
	}
	return parse_primary(ps);
}

/* One left-associative level: operand (op operand)*, ops[i] emitting codes[i]. */
static int parse_level(struct parser *ps, int (*operand)(struct parser *),
		       const char *const *ops, const enum wl_expr_op *codes, int nops)
{
	if (operand(ps) < 0)
		return -1;
	for (;;) {
		int i;

		for (i = 0; i < nops; i++)
			if (accept(ps, ops[i]))
				break;
		if (i == nops)
			return 0;
		if (operand(ps) < 0 || emit(ps, codes[i], 0, 0) < 0)
			return -1;
	}
}

static int parse_mul(struct parser *ps)
{
	static const char *const ops[] = { "*", "/", "%" };
	static const enum wl_expr_op codes[] = { WL_EXPR_MUL, WL_EXPR_DIV, WL_EXPR_MOD };

	return parse_level(ps, parse_unary, ops, codes, ps->flags & WL_EXPR_COST ? 1 : 3);
}

static int parse_add(struct parser *ps)
{
	static const char *const ops[] = { "+", "-" };
	static const enum wl_expr_op codes[] = { WL_EXPR_ADD, WL_EXPR_SUB };

	return parse_level(ps, parse_mul, ops, codes, ps->flags & WL_EXPR_COST ? 1 : 2);
}

static int parse_rel(struct parser *ps)
{
	static const char *const ops[] = { "<=", ">=", "<", ">" };
	static const enum wl_expr_op codes[] = { WL_EXPR_LE, WL_EXPR_GE, WL_EXPR_LT, WL_EXPR_GT };

	return parse_level(ps, parse_add, ops, codes, ps->flags & WL_EXPR_COST ? 0 : 4);
}

static int parse_eq(struct parser *ps)
{
	static const char *const ops[] = { "==", "!=" };
	static const enum wl_expr_op codes[] = { WL_EXPR_EQ, WL_EXPR_NE };

	return parse_level(ps, parse_rel, ops, codes, ps->flags & WL_EXPR_COST ? 0 : 2);
}

static int parse_and(struct parser *ps)
{
	static const char *const ops[] = { "&&" };
	static const enum wl_expr_op codes[] = { WL_EXPR_AND };

	return parse_level(ps, parse_eq, ops, codes, ps->flags & WL_EXPR_COST ? 0 : 1);
}

static int parse_or(struct parser *ps)
{
	static const char *const ops[] = { "||" };
	static const enum wl_expr_op codes[] = { WL_EXPR_OR };

	return parse_level(ps, parse_and, ops, codes, ps->flags & WL_EXPR_COST ? 0 : 1);
}

int wl_expr_parse(const char *text, const char *const *names, int nnames, int flags,
		  struct wl_expr *out, struct wl_error *err)
{
	struct parser ps = { .text = text, .p = text, .names = names, .nnames = nnames,
			     .flags = flags, .out = out, .err = err };

	memset(out, 0, sizeof(*out));
	if (parse_or(&ps) < 0)
		return -1;
	skip_space(&ps);
	if (*ps.p != '\0') {
		char msg[64];

		snprintf(msg, sizeof(msg), "unexpected '%c'", *ps.p);
		return fail(&ps, msg);
	}
	return 0;
}

int wl_expr_eval(const struct wl_expr *e, const long long *vars, long long *out,
		 const char **why)
{
	long long stack[WL_EXPR_MAX];
	int top = 0;

	for (int i = 0; i < e->n; i++) {
		long long a, b, r = 0;
		int bad = 0;

		switch ((enum wl_expr_op)e->code[i].op) {
		case WL_EXPR_NUM:
			stack[top++] = e->code[i].num;
			continue;
		case WL_EXPR_VAR:
			stack[top++] = vars[e->code[i].var];
			continue;
		case WL_EXPR_NEG:
			bad = __builtin_sub_overflow(0LL, stack[top - 1], &stack[top - 1]);
			if (bad)
				goto overflow;
			continue;
		default:
			break;
		}
		b = stack[--top];
		a = stack[top - 1];
		switch ((enum wl_expr_op)e->code[i].op) {
		case WL_EXPR_ADD: bad = __builtin_add_overflow(a, b, &r); break;
		case WL_EXPR_SUB: bad = __builtin_sub_overflow(a, b, &r); break;
		case WL_EXPR_MUL: bad = __builtin_mul_overflow(a, b, &r); break;
		case WL_EXPR_DIV:
		case WL_EXPR_MOD:
			if (b == 0) {
				*why = "division by zero";
				return -1;
			}
			if (a == LLONG_MIN && b == -1)
				goto overflow;
			r = e->code[i].op == WL_EXPR_DIV ? a / b : a % b;
			break;
		case WL_EXPR_LT: r = a < b; break;
		case WL_EXPR_LE: r = a <= b; break;
		case WL_EXPR_GT: r = a > b; break;
		case WL_EXPR_GE: r = a >= b; break;
		case WL_EXPR_EQ: r = a == b; break;
		case WL_EXPR_NE: r = a != b; break;
		case WL_EXPR_AND: r = a && b; break;
		case WL_EXPR_OR: r = a || b; break;
		default: r = 0; break;
		}
		if (bad)
			goto overflow;
		stack[top - 1] = r;
	}
	*out = top ? stack[0] : 0;
	return 0;
overflow:
	*why = "the value overflows 64 bits";
	return -1;
}

double wl_expr_eval_double(const struct wl_expr *e, const long long *vars)
{
	double stack[WL_EXPR_MAX];
	int top = 0;

	for (int i = 0; i < e->n; i++) {
		double b;

		switch ((enum wl_expr_op)e->code[i].op) {
		case WL_EXPR_NUM:
			stack[top++] = (double)e->code[i].num;
			continue;
		case WL_EXPR_VAR:
			stack[top++] = (double)vars[e->code[i].var];
			continue;
		case WL_EXPR_NEG:
			stack[top - 1] = -stack[top - 1];
			continue;
		default:
			break;
		}
		b = stack[--top];
		switch ((enum wl_expr_op)e->code[i].op) {
		case WL_EXPR_ADD: stack[top - 1] += b; break;
		case WL_EXPR_SUB: stack[top - 1] -= b; break;
		case WL_EXPR_MUL: stack[top - 1] *= b; break;
		/* Costs have neither; an access expression is evaluated in integers. */
		default: stack[top - 1] = 0; break;
		}
	}
	return top ? stack[0] : 0;
}
