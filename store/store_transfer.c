/* A whole store as a stream of records, and back: what `warplab-store copy`
 * moves from a SQLite file to PostgreSQL (or back), and what `export` and
 * `import` write and read as JSON lines for backups. Each record is
 * {"table": NAME, "row": {column: value, ...}}, tables in an order that keeps
 * every reference valid (runners before their devices and runs, runs before
 * their results), ids and change numbers kept, so every run keeps its URL. */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A column's kind: integer, real, text, or float32 samples (a blob, written
 * as an array of numbers). */
enum col_kind { COL_INT, COL_REAL, COL_TEXT, COL_SAMPLES };

struct column {
	const char *name;
	enum col_kind kind;
};

#define MAX_COLUMNS 24

struct table {
	const char *name;
	const char *order;	/* the key, for a stable order */
	struct column cols[MAX_COLUMNS];
};

/* The tables as of the latest migration (store_schema.c); a new column there
 * is a new line here. */
static const struct table tables[] = {
	{ "runners", "id", {
		  { "id", COL_INT }, { "host", COL_TEXT }, { "pid", COL_INT }, { "version", COL_TEXT },
		  { "started_at", COL_TEXT }, { "last_seen", COL_TEXT }, { "stopped_at", COL_TEXT },
		  { NULL, 0 } } },
	{ "devices", "id", {
		  { "id", COL_TEXT }, { "runner_id", COL_INT }, { "ordinal", COL_INT }, { "type", COL_TEXT },
		  { "info", COL_TEXT }, { NULL, 0 } } },
	{ "sources", "hash", {
		  { "hash", COL_TEXT }, { "name", COL_TEXT }, { "text", COL_TEXT }, { NULL, 0 } } },
	{ "runs", "id", {
		  { "id", COL_INT }, { "experiment", COL_TEXT }, { "label", COL_TEXT }, { "status", COL_TEXT },
		  { "request", COL_TEXT }, { "device_req", COL_TEXT }, { "device_id", COL_TEXT },
		  { "device", COL_TEXT }, { "total", COL_INT }, { "done", COL_INT },
		  { "created_at", COL_TEXT }, { "started_at", COL_TEXT }, { "finished_at", COL_TEXT },
		  { "error", COL_TEXT }, { "runner_id", COL_INT }, { "attempts", COL_INT },
		  { "requeues", COL_INT }, { "cancel_requested", COL_INT }, { "source_hash", COL_TEXT },
		  { "runner_version", COL_TEXT }, { "clocks", COL_TEXT }, { "flush_bytes", COL_INT },
		  { "budget", COL_TEXT }, { "change_seq", COL_INT }, } },
	{ "results", "run_id, seq", {
		  { "run_id", COL_INT }, { "seq", COL_INT }, { "variant", COL_TEXT }, { "params", COL_TEXT },
		  { "median_ms", COL_REAL }, { "min_ms", COL_REAL }, { "max_ms", COL_REAL },
		  { "reps", COL_INT }, { "bytes", COL_REAL }, { "ops", COL_REAL }, { "verified", COL_INT },
		  { "error", COL_TEXT }, { "note", COL_TEXT }, { "extra", COL_TEXT },
		  { "ci_low_ms", COL_REAL }, { "ci_high_ms", COL_REAL }, { "spread", COL_REAL },
		  { "stopped", COL_TEXT }, { "discarded", COL_INT }, { "samples", COL_SAMPLES },
		  { NULL, 0 } } },
	{ "traces", "run_id, variant, params", {
		  { "run_id", COL_INT }, { "variant", COL_TEXT }, { "params", COL_TEXT },
		  { "figures", COL_TEXT }, { NULL, 0 } } },
	{ "builds", "device, driver, source_hash, options", {
		  { "device", COL_TEXT }, { "driver", COL_TEXT }, { "source_hash", COL_TEXT },
		  { "options", COL_TEXT }, { "log", COL_TEXT }, { "ptx", COL_TEXT }, { NULL, 0 } } },
	{ "run_builds", "run_id, variant, options", {
		  { "run_id", COL_INT }, { "variant", COL_TEXT }, { "options", COL_TEXT },
		  { "device", COL_TEXT }, { "driver", COL_TEXT }, { "source_hash", COL_TEXT },
		  { "kernel", COL_TEXT }, { NULL, 0 } } },
};

