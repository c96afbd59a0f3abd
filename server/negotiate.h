/* Content negotiation for the URLs people type: /runs and /runs/{id} answer a
 * script's JSON and a browser's page from one address, by the Accept header. */
#ifndef WL_NEGOTIATE_H
#define WL_NEGOTIATE_H

/* Whether an Accept header (NULL: none) asks for JSON rather than HTML: JSON
 * is named (application/json, or any application type) with a quality above
 * zero and not below that of HTML (text/html, or any text type). Any type at
 * all, no header, or a browser's header all mean the page. */
int wl_accepts_json(const char *accept);

#endif
