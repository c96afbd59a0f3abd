/* The framing check of a request head (see http_head.h): the request line,
 * then each header line; only the headers that decide where a request ends
 * (Content-Length, Transfer-Encoding) or which host it names are read. */
#include "http_head.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

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

int wl_http_target_check(const char *t, size_t n, char *msg, size_t msg_len)
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
	struct wl_http_framing framing = { 0 };
	int status;

	eol = memchr(line, '\n', len);
	if (!eol)
		return refuse(msg, msg_len, "the request line is incomplete%s", "");
	sp1 = memchr(line, ' ', (size_t)(eol - line));
	sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1)) : NULL;
	if (!sp1 || !sp2 || sp1 == line || sp2 == sp1 + 1)
		return refuse(msg, msg_len, "the request line is not METHOD TARGET VERSION%s", "");
	if ((status = wl_http_target_check(sp1 + 1, (size_t)(sp2 - sp1 - 1), msg, msg_len)))
		return status;
	framing.http11 = eol - sp2 - 1 >= 8 && strncmp(sp2 + 1, "HTTP/1.1", 8) == 0;
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
		{
			const char *v, *colon = memchr(line, ':', n);
			size_t vlen;

			header_value(line, n, &v, &vlen);
			if ((status = wl_http_framing_add(&framing, line, (size_t)(colon - line), v, vlen, msg, msg_len)))
				return status;
		}
	}
	return wl_http_framing_verdict(&framing, msg, msg_len);
}

int wl_http_framing_add(struct wl_http_framing *f, const char *name, size_t name_len, const char *value,
			size_t value_len, char *msg, size_t msg_len)
{
	if (name_len == 4 && strncasecmp(name, "Host", 4) == 0) {
		f->hosts++;
	} else if (name_len == 14 && strncasecmp(name, "Content-Length", 14) == 0) {
		f->lengths++;
		if (value_len == 0 || value_len > 18 || strspn(value, "0123456789") < value_len) {
			snprintf(msg, msg_len, "Content-Length '%.*s' is not a length: 1 to 18 digits are allowed",
				 (int)(value_len > 40 ? 40 : value_len), value);
			return 400;
		}
	} else if (name_len == 17 && strncasecmp(name, "Transfer-Encoding", 17) == 0) {
		f->encodings++;
		if (value_len != 7 || strncasecmp(value, "chunked", 7) != 0)
			return refuse(msg, msg_len, "Transfer-Encoding must be 'chunked' alone%s", "");
	}
	return 0;
}

int wl_http_framing_verdict(const struct wl_http_framing *f, char *msg, size_t msg_len)
{
	if (f->lengths > 1)
		return refuse(msg, msg_len, "the request has %s Content-Length headers; one is allowed", "several");
	if (f->encodings > 1)
		return refuse(msg, msg_len, "the request has several Transfer-Encoding headers%s", "");
	if (f->lengths && f->encodings)
		return refuse(msg, msg_len, "the request has both Content-Length and Transfer-Encoding%s", "");
	if (f->http11 && f->hosts != 1)
		return refuse(msg, msg_len, "an HTTP/1.1 request needs %s Host header", "exactly one");
	return 0;
}

