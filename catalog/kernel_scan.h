/* Reading OpenCL C source without compiling it (and CUDA's, whose
 * __global__ functions are its kernels): where each __kernel function
 * is (its name, signature and body), and a variant's template (its family's
 * file with the other kernels cut out). The server uses it to read custom
 * kernels before they are queued and to show built-in kernels as starting
 * points; nothing here runs a compiler. What a source may ask of the
 * preprocessor is directive_check.h. */
#ifndef WL_KERNEL_SCAN_H
#define WL_KERNEL_SCAN_H

#include <stddef.h>

#include "error.h"

#define WL_KERNELS_MAX 64	/* kernels one source may define */
#define WL_KERNEL_NAME_MAX 127

/* One __kernel function definition in a source, as byte offsets. */
struct wl_kernel_span {
	char name[WL_KERNEL_NAME_MAX + 1];
	size_t start;		/* the comment lines just above it, else decl */
	size_t decl;		/* the __kernel (or kernel) keyword, CUDA's extern "C" */
	size_t sig_end;		/* one past the ')' that closes its parameters */
	size_t end;		/* one past its closing '}' and that line's newline */
	int line;		/* 1-based line of decl */
	int first_line;		/* 1-based line of start */
	int nparams;		/* top-level parameters (0 for "()" or "(void)") */
};

struct wl_kernel_list {
	size_t count;
	struct wl_kernel_span items[WL_KERNELS_MAX];
};

/* Find every __kernel function definition in text (comments, strings and
 * preprocessor lines are skipped; prototypes are not definitions). Fails only
 * when there are more than WL_KERNELS_MAX. */
int wl_kernels_scan(const char *text, size_t len, struct wl_kernel_list *out,
		    struct wl_error *err);

/* The kernel called name in list, or NULL. */
const struct wl_kernel_span *wl_kernels_find(const struct wl_kernel_list *list, const char *name);

/* The template of kernel name of a family's source: the whole text with every
 * other kernel definition (and the comment just above it) removed, so that it
 * builds on its own. NULL when the source has no such kernel or memory runs
 * out. Caller frees. */
char *wl_kernel_template(const char *text, size_t len, const char *name);

/* The text of a kernel's signature, from its keyword to its closing ')', with
 * runs of white space folded to one space. Caller frees; NULL when out of
 * memory. */
char *wl_kernel_signature(const char *text, const struct wl_kernel_span *k);

#endif
