/* What an experiment defined as data holds beyond its params, variants and
 * launch: its buffers (name, element type, count as an expression of the
 * params, how they are filled, which the kernels write), its scalars, the
 * params its sources are built with as -D definitions, and how each
 * variant's output is checked. The catalog's experiments may declare these,
 * and an experiment a request brings declares them all:
 *
 *   "buffers": [{"name": "x", "type": "float", "count": "n", "init": "random"},
 *               {"name": "y", "type": "float", "count": "n", "init": "random", "output": true}],
 *   "scalars": [{"name": "a", "type": "float", "value": "2.5"}],
 *   "defines": ["tile", {"name": "BLOCK_ROWS", "value": "rows"}],
 *   "check": {"against": "scalar", "rel": 1e-6}        (or "none")
 *
 * Inits: "zeros", "index" (element i holds i; lane c of a vector i*lanes+c),
 * "constant:<v>", "random" (floats in [-1, 1) from the point's seed) or
 * "random:<lo>:<hi>", "random_int:<lo>:<hi>" (integers, both ends in),
 * "permutation" (of 0..count-1), and a sparse matrix's structure in CSR:
 * "csr_rows:<nonzeros per row>" (the row pointers: count - 1 rows) with its
 * partner "csr_cols:<band>" (each row's column indices, spread evenly over a
 * band of columns around the diagonal, sorted and distinct, all below the
 * row count). A buffer with no init is an output only: it is poisoned before
 * each launch, so an element the kernel does not write fails the check.
 * A define is a param's name (built with -D tile=16) or a macro of its own
 * with an expression of the params ({"name": "BLOCK_ROWS", "value": "rows"}). */
#ifndef WL_EXP_DATA_H
#define WL_EXP_DATA_H

#include <jansson.h>
#include <stddef.h>

#include "elem_type.h"
#include "error.h"
#include "expr.h"

enum wl_init_kind {
	WL_INIT_NONE, WL_INIT_ZEROS, WL_INIT_INDEX, WL_INIT_CONSTANT, WL_INIT_RANDOM, WL_INIT_RANDOM_INT,
	WL_INIT_PERMUTATION, WL_INIT_CSR_ROWS, WL_INIT_CSR_COLS,
};

struct wl_buffer_init {
	enum wl_init_kind kind;
	double value;			/* constant */
	double lo, hi;			/* random: [lo, hi); random_int: [lo, hi] */
	long long per_row;		/* csr_rows: nonzeros a row (csr_cols: its partner's) */
	long long band;			/* csr_cols: the columns a row's nonzeros spread over */
};

struct wl_buffer_def {
	char *name;
	struct wl_elem_type type;
	char *count_text;		/* as written, for messages */
	struct wl_expr count;		/* elements, over the params */
	struct wl_buffer_init init;
	int output;			/* the kernels write it: checked after each launch */
};

struct wl_scalar_def {
	char *name;
	struct wl_elem_type type;	/* one lane */
	struct wl_expr value;		/* integer types: over the params */
	double real;			/* float types */
};

/* How each variant's outputs are checked: against one variant's outputs at
 * the same point, within a tolerance (a float passes when within any that is
 * given; none given, bit for bit; integers always exactly); not at all, the
 * results then saying "not checked"; or by the family's code, which the
 * catalog's experiments have in C. */
enum wl_check_kind { WL_CHECK_CODE, WL_CHECK_AGAINST, WL_CHECK_NONE };

struct wl_check_def {
	enum wl_check_kind kind;
	int against;			/* the variant's index */
	double abs, rel;		/* < 0: not given */
	long long ulps;			/* < 0: not given */
};

struct wl_exp_data {
	size_t nbuffers, nscalars, ndefines;
	struct wl_buffer_def *buffers;
	struct wl_scalar_def *scalars;
	struct wl_define {
		char name[WL_EXPR_NAME_MAX];	/* the macro */
		struct wl_expr value;		/* over the params */
	} *defines;			/* passed to the build as -D name=value */
	struct wl_check_def check;
};

