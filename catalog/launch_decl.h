/* How the host launches a variant, as the catalog declares it: the "host"
 * object of an experiment, which a variant's own "host" overrides key by key.
 *   "host": {"global": ["n", "n/tile*rows"], "local": ["tile", "rows"],
 *            "args": ["odata", "idata", "n"], "output": "transposed"}
 * - global: work-items per dimension (one or two integer expressions over the
 *   params);
 * - local: the work-group, same shape; absent: the driver chooses;
 * - fill: instead of global, a persistent grid: as many work-groups as the
 *   device keeps resident, at most fill / local of them;
 * - args: the kernel's arguments in order: a buffer the family names, an
 *   integer expression over the params (passed as 4 bytes), or
 *   {"local": "<bytes>"} for local memory;
 * - output: what the kernel writes, in the family's words (which reference
 *   its output is checked against), where a family has several.
 * A family's host code reads this instead of branching on a variant's id, so
 * a new variant that the same host code can run is a catalog entry only. The
 * access model takes its work-group and grid from here unless it states an
 * assumption of its own. */
#ifndef WL_LAUNCH_DECL_H
#define WL_LAUNCH_DECL_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"
#include "expr.h"

#define WL_LAUNCH_ARGS_MAX 24

enum wl_launch_arg_kind { WL_ARG_BUFFER, WL_ARG_INT, WL_ARG_LOCAL };

struct wl_launch_arg {
	enum wl_launch_arg_kind kind;
	char buffer[WL_EXPR_NAME_MAX];	/* WL_ARG_BUFFER: the family's name for it */
	struct wl_expr value;		/* WL_ARG_INT: the value; WL_ARG_LOCAL: bytes */
};

struct wl_launch_decl {
	int dims;			/* 1 or 2; 0: nothing declared */
	struct wl_expr global[2];
	int has_local;			/* 0: the driver chooses the work-group */
	struct wl_expr local[2];
	int has_fill;			/* a persistent grid of at most fill / local groups */
	struct wl_expr fill;
	int nargs;
	struct wl_launch_arg args[WL_LAUNCH_ARGS_MAX];
	char *output;			/* owned; NULL where the family has one output */
	json_t *shown;			/* the merged declaration as written; owned */
};

/* Merge obj (a variant's "host", or NULL) over base (its experiment's, or
 * NULL) and read the result over the params names[0..nnames). Errors begin
 * with where and name the key and the expression. On success the caller
 * frees *out's contents with wl_launch_decl_clear(); on failure nothing is
 * left to free. */
int wl_launch_decl_load(const json_t *obj, const json_t *base, const char *const *names,
			int nnames, const char *where, struct wl_launch_decl *out,
			struct wl_error *err);
void wl_launch_decl_clear(struct wl_launch_decl *d);

/* The launch's shape at a point (values, one per param): global and local
 * sizes per dimension (local all 0 when the driver chooses), and for a
 * persistent grid fill, the most work-items it may have (global is then 0).
 * -1 when an expression cannot be evaluated or gives a size below 1. */
struct wl_launch_size {
	int dims;
	long long global[2], local[2];
	long long fill;
};
int wl_launch_decl_size(const struct wl_launch_decl *d, const long long *values,
			struct wl_launch_size *out, struct wl_error *err);

/* Whether the driver chooses the work-group size of a launch as d declares
 * it (a launch declared without "local"): its groups are then not known
 * before it runs. */
int wl_launch_decl_driver_chooses(const struct wl_launch_decl *d);

/* The local memory d's launch at values gives its kernel through its
 * arguments ({"local": bytes}; what a compiler cannot count); a size that
 * does not evaluate counts 0 (the launch then fails first). */
long long wl_launch_decl_local_arg_bytes(const struct wl_launch_decl *d, const long long *values);

/* Whether the declaration passes buffer name to the kernel. */
int wl_launch_decl_reads(const struct wl_launch_decl *d, const char *name);

/* Whether the declared output is output (0 where none is declared). */
int wl_launch_decl_output_is(const struct wl_launch_decl *d, const char *output);

#endif
