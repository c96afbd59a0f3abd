/* A source read for someone writing an experiment of their own (POST
 * /api/sources/scan): the kernels it defines, each with its parameters as
 * kernel_params.h reads them, and a first draft of the experiment over
 * them in request_own.h's format, for the person to correct. Nothing is
 * compiled; the draft is a guess from the signatures alone, and the notes
 * say where it guessed.
 *
 * The draft's rules, in one place:
 * - a variant per kernel (its id the kernel's name), at most
 *   WL_OWN_VARIANTS_MAX; the experiment's id the first kernel's name in
 *   [a-z0-9_] ("_own" added where a catalog experiment has it);
 * - params "n" (1024 … 2^28, default 2^20, a multiple of 1024) and
 *   "local" (32 … 1024, default 256, a power of two); the launch global
 *   ["n"], local ["local"];
 * - a pointer to global or constant memory is a buffer of "n" elements of
 *   its type: const (or __constant) an input filled "random" (integers
 *   "random_int:0:255"), else an output; a __local pointer is local memory
 *   of "local" elements;
 * - a by-value float or double is a scalar of value "1.5"; a by-value int
 *   or uint is passed as a param expression, its own name where a param
 *   has it, else "n"; another integer width is a scalar of that type and
 *   value "n"; anything else keeps its name as an argument, which the
 *   request's check then refuses, naming it;
 * - the arguments are the first kernel's, and a kernel whose differ has
 *   its own in its variant's "host";
 * - the check is against the first variant within rel 1e-6, or "none"
 *   where there is one kernel (against itself it would say nothing). */
#ifndef WL_SOURCE_SCAN_H
#define WL_SOURCE_SCAN_H

#include <jansson.h>
#include <stddef.h>

#include "catalog.h"
#include "error.h"
#include "language.h"

/* Read source (len bytes, at most WL_OWN_SOURCE_MAX) in lang into *out:
 *   {"language", "kernels": [{"name", "line", "signature", "params":
 *     [{"name", "type", "base", "elem", "pointer", "space", "const",
 *       "restrict", "volatile"}]}], "draft": {...} | null, "notes": [...]}
 * ("elem" and "space" null where there is none; "draft" null where the
 * source defines no kernel). cat is read for the ids its experiments
 * take. -1 with err naming the field "source" (WL_ERR_INVALID_FIELD)
 * where the source is too long, has more than WL_KERNELS_MAX kernels or a
 * kernel whose parameters cannot be read; *out is then NULL. Caller
 * decrefs *out. */
int wl_source_scan(const struct wl_catalog *cat, const char *source, size_t len, enum wl_language lang,
		   json_t **out, struct wl_error *err);

#endif