/* What a request's own experiment may hold at most. */
#define WL_DATA_BUFFERS_MAX 16
#define WL_DATA_SCALARS_MAX 16
#define WL_DATA_DEFINES_MAX 16

/* The names an experiment's data is read against: its params', in order
 * (what expressions and defines name), and its variants' (what a check is
 * against). */
struct wl_exp_data_names {
	const char *const *params;
	int nparams;
	const char *const *variants;
	size_t nvariants;
};

/* Read obj's "buffers", "scalars", "defines" and "check" against names
 * into *out, NULL where obj declares no buffers (the experiment's family
 * holds them in C). Errors begin with
 * where ("experiment" in a request, "experiment 'copy'" in the catalog)
 * and the key's path ("where.buffers[1].count: ..."); with fields set (a
 * request's own experiment), they are WL_ERR_INVALID_FIELD naming that path
 * as the field and a check is required, else WL_ERR_CONFIG and an absent
 * check is the family's code; the check's variant is one of names'. On
 * failure *out is NULL. Caller frees with wl_exp_data_free() (an
 * experiment's goes with it, wl_experiment_clear). */
int wl_exp_data_load(const json_t *obj, const struct wl_exp_data_names *names, const char *where, int fields,
		     struct wl_exp_data **out, struct wl_error *err);
void wl_exp_data_free(struct wl_exp_data *d);

/* The buffer or scalar of d called name, or NULL. */
const struct wl_buffer_def *wl_exp_data_buffer(const struct wl_exp_data *d, const char *name);
const struct wl_scalar_def *wl_exp_data_scalar(const struct wl_exp_data *d, const char *name);

/* Buffer b's elements and bytes at values (one per param): 0, or -1 with
 * *why ("the value overflows 64 bits", "the count is below 1") where its
 * count cannot be. */
int wl_buffer_size(const struct wl_buffer_def *b, const long long *values, long long *count,
		   long long *bytes, const char **why);

/* The bytes every buffer of d holds at values, and the largest one's: 0, or
 * -1 with err naming the buffer (WL_ERR_INVALID_FIELD, field
 * "experiment.buffers[i].count", when fields) and its count. */
int wl_exp_data_bytes(const struct wl_exp_data *d, const long long *values, int fields, double *total,
		      double *largest, struct wl_error *err);

/* The CSR pair's shape at values, where d has one: the rows (the csr_rows
 * buffer's count less one) and the nonzeros a row; 0 where d has none, -1
 * where its counts cannot be. */
int wl_exp_data_csr(const struct wl_exp_data *d, const long long *values, long long *rows, long long *per_row);

/* Whether d's buffers hold together at values: every count valid
 * (wl_exp_data_bytes), every define evaluating, a csr_rows buffer with at least one row, and a
 * csr_cols buffer with a column for every nonzero of its rows. -1 with
 * err naming the buffer (a field, when fields). */
int wl_exp_data_check_point(const struct wl_exp_data *d, const long long *values, int fields, struct wl_error *err);

/* What d's buffers cost at values, for a cost kind the experiment gives no
 * formula of (catalog_cost.h): the bytes a variant must move at least (each
 * buffer with an init read once, each output written once), the device
 * memory (every buffer), the largest buffer; 0 for the other kinds. In
 * double, so huge sizes cannot overflow. */
enum wl_data_cost { WL_DATA_BYTES, WL_DATA_MEMORY, WL_DATA_LARGEST };
double wl_exp_data_cost(const struct wl_exp_data *d, enum wl_data_cost kind, const long long *values);

/* The -D definitions d's sources are built with at values ("-D tile=32
 * -D BLOCK_ROWS=8"), appended to out (len bytes, kept terminated). */
void wl_exp_data_options(const struct wl_exp_data *d, const long long *values, char *out, size_t len);

#endif
