/* Content negotiation: /runs and /runs/{id} answer a script's JSON and a
 * browser's page from one address, by the Accept header; bodies go
 * gzip-compressed to clients whose Accept-Encoding takes it. */
#ifndef WL_NEGOTIATE_H
#define WL_NEGOTIATE_H

/* Whether an Accept header (NULL: none) asks for JSON rather than HTML: JSON
 * is named (application/json, or any application type) with a quality above
 * zero and not below that of HTML (text/html, or any text type). Any type at
 * all, no header, or a browser's header all mean the page. */
int wl_accepts_json(const char *accept);

/* Whether an Accept-Encoding header (NULL: none) takes gzip: named, or "*",
 * with a quality above zero, the named one deciding when both are there. */
int wl_accepts_gzip(const char *accept_encoding);

#endif
