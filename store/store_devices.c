/* Runners and the devices they own: registration at runner start, heartbeats,
 * and the device and runner lists with their online state. */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "store_db.h"

/* A runner is online while it has not stopped and has checked in recently. */
#define ONLINE_SQL "(u.stopped_at IS NULL AND {secs:u.last_seen} > {secs:'now'} - ?1)"

static const char SQL_LIST_DEVICES[] =
	"SELECT d.info, " ONLINE_SQL ", u.last_seen, d.runner_id,"
	" (SELECT r.id FROM runs r WHERE r.status = 'running' AND r.device_id = d.id"
	"  ORDER BY r.id LIMIT 1), u.host FROM devices d"
	" JOIN runners u ON u.id = d.runner_id ORDER BY d.ordinal, d.id";

int wl_store_list_devices(struct wl_store *st, long long window_s, json_t **out,
			  struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_LIST_DEVICES, err);
	json_t *list;
	int rc;

	if (!s)
		return -1;
	list = json_array();
	wl_db_bind_int64(s, 1, window_s);
	while (list && (rc = wl_db_step(s)) == WL_DB_ROW) {
		json_t *dev = store_col_json(s, 0);

		if (!json_is_object(dev)) {
			json_decref(dev);
			continue;
		}
		json_object_set_new(dev, "online", json_boolean(wl_db_col_int64(s, 1)));
		json_object_set_new(dev, "last_seen", store_col_text(s, 2));
		json_object_set_new(dev, "runner", json_integer(wl_db_col_int64(s, 3)));
		json_object_set_new(dev, "host", store_col_text(s, 5));
		/* What it is doing: the run it executes, or idle (offline says
		 * nothing can be known). */
		json_object_set_new(dev, "running", wl_db_col_null(s, 4)
							   ? json_null()
							   : json_integer(wl_db_col_int64(s, 4)));
		json_object_set_new(dev, "state", json_string(!wl_db_col_int64(s, 1) ? "offline"
							      : wl_db_col_null(s, 4) ? "idle"
													  : "running"));
		json_array_append_new(list, dev);
	}
	wl_db_reset(s);
	if (!list || rc != WL_DB_DONE) {
		store_fail(st, err, "list devices");
		json_decref(list);
		return -1;
	}
	*out = list;
	return 0;
}

/* The comma-separated ids in column col as a JSON array. */
static json_t *id_list(struct wl_db_stmt *s, int col)
{
	const char *t = wl_db_col_text(s, col);
	json_t *ids = json_array();

	while (ids && t && *t) {
		size_t n = strcspn(t, ",");

		json_array_append_new(ids, json_stringn(t, n));
		t += n + (t[n] == ',');
	}
	return ids ? ids : json_null();
}

/* Runners that have not stopped, newest first, with their device ids. */
static const char SQL_LIST_RUNNERS[] =
	"SELECT u.id, u.host, u.pid, u.version, u.started_at, u.last_seen, " ONLINE_SQL ","
	" (SELECT {string_agg}(d.id, ',') FROM devices d WHERE d.runner_id = u.id),"
	" {secs:'now'} - {secs:u.last_seen}"
	" FROM runners u WHERE u.stopped_at IS NULL ORDER BY u.id DESC LIMIT 50";

int wl_store_list_runners(struct wl_store *st, long long window_s, json_t **out,
			  struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_LIST_RUNNERS, err);
	json_t *list;
	int rc;

	if (!s)
		return -1;
	list = json_array();
	wl_db_bind_int64(s, 1, window_s);
	while (list && (rc = wl_db_step(s)) == WL_DB_ROW) {
		json_t *r = json_pack("{s:I, s:o, s:I, s:o, s:o, s:o, s:b, s:o}", "id",
				      (json_int_t)wl_db_col_int64(s, 0), "host",
				      store_col_text(s, 1), "pid",
				      (json_int_t)wl_db_col_int64(s, 2), "version",
				      store_col_text(s, 3), "started_at", store_col_text(s, 4),
				      "last_seen", store_col_text(s, 5), "online",
				      wl_db_col_int64(s, 6), "devices", id_list(s, 7));

		if (r) {
			json_object_set_new(r, "last_seen_age_s", json_real(wl_db_col_double(s, 8)));
			json_array_append_new(list, r);
		}
	}
	wl_db_reset(s);
	if (!list || rc != WL_DB_DONE) {
		store_fail(st, err, "list runners");
		json_decref(list);
		return -1;
	}
	*out = list;
	return 0;
}

