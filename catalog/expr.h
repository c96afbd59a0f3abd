/* The catalog's integer expression language: the cost formulas ("8*n*n +
 * 4*tile") and the index expressions of declared memory accesses
 * ("grp1*tile*n + (lid1 + i)*n + lid0"), parsed once into postfix code and
 * evaluated at each point. Operators, loosest first: || && == != < <= > >=
 * + - * / % and unary -, with parentheses; operands are integer literals and
 * names from a table the caller gives (parameters, work-item ids, loop
 * counters). Comparisons and && || give 0 or 1, as in C. */
#ifndef WL_EXPR_H
#define WL_EXPR_H

#include "error.h"

#define WL_EXPR_MAX 48		/* operations in one expression */
#define WL_EXPR_NAME_MAX 32	/* bytes of one name */

enum wl_expr_op {
	WL_EXPR_NUM, WL_EXPR_VAR, WL_EXPR_NEG,
	WL_EXPR_ADD, WL_EXPR_SUB, WL_EXPR_MUL, WL_EXPR_DIV, WL_EXPR_MOD,
	WL_EXPR_LT, WL_EXPR_LE, WL_EXPR_GT, WL_EXPR_GE, WL_EXPR_EQ, WL_EXPR_NE,
	WL_EXPR_AND, WL_EXPR_OR,
};

struct wl_expr {
	int n;
	struct {
		unsigned char op;	/* enum wl_expr_op */
		int var;		/* WL_EXPR_VAR: index into the name table */
		long long num;		/* WL_EXPR_NUM */
	} code[WL_EXPR_MAX];
};

/* Cost formulas stay sums of products of positive literals and parameters, so
 * that a count can never come out negative or zero and the limits it feeds
 * always hold: with this flag, only + * ( ) and literals above 0 parse. */
#define WL_EXPR_COST 1

/* Parse text, resolving names against names[0..nnames). On failure returns -1
 * with a message quoting text and naming what is wrong ("unknown parameter
 * 'm'" under WL_EXPR_COST, "unknown variable 'm'" otherwise). */
int wl_expr_parse(const char *text, const char *const *names, int nnames, int flags,
		  struct wl_expr *out, struct wl_error *err);

/* Evaluate e with vars[i] the value of name i, in 64-bit integers as the
 * kernels' index arithmetic does. -1 on a division by zero or an overflow, with
 * the reason in *why (a static string). */
int wl_expr_eval(const struct wl_expr *e, const long long *vars, long long *out,
		 const char **why);

/* Evaluate e in double: cost formulas at huge sizes cannot overflow. */
double wl_expr_eval_double(const struct wl_expr *e, const long long *vars);

#endif
