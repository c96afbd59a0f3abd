/* POST /api/sources/scan: a source's kernels read without compiling — each
 * one's parameters, as the signature writes them — and a first draft of an
 * experiment of one's own over them (catalog/source_scan.h), which the
 * home page's "Your own experiment" puts in its tables for the person to
 * correct. The body is read as hostile: a JSON object of "source" (at most
 * the own experiment's limit of source) and "language", nothing else, each
 * refused naming its field. Nothing is stored or queued, so it needs no
 * write token. */
#include <string.h>

#include "api.h"
#include "json_strict.h"
#include "language.h"
#include "run_check.h"
#include "source_scan.h"

/* The body's source and language, or -1 with err naming the field. */
static int read_body(const json_t *body, const char **source, size_t *len, enum wl_language *lang,
		     struct wl_error *err)
{
	static const char *const keys[] = { "source", "language", NULL };
	const char *unknown = wl_json_unknown_key(body, keys);
	const json_t *s = json_object_get(body, "source"), *l = json_object_get(body, "language");

	if (unknown) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, unknown, "%.64s: unknown field (allowed: source, language)",
			       unknown);
		return -1;
	}
	if (!json_is_string(s)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "source", "source: %s%s",
			       s ? "expected a string, got " : "is required", s ? wl_json_type_name(s) : "");
		return -1;
	}
	*source = json_string_value(s);
	*len = json_string_length(s);
	*lang = WL_LANG_DEFAULT;
	if (l && (!json_is_string(l) || wl_language_parse(json_string_value(l), lang) < 0)) {
		int text = json_is_string(l);

		wl_error_field(err, WL_ERR_INVALID_FIELD, "language",
			       "language: %s%.32s%s is not allowed (\"%s\", the default, or \"%s\")", text ? "'" : "",
			       text ? json_string_value(l) : wl_json_type_name(l), text ? "'" : "", WL_LANG_OPENCL_NAME,
			       WL_LANG_CUDA_NAME);
		return -1;
	}
	return 0;
}

void wl_api_scan_source(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			struct wl_response *resp)
{
	json_t *body = wl_run_body(req, resp), *out = NULL;
	const char *source;
	enum wl_language lang;
	struct wl_error err;
	size_t len;

	(void)at;
	if (!body)
		return;
	wl_error_clear(&err);
	if (!json_is_object(body))
		wl_response_error(resp, 400, "bad_json", NULL,
				  "the body must be a JSON object {\"source\", \"language\"}, not %s", wl_json_type_name(body));
	else if (read_body(body, &source, &len, &lang, &err) < 0 ||
		 wl_source_scan(srv->catalog, source, len, lang, &out, &err) < 0)
		wl_response_from_error(resp, &err);
	else
		wl_response_json(resp, 200, out);
	json_decref(body);
}