#define NTABLES (sizeof(tables) / sizeof(tables[0]))

/* Each table's SELECT and INSERT, built once: the statement cache keys on
 * the text's address, which must stay put. */
static char select_sql[NTABLES][1024], insert_sql[NTABLES][1024];

static size_t ncols(const struct table *t)
{
	size_t n = 0;

	while (n < MAX_COLUMNS && t->cols[n].name)
		n++;
	return n;
}

static void build_sql(void)
{
	for (size_t i = 0; i < NTABLES; i++) {
		const struct table *t = &tables[i];
		size_t n = ncols(t), s = 0, w = 0;

		if (select_sql[i][0])
			continue;
		s += (size_t)snprintf(select_sql[i] + s, sizeof(select_sql[i]) - s, "SELECT ");
		w += (size_t)snprintf(insert_sql[i] + w, sizeof(insert_sql[i]) - w, "INSERT INTO %s (", t->name);
		for (size_t c = 0; c < n; c++) {
			s += (size_t)snprintf(select_sql[i] + s, sizeof(select_sql[i]) - s, "%s%s", c ? ", " : "",
					      t->cols[c].name);
			w += (size_t)snprintf(insert_sql[i] + w, sizeof(insert_sql[i]) - w, "%s%s", c ? ", " : "",
					      t->cols[c].name);
		}
		snprintf(select_sql[i] + s, sizeof(select_sql[i]) - s, " FROM %s ORDER BY %s", t->name, t->order);
		w += (size_t)snprintf(insert_sql[i] + w, sizeof(insert_sql[i]) - w, ") VALUES (");
		for (size_t c = 0; c < n; c++)
			w += (size_t)snprintf(insert_sql[i] + w, sizeof(insert_sql[i]) - w, "%s?%zu", c ? ", " : "",
					      c + 1);
		snprintf(insert_sql[i] + w, sizeof(insert_sql[i]) - w, ")");
	}
}

