/* The languages a run's kernels can be in, their spelling, and the one rule
 * for a run that names none: it is in the default language, OpenCL, which
 * every run was in before there was a choice. Requests, stored requests,
 * store rows and runners' device lists from before then name none, and
 * still must read as what they were.
 *
 * This is the rule's only home. It sits below both rooms that apply it: the
 * catalog, which decides a new request's language and reads a stored one
 * (request.h), and the store, whose claim matches a run's stored language,
 * NULL for none, against what a runner's devices run (store_claim.c). Each
 * says "the default" through this header; neither names the language. */
#ifndef WL_LANGUAGE_H
#define WL_LANGUAGE_H

/* The language a run's kernels are in; a run is in one. */
enum wl_language { WL_LANG_OPENCL, WL_LANG_CUDA };

/* Each language's spelling in requests, in the store and in device lists. */
#define WL_LANG_OPENCL_NAME "opencl"
#define WL_LANG_CUDA_NAME "cuda"

/* What a run that names no language is in, and its spelling: the form SQL
 * written at compile time needs (a stored NULL reads as this name). The two
 * lines say one language. */
#define WL_LANG_DEFAULT WL_LANG_OPENCL
#define WL_LANG_DEFAULT_NAME WL_LANG_OPENCL_NAME

/* lang's spelling, "opencl" or "cuda"; a string constant. */
const char *wl_language_name(enum wl_language lang);

/* The language s names ("opencl" or "cuda") into *out: 0, or -1 where s is
 * NULL or names another (*out then untouched). An absent language is no
 * name: a caller that reads one gives it WL_LANG_DEFAULT itself. */
int wl_language_parse(const char *s, enum wl_language *out);

#endif
