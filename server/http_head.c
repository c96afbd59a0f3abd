/* The framing check of a request head (see http_head.h): the request line,
 * then each header line; only the headers that decide where a request ends
 * (Content-Length, Transfer-Encoding) or which host it names are read. */
#include "http_head.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int header_is(const char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	return len > n && line[n] == ':' && strncasecmp(line, name, n) == 0;
}

/* The value of a header line without the name, the colon and blanks around. */
static void header_value(const char *line, size_t len, const char **v, size_t *vlen)
{
	const char *p = memchr(line, ':', len) + 1, *e = line + len;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*v = p;
	*vlen = (size_t)(e - p);
}

static int refuse(char *msg, size_t len, const char *fmt, const char *detail)
{
	snprintf(msg, len, fmt, detail);
	return 400;
}

/* The request target: no %00 (it would end the path early once decoded) and
 * no control character or space. */
static int check_target(const char *t, size_t n, char *msg, size_t msg_len)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];

		if (c < 0x21 || c == 0x7f)
			return refuse(msg, msg_len, "the request target holds a control character or a space%s", "");
		if (c == '%' && i + 2 < n && t[i + 1] == '0' && t[i + 2] == '0')
			return refuse(msg, msg_len, "the request target holds %s (a NUL byte)", "%00");
	}
	return 0;
}

int wl_http_head_check(const char *head, size_t len, char *msg, size_t msg_len)
{
	const char *line = head, *end = head + len, *sp1, *sp2, *eol;
	int lengths = 0, host = 0, te = 0, http11, status;

	eol = memchr(line, '\n', len);
	if (!eol)
		return refuse(msg, msg_len, "the request line is incomplete%s", "");
	sp1 = memchr(line, ' ', (size_t)(eol - line));
	sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1)) : NULL;
	if (!sp1 || !sp2 || sp1 == line || sp2 == sp1 + 1)
		return refuse(msg, msg_len, "the request line is not METHOD TARGET VERSION%s", "");
	if ((status = check_target(sp1 + 1, (size_t)(sp2 - sp1 - 1), msg, msg_len)))
		return status;
	http11 = eol - sp2 - 1 >= 8 && strncmp(sp2 + 1, "HTTP/1.1", 8) == 0;
	for (line = eol + 1; line < end; line = eol + 1) {
		size_t n;

		eol = memchr(line, '\n', (size_t)(end - line));
		if (!eol)
			break;
		n = (size_t)(eol - line);
		if (n > 0 && line[n - 1] == '\r')
			n--;
		if (n == 0)
			break;	/* the blank line that ends the head */
		if (line[0] == ' ' || line[0] == '\t')
			return refuse(msg, msg_len, "a header line is folded (obsolete line folding is refused)%s", "");
		if (!memchr(line, ':', n))
			return refuse(msg, msg_len, "a header line has no colon%s", "");
		if (header_is(line, n, "Host")) {
			host++;
		} else if (header_is(line, n, "Content-Length")) {
			const char *v;
			size_t vlen;

			header_value(line, n, &v, &vlen);
			lengths++;
			if (vlen == 0 || vlen > 18 || strspn(v, "0123456789") < vlen) {
				snprintf(msg, msg_len, "Content-Length '%.*s' is not a length: 1 to 18 digits are allowed",
					 (int)(vlen > 40 ? 40 : vlen), v);
				return 400;
			}
		} else if (header_is(line, n, "Transfer-Encoding")) {
			const char *v;
			size_t vlen;

			header_value(line, n, &v, &vlen);
			te++;
			if (vlen != 7 || strncasecmp(v, "chunked", 7) != 0)
				return refuse(msg, msg_len, "Transfer-Encoding must be 'chunked' alone%s", "");
		}
	}
	if (lengths > 1)
		return refuse(msg, msg_len, "the request has %s Content-Length headers; one is allowed", "several");
	if (te > 1)
		return refuse(msg, msg_len, "the request has several Transfer-Encoding headers%s", "");
	if (lengths && te)
		return refuse(msg, msg_len, "the request has both Content-Length and Transfer-Encoding%s", "");
	if (http11 && host != 1)
		return refuse(msg, msg_len, "an HTTP/1.1 request needs %s Host header", "exactly one");
	return 0;
}

