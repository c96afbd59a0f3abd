/* Whether a request head's framing is sound: what the gate (gate.h) checks
 * before libmicrohttpd reads a byte, kept apart from the sockets so the unit
 * tests and the fuzzers call it directly. */
#ifndef WL_HTTP_HEAD_H
#define WL_HTTP_HEAD_H

#include <stddef.h>

/* The verdict on one request head (the request line through the blank line
 * that ends the headers): 0 when it may go on, else 400 with what is wrong
 * in msg — a target with %00, a control character or a space; several or a
 * malformed Content-Length (1 to 18 digits); a Transfer-Encoding other than
 * "chunked", or beside a Content-Length; a folded or colon-less header line;
 * HTTP/1.1 without exactly one Host. */
int wl_http_head_check(const char *head, size_t len, char *msg, size_t msg_len);

/* The same rules, a piece at a time, for a request libmicrohttpd has already
 * read (the later requests of a kept-alive connection): the target as sent
 * (before %-decoding), then each header, then the verdict. Each returns 0 or
 * 400 with msg set. */
struct wl_http_framing {
	int http11;
	int hosts, lengths, encodings;
};
int wl_http_target_check(const char *target, size_t len, char *msg, size_t msg_len);
int wl_http_framing_add(struct wl_http_framing *f, const char *name, size_t name_len, const char *value,
			size_t value_len, char *msg, size_t msg_len);
int wl_http_framing_verdict(const struct wl_http_framing *f, char *msg, size_t msg_len);

#endif
