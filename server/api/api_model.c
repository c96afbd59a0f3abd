/* GET /api/model/accuracy: how right the model has been, per device and per
 * family, over all runs or a window of their ends — its query read and
 * checked here, the figures the analysis's (analysis.h, "the model's
 * record"). The read scores what the window's ledger still lacks first, for
 * a bounded time, and says how many runs are still to come rather than
 * making its client wait for them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "api.h"
#include "store.h"

/* What a window's end may be, for the messages. */
#define TIME_ALLOWED "an RFC 3339 time such as 2026-11-28T09:30:00Z or 2026-11-28T10:30:00.250+01:00"

/* The digits at s, exactly n of them, into *v; -1 where there are not. */
static int digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

static int days_in(int year, int month)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return month == 2 && leap ? 29 : days[month - 1];
}

/* An RFC 3339 date-time (its 'T' and 'Z' in either case, fractions of any
 * length, an offset or Z) as the store keeps times: UTC with milliseconds,
 * "2026-11-28T08:30:00.250Z", into out. A space where the offset's '+'
 * belongs is taken for it: a query string's '+' reads as a space unless it
 * is sent as %2B. -1 where text is not one. */
static int rfc3339_utc(const char *text, char *out, size_t len)
{
	struct tm tm = { 0 };
	int y, mo, d, h, mi, sec, oh = 0, om = 0, sign = 0, ms = 0, scale = 100;
	const char *p = text;
	time_t t;

	if (strlen(text) < 20 || digits(p, 4, &y) < 0 || p[4] != '-' || digits(p + 5, 2, &mo) < 0 || p[7] != '-' ||
	    digits(p + 8, 2, &d) < 0 || (p[10] != 'T' && p[10] != 't') || digits(p + 11, 2, &h) < 0 ||
	    p[13] != ':' || digits(p + 14, 2, &mi) < 0 || p[16] != ':' || digits(p + 17, 2, &sec) < 0)
		return -1;
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in(y, mo) || h > 23 || mi > 59 || sec > 60)
		return -1;
	p += 19;
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -1;
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			ms += scale * (*p - '0');
	}
	if ((*p == 'Z' || *p == 'z') && p[1] == '\0') {
		sign = 0;
	} else if ((*p == '+' || *p == ' ' || *p == '-') && strlen(p) == 6 && digits(p + 1, 2, &oh) == 0 &&
		   p[3] == ':' && digits(p + 4, 2, &om) == 0 && oh <= 23 && om <= 59) {
		sign = *p == '-' ? -1 : 1;
	} else {
		return -1;
	}
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	/* A leap second reads as the last millisecond of its minute. */
	tm.tm_min = mi;
	tm.tm_sec = sec == 60 ? 59 : sec;
	if (sec == 60)
		ms = 999;
	t = timegm(&tm) - sign * (oh * 3600 + om * 60);
	if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 > 9999)
		return -1;
	/* Each field within its digits (checked above), as the compiler can
	 * see. */
	snprintf(out, len, "%04u-%02u-%02uT%02u:%02u:%02u.%03uZ", (unsigned)(tm.tm_year + 1900) % 10000u,
		 (unsigned)(tm.tm_mon + 1) % 100u, (unsigned)tm.tm_mday % 100u, (unsigned)tm.tm_hour % 100u,
		 (unsigned)tm.tm_min % 100u, (unsigned)tm.tm_sec % 100u, (unsigned)ms % 1000u);
	return 0;
}

/* A device id: what the runner names devices with. */
static int is_device_id(const char *s)
{
	return *s && strlen(s) <= 128 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789._-") == strlen(s);
}

/* The query into *w (times normalised into since and until); -1 with the
 * 400 in resp naming the parameter at fault. */
static int read_window(const struct wl_request *req, struct wl_ledger_window *w, char *since, char *until,
		       size_t len, struct wl_response *resp)
{
	const char *names[2] = { "since", "until" };
	char *outs[2] = { since, until };

	memset(w, 0, sizeof(*w));
	for (int i = 0; i < 2; i++) {
		const char *v = req->arg(req->ctx, names[i]);

		if (!v)
			continue;
		if (rfc3339_utc(v, outs[i], len) < 0) {
			wl_response_error(resp, 400, "invalid_field", names[i], "%s: '%.64s' is not allowed (%s)",
					  names[i], v, TIME_ALLOWED);
			return -1;
		}
		if (i == 0)
			w->since = since;
		else
			w->until = until;
	}
	if (w->since && w->until && strcmp(w->until, w->since) <= 0) {
		wl_response_error(resp, 400, "invalid_field", "until",
				  "until: '%s' is not after since '%s' (the window is since <= end < until)", w->until,
				  w->since);
		return -1;
	}
	w->device = req->arg(req->ctx, "device");
	if (w->device && !is_device_id(w->device)) {
		wl_response_error(resp, 400, "invalid_field", "device",
				  "device: '%.64s' is not allowed (a device id of a-z, 0-9, '.', '_' and '-', as GET "
				  "/api/devices lists them)", w->device);
		return -1;
	}
	return 0;
}

void wl_api_model_accuracy(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			   struct wl_response *resp)
{
	struct wl_ledger_window w;
	struct wl_store *st = NULL;
	struct wl_error err;
	char since[40], until[40];
	json_t *body;

	(void)at;
	if (read_window(req, &w, since, until, sizeof(since), resp) < 0)
		return;
	if (wl_store_pool_get(srv->pool, &st, &err) < 0) {
		wl_response_from_error(resp, &err);
		return;
	}
	wl_error_clear(&err);
	if (wl_model_accuracy(srv->catalog, st, &w, &srv->write_lock, &body, &err) < 0)
		wl_response_from_error(resp, &err);
	else
		wl_response_json(resp, 200, body);
	wl_store_pool_put(srv->pool, st);
}
