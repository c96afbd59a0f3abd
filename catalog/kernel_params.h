/* A kernel's parameters read from its signature as written, without
 * compiling: each one's name, its type as written, and what the type says
 * to someone drafting a launch — whether it is a pointer, into which
 * address space, whether what it points to is const, and its element type
 * in the catalog's spelling (elem_type.h). kernel_scan.h finds the kernels;
 * this splits one's parameter list. Usage:
 *
 *   struct wl_kernel_list *list = ...;      wl_kernels_scan(text, len, list, err)
 *   struct wl_kernel_param params[WL_KERNEL_PARAMS_MAX];
 *   size_t n;
 *   if (wl_kernel_params_read(text, &list->items[0], WL_LANG_OPENCL, params, &n, err) < 0) ...
 *
 * It reads OpenCL C (__global, global, __local, __constant, __private,
 * const, restrict, volatile, access qualifiers, __attribute__((...)),
 * vector types) and CUDA (pointers are device memory, __restrict__,
 * "unsigned int" and the <stdint.h> names), comments anywhere, any spacing,
 * and an array parameter (float x[]) as the pointer it is. */
#ifndef WL_KERNEL_PARAMS_H
#define WL_KERNEL_PARAMS_H

#include <stddef.h>

#include "error.h"
#include "kernel_scan.h"
#include "language.h"

#define WL_KERNEL_PARAMS_MAX 32		/* parameters one kernel may have here */
#define WL_PARAM_NAME_MAX 64		/* bytes of a name, its terminator included */
#define WL_PARAM_TYPE_MAX 160		/* bytes of a type as written, its terminator included */

/* Where a pointer parameter points. A CUDA pointer is global memory; an
 * OpenCL pointer that names no space is generic (WL_ADDR_NONE). */
enum wl_addr_space { WL_ADDR_NONE, WL_ADDR_GLOBAL, WL_ADDR_LOCAL, WL_ADDR_CONSTANT, WL_ADDR_PRIVATE };

struct wl_kernel_param {
	char name[WL_PARAM_NAME_MAX];	/* "" where the parameter has none */
	char type[WL_PARAM_TYPE_MAX];	/* as written without the name and comments, white
					 * space folded: "__global const float *" */
	char base[WL_PARAM_TYPE_MAX];	/* the type's words without qualifiers: "unsigned int" */
	char elem[16];			/* base in elem_type.h's spelling ("uint", "float4"),
					 * "" where it is none of those types */
	int pointer;			/* levels of '*' (an array parameter counts one) */
	enum wl_addr_space space;	/* a pointer's; WL_ADDR_NONE for a value */
	int is_const;			/* a pointer's target is const (a value: the value is) */
	int is_restrict, is_volatile;
};

/* Split kernel k of text (found by wl_kernels_scan in the same text) into
 * its parameters, in order, into out (room for WL_KERNEL_PARAMS_MAX) and
 * *count. lang says whether a pointer that names no space is CUDA's device
 * memory. -1 with err (WL_ERR_INVALID_FIELD, no field: the caller names
 * it) where k has more parameters than that, or a name or type longer than
 * the room above; *count is then 0. */
int wl_kernel_params_read(const char *text, const struct wl_kernel_span *k, enum wl_language lang,
			  struct wl_kernel_param *out, size_t *count, struct wl_error *err);

/* "global", "local", "constant", "private", or NULL for WL_ADDR_NONE. */
const char *wl_addr_space_name(enum wl_addr_space space);

#endif
