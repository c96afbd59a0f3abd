/* Parsing Accept (RFC 9110, section 12.5.1) just far enough to choose between
 * the two representations a run has: media ranges separated by commas, each
 * with an optional ";q=" weight. */
#include "negotiate.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The weight in the parameters of one media range, p .. end: its q, or 1. */
static double quality(const char *p, const char *end)
{
	while ((p = memchr(p, ';', (size_t)(end - p))) != NULL) {
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
			double q = strtod(p + 2, NULL);

			return q < 0 ? 0 : q > 1 ? 1 : q;
		}
	}
	return 1;
}

/* Whether the media range at p (up to its ';', ',' or end) is name. */
static int is_range(const char *p, const char *end, const char *name)
{
	size_t n = strlen(name), len = 0;

	while (p + len < end && p[len] != ';' && p[len] != ' ' && p[len] != '\t')
		len++;
	return len == n && strncasecmp(p, name, n) == 0;
}

/* The most specific range wins (RFC 9110): "application/json;q=0" refuses
 * JSON even beside a wildcard application range. */
static double weight(double exact, double wildcard)
{
	return exact >= 0 ? exact : wildcard;
}

int wl_accepts_json(const char *accept)
{
	double json = -1, json_any = -1, html = -1, html_any = -1;
	const char *p = accept;

	if (!accept)
		return 0;
	while (*p) {
		const char *end = strchr(p, ',');

		if (!end)
			end = p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (is_range(p, end, "application/json"))
			json = quality(p, end);
		else if (is_range(p, end, "application/*"))
			json_any = quality(p, end);
		else if (is_range(p, end, "text/html"))
			html = quality(p, end);
		else if (is_range(p, end, "text/*"))
			html_any = quality(p, end);
		p = *end ? end + 1 : end;
	}
	return weight(json, json_any) > 0 && weight(json, json_any) >= weight(html, html_any);
}
