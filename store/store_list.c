/* Runs listed: newest first with keyset paging and indexed filters, and the
 * change feed the server's event watchers follow. */
#include "store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_db.h"

/* The columns of a run's summary, as the list and the change feed give it. */
#define SUMMARY_COLUMNS \
	"r.id, r.experiment, r.label, r.status, r.created_at, r.started_at, r.finished_at," \
	" r.device_id, COALESCE(r.device, d.info), r.done, r.total, r.error, r.change_seq" \
	" FROM runs r LEFT JOIN devices d ON d.id = r.device_id"

/* The list, one statement per set of filters given, so that each names only
 * its own columns and the engine walks the index of the filter ((status, id),
 * (experiment, id), (device_id, id)) rather than every run newest first: a
 * filter that matches few of a million runs costs a few rows, not a million.
 * (A "?2 IS NULL OR experiment = ?2" form cannot use an index.) A label of 3
 * characters or more is looked up in the trigram index of labels first; the
 * text test that follows keeps one meaning for both ways and both engines.
 * Indexed by LIST_* bits. */
#define LIST_EXPERIMENT 1
#define LIST_DEVICE 2
#define LIST_STATUS 4
#define LIST_LABEL 8
#define LIST_SQL(filters)                                                                 \
	"SELECT " SUMMARY_COLUMNS " WHERE r.id < ?1" filters                                \
	" AND (CAST(?6 AS TEXT) IS NULL OR {strpos}(lower(r.label), lower(?6)) > 0) ORDER BY r.id DESC LIMIT ?5"
#define LIST_SQL_BY(label)                                                                \
	LIST_SQL(label ""), LIST_SQL(label " AND r.experiment = ?2"),                       \
	LIST_SQL(label " AND r.device_id = ?3"),                                            \
	LIST_SQL(label " AND r.experiment = ?2 AND r.device_id = ?3"),                      \
	LIST_SQL(label " AND r.status = ?4"),                                               \
	LIST_SQL(label " AND r.experiment = ?2 AND r.status = ?4"),                         \
	LIST_SQL(label " AND r.device_id = ?3 AND r.status = ?4"),                          \
	LIST_SQL(label " AND r.experiment = ?2 AND r.device_id = ?3 AND r.status = ?4")
static const char *const SQL_LIST_RUNS[16] = {
	LIST_SQL_BY(""),
	LIST_SQL_BY(" AND {label_match}"),
};

/* Characters (not bytes) of UTF-8 text. */
static size_t utf8_chars(const char *t)
{
	size_t n = 0;

	for (; *t; t++)
		n += ((unsigned char)*t & 0xC0) != 0x80;
	return n;
}

/* The summary in the statement's current row (SUMMARY_COLUMNS), or NULL when
 * out of memory. */
static json_t *summary_row(struct wl_db_stmt *s)
{
	/* The device's name and type, from its stored description. */
	json_t *device = store_col_json(s, 8);
	json_t *row = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:o, s:O, s:O}, s:{s:I, s:I}, s:o}",
				"id", (json_int_t)wl_db_col_int64(s, 0), "experiment",
				store_col_text(s, 1), "label", store_col_text(s, 2), "status",
				store_col_text(s, 3), "created_at", store_col_text(s, 4),
				"started_at", store_col_text(s, 5), "finished_at",
				store_col_text(s, 6), "device", "id", store_col_text(s, 7), "name",
				json_object_get(device, "name") ? json_object_get(device, "name") : json_null(),
				"type",
				json_object_get(device, "type") ? json_object_get(device, "type") : json_null(),
				"progress", "done", (json_int_t)wl_db_col_int64(s, 9), "total",
				(json_int_t)wl_db_col_int64(s, 10), "error", store_col_text(s, 11));

	json_decref(device);
	if (row) {
		json_object_set_new(row, "url",
				    json_sprintf("/runs/%lld", (long long)wl_db_col_int64(s, 0)));
		json_object_set_new(row, "change", json_integer(wl_db_col_int64(s, 12)));
	}
	return row;
}

int wl_store_list_runs(struct wl_store *st, const struct wl_run_filter *f, json_t **runs,
		       int *more, struct wl_error *err)
{
	int which = (f->experiment ? LIST_EXPERIMENT : 0) | (f->device ? LIST_DEVICE : 0) |
		    (f->status ? LIST_STATUS : 0) | (f->label && utf8_chars(f->label) >= 3 ? LIST_LABEL : 0);
	struct wl_db_stmt *s = store_stmt(st, SQL_LIST_RUNS[which], err);
	json_t *list;
	long long n = 0;
	int rc;

	if (!s)
		return -1;
	list = json_array();
	if (!list) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	wl_db_bind_int64(s, 1, f->before > 0 ? f->before : INT64_MAX);
	wl_db_bind_text(s, 2, f->experiment);
	wl_db_bind_text(s, 3, f->device);
	wl_db_bind_text(s, 4, f->status);
	wl_db_bind_int64(s, 5, f->limit + 1);
	wl_db_bind_text(s, 6, f->label && f->label[0] ? f->label : NULL);
	*more = 0;
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		json_t *row;

		if (++n > f->limit) {
			*more = 1;
			break;
		}
		row = summary_row(s);
		if (!row || json_array_append_new(list, row) < 0) {
			rc = WL_DB_ERROR;
			break;
		}
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE && rc != WL_DB_ROW) {
		store_fail(st, err, "list runs");
		json_decref(list);
		return -1;
	}
	*runs = list;
	return 0;
}

static const char SQL_LAST_CHANGE[] = "SELECT coalesce(max(change_seq), 0) FROM runs";
static const char SQL_CHANGES[] =
	"SELECT " SUMMARY_COLUMNS " WHERE r.change_seq > ?1 ORDER BY r.change_seq LIMIT ?2";

int wl_store_changes(struct wl_store *st, long long after, long long limit, json_t **runs,
		     long long *last, struct wl_error *err)
{
	struct wl_db_stmt *s;
	json_t *list = NULL;
	int rc;

	/* One read transaction, so *last is no older than the runs read. */
	if (store_begin_read(st, err) < 0)
		return -1;
	s = store_stmt(st, SQL_LAST_CHANGE, err);
	if (!s)
		goto fail;
	if (wl_db_step(s) != WL_DB_ROW) {
		store_fail(st, err, "read the last change");
		wl_db_reset(s);
		goto fail;
	}
	*last = wl_db_col_int64(s, 0);
	wl_db_reset(s);
	list = json_array();
	if (!list) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	s = store_stmt(st, SQL_CHANGES, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, after);
	wl_db_bind_int64(s, 2, limit);
	while ((rc = wl_db_step(s)) == WL_DB_ROW) {
		json_t *row = summary_row(s);

		if (!row || json_array_append_new(list, row) < 0) {
			rc = WL_DB_ERROR;
			break;
		}
	}
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "read changed runs");
		goto fail;
	}
	store_commit(st, NULL);
	*runs = list;
	return 0;
fail:
	json_decref(list);
	store_rollback(st);
	return -1;
}
