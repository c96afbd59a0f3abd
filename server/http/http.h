/* server/http/: the HTTP plumbing of warplab-server, which knows nothing of
 * runs. A request and its response as a handler sees them (response.h); the
 * gate in front of libmicrohttpd that checks each request head and keeps
 * the connection limits (gate.h, http_head.h); the daemon that reads bodies
 * and sends and counts responses (daemon.h, metrics.h); content negotiation
 * and conditional requests (negotiate.h, conditional.h); bodies kept in
 * memory and answered as static files are (body_cache.h, cacheable.h); the
 * dashboard's files (static_files.h); endless Server-Sent Events bodies
 * (event_stream.h); bearer tokens for writes (auth.h). It includes common/
 * only: server/api/ and the top of server/ stand on it. */
#ifndef WL_HTTP_H
#define WL_HTTP_H

/* ---- a request and its response ---- */
#include "response.h"

/* ---- connections: the gate, the head's framing, the daemon ---- */
#include "daemon.h"
#include "gate.h"
#include "http_head.h"

/* ---- representations: negotiation, validators, kept bodies, files ---- */
#include "body_cache.h"
#include "cacheable.h"
#include "conditional.h"
#include "negotiate.h"
#include "static_files.h"

/* ---- endless bodies ---- */
#include "event_stream.h"

/* ---- who may write, and what was served ---- */
#include "auth.h"
#include "metrics.h"

#endif