static const char SQL_INSERT_RUNNER[] =
	"INSERT INTO runners (host, pid, version, started_at, last_seen)"
	" VALUES (?1, ?2, ?3, {now}, {now}) RETURNING id";

int wl_store_register_runner(struct wl_store *st, const char *host, long long pid,
			     const char *version, long long *runner_id, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_INSERT_RUNNER, err);

	if (!s)
		return -1;
	wl_db_bind_text(s, 1, host);
	wl_db_bind_int64(s, 2, pid);
	wl_db_bind_text(s, 3, version);
	if (wl_db_step(s) != WL_DB_ROW) {
		store_fail(st, err, "register runner");
		wl_db_reset(s);
		return -1;
	}
	*runner_id = wl_db_col_int64(s, 0);
	wl_db_reset(s);
	return 0;
}

static const char SQL_HEARTBEAT[] = "UPDATE runners SET last_seen = {now} WHERE id = ?1";

int wl_store_heartbeat(struct wl_store *st, long long runner_id, struct wl_error *err)
{
	return store_step_id(st, SQL_HEARTBEAT, runner_id, NULL, NULL, "heartbeat", err);
}

static const char SQL_RUNNER_STOPPED[] =
	"UPDATE runners SET stopped_at = {now}, last_seen = {now} WHERE id = ?1";

int wl_store_runner_stopped(struct wl_store *st, long long runner_id, struct wl_error *err)
{
	return store_step_id(st, SQL_RUNNER_STOPPED, runner_id, NULL, NULL, "mark runner stopped", err);
}

static const char SQL_DEVICE_INFO[] = "SELECT info FROM devices WHERE id = ?1";

int wl_store_get_device_info(struct wl_store *st, const char *id, json_t **out, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_DEVICE_INFO, err);
	int rc;

	*out = NULL;
	if (!s)
		return -1;
	wl_db_bind_text(s, 1, id);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW)
		*out = store_col_json(s, 0);
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "read a device");
		return -1;
	}
	return 0;
}

static const char SQL_UPSERT_DEVICE[] =
	"INSERT INTO devices (id, runner_id, ordinal, type, info) VALUES (?1, ?2, ?3, ?4, ?5)"
	" ON CONFLICT (id) DO UPDATE SET runner_id = excluded.runner_id,"
	" ordinal = excluded.ordinal, type = excluded.type, info = excluded.info";

int wl_store_upsert_device(struct wl_store *st, long long runner_id, long long ordinal,
			   const json_t *info, struct wl_error *err)
{
	const char *id = json_string_value(json_object_get(info, "id"));
	const char *type = json_string_value(json_object_get(info, "type"));
	struct wl_db_stmt *s;
	char *text;
	int rc;

	if (!id || !type) {
		wl_error_set(err, WL_ERR_INTERNAL, "device info needs id and type");
		return -1;
	}
	s = store_stmt(st, SQL_UPSERT_DEVICE, err);
	if (!s)
		return -1;
	text = json_dumps(info, JSON_COMPACT);
	if (!text) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	wl_db_bind_text(s, 1, id);
	wl_db_bind_int64(s, 2, runner_id);
	wl_db_bind_int64(s, 3, ordinal);
	wl_db_bind_text(s, 4, type);
	wl_db_bind_text(s, 5, text);
	rc = wl_db_step(s);
	wl_db_reset(s);
	free(text);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "register device");
		return -1;
	}
	return 0;
}
