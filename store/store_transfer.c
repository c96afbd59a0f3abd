/* A whole store as a stream of records: what `warplab-store copy` moves from
 * a SQLite file to PostgreSQL (or back), and what `export` writes as JSON
 * lines for backups; store_import.c reads them back. Each record is
 * {"table": NAME, "row": {column: value, ...}}, tables in an order that keeps
 * every reference valid (runners before their devices and runs, runs before
 * their results), ids and change numbers as stored. */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_db.h"
#include "store_transfer.h"

/* The tables as of the latest migration (store_schema.c); a new column there
 * is a new line here. */
const struct table store_tables[] = {
	{ "runners", "id", MERGE_NEW_ID, {
		  { "id", COL_RUNNER_ID }, { "host", COL_TEXT }, { "pid", COL_INT }, { "version", COL_TEXT },
		  { "started_at", COL_TEXT }, { "last_seen", COL_TEXT }, { "stopped_at", COL_TEXT },
		  { NULL, 0 } } },
	{ "devices", "id", MERGE_ONCE, {
		  { "id", COL_TEXT }, { "runner_id", COL_RUNNER_ID }, { "ordinal", COL_INT }, { "type", COL_TEXT },
		  { "info", COL_TEXT }, { NULL, 0 } } },
	{ "sources", "hash", MERGE_ONCE, {
		  { "hash", COL_TEXT }, { "name", COL_TEXT }, { "text", COL_TEXT }, { NULL, 0 } } },
	{ "runs", "id", MERGE_NEW_ID, {
		  { "id", COL_RUN_ID }, { "experiment", COL_TEXT }, { "label", COL_TEXT }, { "status", COL_TEXT },
		  { "request", COL_TEXT }, { "device_req", COL_TEXT }, { "device_id", COL_TEXT },
		  { "device", COL_TEXT }, { "total", COL_INT }, { "done", COL_INT },
		  { "created_at", COL_TEXT }, { "started_at", COL_TEXT }, { "finished_at", COL_TEXT },
		  { "error", COL_TEXT }, { "runner_id", COL_RUNNER_ID }, { "attempts", COL_INT },
		  { "requeues", COL_INT }, { "cancel_requested", COL_INT }, { "source_hash", COL_TEXT },
		  { "runner_version", COL_TEXT }, { "clocks", COL_TEXT }, { "flush_bytes", COL_INT },
		  { "budget", COL_TEXT }, { "change_seq", COL_CHANGE }, { "explain", COL_TEXT },
		  { "explained_at", COL_TEXT }, { "explain_ms", COL_REAL }, { "language", COL_TEXT },
		  { "shared", COL_INT }, { "device_model", COL_TEXT }, } },
	{ "results", "run_id, seq", MERGE_ADD, {
		  { "run_id", COL_RUN_ID }, { "seq", COL_INT }, { "variant", COL_TEXT }, { "params", COL_TEXT },
		  { "median_ms", COL_REAL }, { "min_ms", COL_REAL }, { "max_ms", COL_REAL },
		  { "reps", COL_INT }, { "bytes", COL_REAL }, { "ops", COL_REAL }, { "verified", COL_INT },
		  { "error", COL_TEXT }, { "note", COL_TEXT }, { "extra", COL_TEXT },
		  { "ci_low_ms", COL_REAL }, { "ci_high_ms", COL_REAL }, { "spread", COL_REAL },
		  { "stopped", COL_TEXT }, { "discarded", COL_INT }, { "samples", COL_SAMPLES },
		  { "energy", COL_TEXT }, { "runner_id", COL_RUNNER_ID }, { "device_id", COL_TEXT },
		  { NULL, 0 } } },
	{ "traces", "run_id, variant, params", MERGE_ADD, {
		  { "run_id", COL_RUN_ID }, { "variant", COL_TEXT }, { "params", COL_TEXT },
		  { "figures", COL_TEXT }, { NULL, 0 } } },
	{ "builds", "device, driver, source_hash, options", MERGE_ONCE, {
		  { "device", COL_TEXT }, { "driver", COL_TEXT }, { "source_hash", COL_TEXT },
		  { "options", COL_TEXT }, { "log", COL_TEXT }, { "ptx", COL_TEXT }, { NULL, 0 } } },
	{ "run_builds", "run_id, variant, options", MERGE_ADD, {
		  { "run_id", COL_RUN_ID }, { "variant", COL_TEXT }, { "options", COL_TEXT },
		  { "device", COL_TEXT }, { "driver", COL_TEXT }, { "source_hash", COL_TEXT },
		  { "kernel", COL_TEXT }, { NULL, 0 } } },
};

