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
 * "constant:<v>" (a number, or for integers an expression of the params:
 * "constant:n/items"), "random" (floats in [-1, 1) from the point's seed,
 * 24 bits each) or "random:<lo>:<hi>", "random_int:<lo>:<hi>" (integers,
 * both ends in), "nonzero_int:<max>" (integers from -max to max, never 0:
 * sums of them are exact in float, and a kernel that writes zeros cannot
 * pass), "permutation" (of 0..count-1), "transpose:<buffer>" (the
 * transpose of an earlier square buffer of the same count and type), and a
 * sparse matrix's structure in CSR:
 * "csr_rows:<nonzeros per row>" (the row pointers: count - 1 rows) with its
 * partner "csr_cols:<band>" (each row's column indices, spread evenly over a
 * band of columns around the diagonal, sorted and distinct, all below the
 * row count). A buffer with no init is an output only: it is poisoned before
 * each launch, so an element the kernel does not write fails the check.
 * A define is a param's name (built with -D tile=16) or a macro of its own
 * with an expression of the params ({"name": "BLOCK_ROWS", "value": "rows"}).
 * An experiment marked "fp64": true runs its double buffers in double on a
 * device with fp64 (built with -D WL_FP64) and in float on one without, the
 * results then saying so.
 *
 * The catalog's experiments may instead name a reference written in C, which
 * computes what the output must hold from the inputs' generators:
 *   "check": {"reference": "transpose"}
 * (the runner's references, runner/families/references.h); a request's own
 * experiment cannot. */
#ifndef WL_EXP_DATA_H
#define WL_EXP_DATA_H

#include <jansson.h>
#include <stddef.h>

#include "elem_type.h"
#include "error.h"
#include "expr.h"

enum wl_init_kind {
	WL_INIT_NONE, WL_INIT_ZEROS, WL_INIT_INDEX, WL_INIT_CONSTANT, WL_INIT_RANDOM, WL_INIT_RANDOM_INT,
	WL_INIT_NONZERO_INT, WL_INIT_TRANSPOSE, WL_INIT_PERMUTATION, WL_INIT_CSR_ROWS, WL_INIT_CSR_COLS,
};

struct wl_buffer_init {
	enum wl_init_kind kind;
	double value;			/* constant, where a number */
	int has_expr;			/* constant: value_expr instead */
	struct wl_expr value_expr;	/* constant, over the params */
	double lo, hi;			/* random: [lo, hi); random_int: [lo, hi]; nonzero_int: hi is max */
	int source;			/* transpose: the buffer's index */
	char source_name[WL_EXPR_NAME_MAX];	/* transpose: as written */
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
 * results then saying "not checked"; or by a reference in C named by the
 * catalog. */
enum wl_check_kind { WL_CHECK_REFERENCE, WL_CHECK_AGAINST, WL_CHECK_NONE };

#define WL_REFERENCE_NAME_MAX 32

struct wl_check_def {
	enum wl_check_kind kind;
	char reference[WL_REFERENCE_NAME_MAX];	/* WL_CHECK_REFERENCE: its name */
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
 * into *out, NULL where obj declares no buffers (a test-only experiment,
 * whose family holds them in C). Errors begin with
 * where ("experiment" in a request, "experiment 'copy'" in the catalog)
 * and the key's path ("where.buffers[1].count: ..."); with fields set (a
 * request's own experiment), they are WL_ERR_INVALID_FIELD naming that path
 * as the field and a reference is refused, else WL_ERR_CONFIG; a check is
 * required either way; the check's variant is one of names'. On
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

/* What follows the definitions where an "fp64" experiment runs on a device
 * that holds doubles. */
#define WL_FP64_OPTION "-D WL_FP64"

/* Whether options are what d's sources are built with at values: the
 * definitions, alone or with WL_FP64_OPTION after them. */
int wl_exp_data_options_are(const struct wl_exp_data *d, const long long *values, const char *options);

#endif
