/* The live streams, GET /api/runs/{id}/events and GET /api/events (what they
 * carry: events.h). Here the request is checked and the stream opened; the
 * event hub fills it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "events.h"
#include "store.h"

#define EVENT_TYPE "text/event-stream; charset=utf-8"

/* The id a reconnecting client last saw: the Last-Event-ID header (what a
 * browser's EventSource sends), else the last_event_id query argument (for a
 * page that continues from the JSON it already has). NULL for none. */
static const char *last_event_id(const struct wl_request *req, const char **field)
{
	const char *v = req->header(req->ctx, "Last-Event-ID");

	*field = "Last-Event-ID";
	if (v && *v)
		return v;
	*field = "last_event_id";
	v = req->arg(req->ctx, "last_event_id");
	return v && *v ? v : NULL;
}

static void open_stream(struct wl_server *srv, const struct wl_request *req,
			const struct wl_stream_cursor *cursor, struct wl_response *resp)
{
	struct wl_error err;

	resp->cache_control = "no-cache";
	if (strcmp(req->method, "HEAD") == 0) {
		wl_response_text(resp, 200, EVENT_TYPE, "", 0);
		return;
	}
	if (!srv->events) {
		wl_response_error(resp, 503, "unavailable", NULL, "live updates are not running");
		return;
	}
	if (wl_events_subscribe(srv->events, cursor, &resp->stream, &err) < 0) {
		wl_response_from_error(resp, &err);
		return;
	}
	resp->status = 200;
	resp->content_type = EVENT_TYPE;
}

void wl_api_run_events(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		       struct wl_response *resp)
{
	struct wl_stream_cursor cursor = { .run_id = at->id, .epoch = -1 };
	const char *field, *text = last_event_id(req, &field);
	struct wl_store *st = NULL;
	struct wl_error err;
	json_t *run = NULL;

	if (text && wl_parse_run_event_id(text, &cursor.epoch, &cursor.count) < 0) {
		wl_response_error(resp, 400, "invalid_field", field,
				  "%s: '%.40s' is not an event id of a run's stream: expected E.C, the run's requeue count and the results seen (e.g. 0.12)",
				  field, text);
		return;
	}
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 ||
	    wl_store_get_run(st, at->id, 0, &run, &err) < 0) {
		wl_response_from_error(resp, &err);
		wl_store_pool_put(srv->pool, st);
		return;
	}
	json_decref(run);
	wl_store_pool_put(srv->pool, st);
	open_stream(srv, req, &cursor, resp);
}

void wl_api_events(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		   struct wl_response *resp)
{
	struct wl_stream_cursor cursor = { .change = -1 };
	const char *field, *text = last_event_id(req, &field);

	(void)at;
	if (text) {
		char *end;
		long long v = strtoll(text, &end, 10);

		if (*text < '0' || *text > '9' || *end || v < 0 || v > (1LL << 53)) {
			wl_response_error(resp, 400, "invalid_field", field,
					  "%s: '%.40s' is not an event id of the status stream: expected a change number (a non-negative integer)",
					  field, text);
			return;
		}
		cursor.change = v;
	}
	open_stream(srv, req, &cursor, resp);
}