/* Each table's SELECT, built once: the statement cache keys on the text's
 * address, which must stay put. */
static char select_sql[NTABLES][1024];

size_t store_table_ncols(const struct table *t)
{
	size_t n = 0;

	while (n < MAX_COLUMNS && t->cols[n].name)
		n++;
	return n;
}

static void build_sql(void)
{
	for (size_t i = 0; i < NTABLES; i++) {
		const struct table *t = &store_tables[i];
		size_t n = store_table_ncols(t), s = 0;

		if (select_sql[i][0])
			continue;
		s += (size_t)snprintf(select_sql[i] + s, sizeof(select_sql[i]) - s, "SELECT ");
		for (size_t c = 0; c < n; c++)
			s += (size_t)snprintf(select_sql[i] + s, sizeof(select_sql[i]) - s, "%s%s", c ? ", " : "",
					      t->cols[c].name);
		snprintf(select_sql[i] + s, sizeof(select_sql[i]) - s, " FROM %s ORDER BY %s", t->name, t->order);
	}
}

/* The column's value in the current row as JSON. */
static json_t *column_value(struct wl_db_stmt *s, int c, enum col_kind kind)
{
	if (wl_db_col_null(s, c))
		return json_null();
	switch (kind) {
	case COL_INT:
	case COL_RUN_ID:
	case COL_RUNNER_ID:
	case COL_CHANGE:
		return json_integer(wl_db_col_int64(s, c));
	case COL_REAL:
		return json_real(wl_db_col_double(s, c));
	case COL_TEXT:
		return store_col_text(s, c);
	case COL_SAMPLES: {
		size_t bytes = 0;
		const unsigned char *p = wl_db_col_blob(s, c, &bytes);
		json_t *list = json_array();

		for (size_t i = 0; list && p && i + sizeof(float) <= bytes; i += sizeof(float)) {
			float v;

			memcpy(&v, p + i, sizeof(v));
			json_array_append_new(list, json_real((double)v));
		}
		return list ? list : json_null();
	}
	}
	return json_null();
}

int wl_store_each_row(struct wl_store *st, wl_store_row_fn fn, void *ctx, struct wl_error *err)
{
	build_sql();
	/* One snapshot, so the records agree with each other. */
	if (store_begin_read(st, err) < 0)
		return -1;
	for (size_t i = 0; i < NTABLES; i++) {
		const struct table *t = &store_tables[i];
		struct wl_db_stmt *s = store_stmt(st, select_sql[i], err);
		size_t n = store_table_ncols(t);
		int rc;

		if (!s)
			goto fail;
		while ((rc = wl_db_step(s)) == WL_DB_ROW) {
			json_t *row = json_object(), *record;
			int stop;

			for (size_t c = 0; row && c < n; c++)
				json_object_set_new(row, t->cols[c].name, column_value(s, (int)c, t->cols[c].kind));
			record = row ? json_pack("{s:s, s:o}", "table", t->name, "row", row) : NULL;
			if (!record) {
				wl_db_reset(s);
				wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
				goto fail;
			}
			stop = fn(ctx, record, err);
			json_decref(record);
			if (stop < 0) {
				wl_db_reset(s);
				goto fail;
			}
		}
		if (rc == WL_DB_ERROR) {
			store_fail(st, err, "read the store");
			wl_db_reset(s);
			goto fail;
		}
		wl_db_reset(s);
	}
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

