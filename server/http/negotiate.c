/* Parsing Accept and Accept-Encoding (RFC 9110, sections 12.5.1 and 12.5.3)
 * just far enough for what the server offers: JSON or the page, gzip or not.
 * Both are elements separated by commas, each with an optional ";q=" weight. */
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

/* Whether the element (a media range or a coding) at p (up to its ';', ',' or end) is name. */
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

/* The next element of a comma-separated header at *p: [*start, *end), with
 * leading blanks skipped; 0 when there is none left. */
static int next_element(const char **p, const char **start, const char **end)
{
	const char *e;

	if (!**p)
		return 0;
	e = strchr(*p, ',');
	if (!e)
		e = *p + strlen(*p);
	*start = *p;
	while (*start < e && (**start == ' ' || **start == '\t'))
		(*start)++;
	*end = e;
	*p = *e ? e + 1 : e;
	return 1;
}

int wl_accepts_json(const char *accept)
{
	double json = -1, json_any = -1, html = -1, html_any = -1;
	const char *p = accept, *s, *e;

	if (!accept)
		return 0;
	while (next_element(&p, &s, &e)) {
		if (is_range(s, e, "application/json"))
			json = quality(s, e);
		else if (is_range(s, e, "application/*"))
			json_any = quality(s, e);
		else if (is_range(s, e, "text/html"))
			html = quality(s, e);
		else if (is_range(s, e, "text/*"))
			html_any = quality(s, e);
	}
	return weight(json, json_any) > 0 && weight(json, json_any) >= weight(html, html_any);
}

int wl_accepts_gzip(const char *accept_encoding)
{
	double gzip = -1, any = -1;
	const char *p = accept_encoding, *s, *e;

	if (!accept_encoding)
		return 0;
	while (next_element(&p, &s, &e)) {
		if (is_range(s, e, "gzip"))
			gzip = quality(s, e);
		else if (is_range(s, e, "*"))
			any = quality(s, e);
	}
	return weight(gzip, any) > 0;
}
