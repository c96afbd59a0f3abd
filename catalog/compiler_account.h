/* What a device's compiler says about a built program, read from the texts
 * NVIDIA's OpenCL gives: the build log of a build with -cl-nv-verbose, where
 * ptxas reports each kernel's registers, barriers, shared (local) memory,
 * stack frame and spills, and the program binary, which is PTX text and,
 * built with -nv-line-info, carries ".loc FILE LINE COL" lines that name the
 * source line of the instructions after them. The runner keeps the texts;
 * the server reads them here into figures and a view of one kernel's PTX. */
#ifndef WL_COMPILER_ACCOUNT_H
#define WL_COMPILER_ACCOUNT_H

#include <jansson.h>
#include <stddef.h>

/* The figures ptxas gave in log for each kernel, as
 * {"KERNEL": {"target": "sm_90a", "registers": 28, "barriers": 1,
 *  "shared_bytes": 4228, "stack_bytes": 0, "spill_store_bytes": 0,
 *  "spill_load_bytes": 0}, ...}; a figure ptxas did not print is absent
 * (no "N bytes smem": shared_bytes 0). An empty object where the log holds
 * none (another driver, or a program loaded from a binary). NULL only when
 * out of memory. */
json_t *wl_ptxas_figures(const char *log);

/* Whether binary[0..len) is PTX text (NVIDIA's program binary), not a
 * device's machine code. */
int wl_ptx_is_text(const unsigned char *binary, size_t len);

/* ptx[0..len) as a person may see it: up to its first NUL, with each
 * `.file N "PATH"` naming "<source>" instead of the runner's path (no path of
 * the host reaches a result). Caller frees; NULL when out of memory. */
char *wl_ptx_for_users(const char *ptx, size_t len);

/* The part of ptx that is kernel's entry function, read for the page:
 * {"kernel": NAME,
 *  "lines": [TEXT, ...]            the function, without its .loc lines,
 *  "source_lines": [N|0, ...]      per line, the source line it came from
 *                                  (the last .loc of file 1 before it), 0 none,
 *  "memory": [{"line": I, "op": "ld"|"st"|"atom"|"red", "space":
 *              "global"|"shared"|"local"|"const", "vector": 1|2|4|8,
 *              "bits": 32, "bytes": 16}, ...]  loads and stores of memory
 *                                  (not parameters), I 0-based in lines,
 *  "counts": {"global ld v4": 1, ...}} the same, counted.
 * NULL when ptx has no entry function kernel (or out of memory). */
json_t *wl_ptx_kernel_view(const char *ptx, const char *kernel);

#endif
