/* What makes a response cheap to send again: strong entity tags and
 * If-None-Match (RFC 9110, 8.8.3 and 13.1.2), and gzip content coding (whether
 * the client accepts it: negotiate.h). */
#ifndef WL_CONDITIONAL_H
#define WL_CONDITIONAL_H

#include <stddef.h>

/* The strong entity tag of len bytes at data, quoted: "\"<16 hex digits>\"",
 * with suffix (e.g. "-gz") before the closing quote. out holds 40 bytes. */
void wl_etag_of(const void *data, size_t len, const char *suffix, char *out, size_t out_len);

/* Whether an If-None-Match header (NULL: none) matches etag: "*", or one of
 * its comma-separated tags equal to etag, compared weakly (a W/ prefix is
 * ignored, as the RFC asks for this header). */
int wl_etag_matches(const char *if_none_match, const char *etag);

/* len bytes at data gzip-compressed into *out (malloc'd, caller frees).
 * Returns -1 when out of memory. */
int wl_gzip(const void *data, size_t len, char **out, size_t *out_len);

#endif