/* The column's value in the current row as JSON. */
static json_t *column_value(struct wl_db_stmt *s, int c, enum col_kind kind)
{
	if (wl_db_col_null(s, c))
		return json_null();
	switch (kind) {
	case COL_INT:
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
		const struct table *t = &tables[i];
		struct wl_db_stmt *s = store_stmt(st, select_sql[i], err);
		size_t n = ncols(t);
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

static const char SQL_ANY_RUNS[] = "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM runners)";

int wl_store_import_begin(struct wl_store *st, struct wl_error *err)
{
	struct wl_db_stmt *s;
	long long rows;

	build_sql();
	if (store_begin(st, err) < 0)
		return -1;
	/* PostgreSQL's triggers skip counting and announcing while this
	 * transaction imports; import_end counts once. */
	if (wl_db_kind(st->db) == WL_DB_POSTGRES &&
	    wl_db_exec(st->db, "SET LOCAL warplab.importing = 'on'", err) < 0)
		goto fail;
	s = store_stmt(st, SQL_ANY_RUNS, err);
	if (!s)
		goto fail;
	if (wl_db_step(s) != WL_DB_ROW) {
		store_fail(st, err, "count what the store holds");
		wl_db_reset(s);
		goto fail;
	}
	rows = wl_db_col_int64(s, 0);
	wl_db_reset(s);
	if (rows > 0) {
		wl_error_set(err, WL_ERR_CONFLICT,
			     "the target store is not empty (%lld runs and runners): import only into a new store",
			     rows);
		goto fail;
	}
	return 0;
fail:
	store_rollback(st);
	return -1;
}

/* Bind the record's value of column c to parameter c + 1; samples become the
 * float32 bytes in *blob (the caller frees it after the step). */
static int bind_value(struct wl_db_stmt *s, int i, const struct column *col, const json_t *v,
		      float **blob, struct wl_error *err)
{
	if (!v || json_is_null(v)) {
		wl_db_bind_null(s, i);
		return 0;
	}
	switch (col->kind) {
	case COL_INT:
		if (!json_is_integer(v))
			break;
		wl_db_bind_int64(s, i, json_integer_value(v));
		return 0;
	case COL_REAL:
		if (!json_is_number(v))
			break;
		wl_db_bind_double(s, i, json_number_value(v));
		return 0;
	case COL_TEXT:
		if (!json_is_string(v))
			break;
		wl_db_bind_text(s, i, json_string_value(v));
		return 0;
	case COL_SAMPLES: {
		size_t n = json_array_size(v);

		if (!json_is_array(v))
			break;
		*blob = malloc(n ? n * sizeof(float) : 1);
		if (!*blob) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
		for (size_t k = 0; k < n; k++)
			(*blob)[k] = (float)json_number_value(json_array_get(v, k));
		wl_db_bind_blob(s, i, *blob, n * sizeof(float));
		return 0;
	}
	}
	wl_error_field(err, WL_ERR_INVALID_FIELD, col->name, "column %s: not a %s", col->name,
		       col->kind == COL_TEXT ? "string" : col->kind == COL_SAMPLES ? "list of numbers" : "number");
	return -1;
}

int wl_store_import_row(struct wl_store *st, const json_t *record, struct wl_error *err)
{
	const char *name = json_string_value(json_object_get(record, "table"));
	const json_t *row = json_object_get(record, "row");
	float *blobs[MAX_COLUMNS] = { 0 };
	struct wl_db_stmt *s;
	const char *key;
	json_t *v;
	size_t i, n;
	int rc = -1;

	for (i = 0; i < NTABLES && (!name || strcmp(tables[i].name, name) != 0); i++)
		;
	if (!name || i == NTABLES || !json_is_object(row)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, "table",
			       "a record is {\"table\": one of runners, devices, sources, runs, results, \"row\": {...}}; got table %s",
			       name ? name : "(none)");
		return -1;
	}
	n = ncols(&tables[i]);
	json_object_foreach((json_t *)row, key, v) {
		size_t c;

		for (c = 0; c < n && strcmp(tables[i].cols[c].name, key) != 0; c++)
			;
		if (c == n) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, key, "table %s has no column %s", name, key);
			return -1;
		}
	}
	s = store_stmt(st, insert_sql[i], err);
	if (!s)
		return -1;
	for (size_t c = 0; c < n; c++)
		if (bind_value(s, (int)c + 1, &tables[i].cols[c], json_object_get(row, tables[i].cols[c].name),
			       &blobs[c], err) < 0)
			goto out;
	if (wl_db_step(s) == WL_DB_ERROR) {
		store_fail(st, err, name);
		goto out;
	}
	rc = 0;
out:
	wl_db_reset(s);
	for (size_t c = 0; c < n; c++)
		free(blobs[c]);
	return rc;
}

/* PostgreSQL's identity columns do not see ids given explicitly: move them
 * past the largest, so the next run gets the next id (SQLite does this
 * itself). */
static const char SQL_PG_NEXT_IDS[] =
	"SELECT setval(pg_get_serial_sequence('runs', 'id'), coalesce(max(id), 0) + 1, false) FROM runs;"
	"SELECT setval(pg_get_serial_sequence('runners', 'id'), coalesce(max(id), 0) + 1, false) FROM runners";

int wl_store_import_end(struct wl_store *st, struct wl_error *err)
{
	int pg = wl_db_kind(st->db) == WL_DB_POSTGRES;

	/* Runs came in finished: count them as a whole. */
	if ((pg && wl_db_exec(st->db, SQL_PG_NEXT_IDS, err) < 0) ||
	    wl_db_exec(st->db, pg ? store_count_totals.postgres : store_count_totals.sqlite, err) < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err);
}

void wl_store_import_abort(struct wl_store *st)
{
	store_rollback(st);
}
