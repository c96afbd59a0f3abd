/* Reading a store's records back (store_transfer.c writes them): into an
 * empty store every record as it is, ids and change numbers kept, so every
 * run keeps its URL (a restore); into one that holds runs, beside them (a
 * merge): each imported run and runner gets a new id from the store, every
 * record that names one is pointed at it (id_map.h), each run takes a new
 * change number, and a device, source or build already there is kept once,
 * so nothing there is overwritten and nothing imported is lost. One write
 * transaction: a bad record leaves the store as it was. */
#include "store.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "id_map.h"
#include "store_db.h"
#include "store_schema.h"
#include "store_transfer.h"
#include "wakeup.h"

/* Each table's INSERT as a restore does it (every column as given) and as a
 * merge does it, built once: the statement cache keys on the text's address,
 * which must stay put. */
static char insert_sql[NTABLES][1024], merge_sql[NTABLES][1024];

/* Append to the statement text buf at *at (every table's fits in 1024). */
__attribute__((format(printf, 3, 4)))
static void put(char buf[1024], size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= 1024)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, 1024 - *at, fmt, ap);
	va_end(ap);
	*at += n > 0 ? (size_t)n : 0;
}

static void build_table_sql(size_t i)
{
	const struct table *t = &store_tables[i];
	/* A merge leaves a record's own id out: the store gives the new one. */
	size_t n = store_table_ncols(t), first = t->merge == MERGE_NEW_ID, w = 0, m = 0;

	put(insert_sql[i], &w, "INSERT INTO %s (", t->name);
	put(merge_sql[i], &m, "INSERT INTO %s (", t->name);
	for (size_t c = 0; c < n; c++) {
		put(insert_sql[i], &w, "%s%s", c ? ", " : "", t->cols[c].name);
		if (c >= first)
			put(merge_sql[i], &m, "%s%s", c > first ? ", " : "", t->cols[c].name);
	}
	put(insert_sql[i], &w, ") VALUES (");
	put(merge_sql[i], &m, ") VALUES (");
	for (size_t c = 0; c < n; c++) {
		put(insert_sql[i], &w, "%s?%zu", c ? ", " : "", c + 1);
		if (c >= first)
			put(merge_sql[i], &m, "%s?%zu", c > first ? ", " : "", c - first + 1);
	}
	put(insert_sql[i], &w, ")");
	put(merge_sql[i], &m, ")");
	if (t->merge == MERGE_NEW_ID)
		put(merge_sql[i], &m, " RETURNING %s", t->cols[0].name);
	else if (t->merge == MERGE_ONCE)
		put(merge_sql[i], &m, " ON CONFLICT (%s) DO NOTHING", t->order);
}

static void build_sql(void)
{
	for (size_t i = 0; i < NTABLES; i++)
		if (!insert_sql[i][0])
			build_table_sql(i);
}

struct wl_store_import {
	struct wl_store *st;
	int merging;
	struct wl_id_map runs, runners;	/* a merge's ids: the records' to the store's */
	struct wl_store_import_summary sum;
};

static const char SQL_HOLDS[] = "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM runners)";

static void import_free(struct wl_store_import *im)
{
	if (!im)
		return;
	wl_id_map_free(&im->runs);
	wl_id_map_free(&im->runners);
	free(im);
}

int wl_store_import_begin(struct wl_store *st, int merge, struct wl_store_import **out,
			  struct wl_error *err)
{
	struct wl_store_import *im = calloc(1, sizeof(*im));
	struct wl_db_stmt *s;
	long long runs, runners;

	if (!im) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	im->st = st;
	build_sql();
	if (store_begin(st, err) < 0) {
		free(im);
		return -1;
	}
	/* PostgreSQL's triggers skip counting and announcing while this
	 * transaction imports; import_end counts once. */
	if (wl_db_kind(st->db) == WL_DB_POSTGRES &&
	    wl_db_exec(st->db, "SET LOCAL warplab.importing = 'on'", err) < 0)
		goto fail;
	s = store_stmt(st, SQL_HOLDS, err);
	if (!s)
		goto fail;
	if (wl_db_step(s) != WL_DB_ROW) {
		store_fail(st, err, "count what the store holds");
		wl_db_reset(s);
		goto fail;
	}
	runs = wl_db_col_int64(s, 0);
	runners = wl_db_col_int64(s, 1);
	wl_db_reset(s);
	if (runs + runners > 0 && !merge) {
		wl_error_set(err, WL_ERR_CONFLICT,
			     "the target store is not empty (%lld runs and runners): import only into a new store",
			     runs + runners);
		goto fail;
	}
	/* Into an empty store a merge is a restore: the ids are free to keep. */
	im->merging = runs + runners > 0;
	im->sum.merged = im->merging;
	im->sum.runs_before = runs;
	*out = im;
	return 0;
fail:
	store_rollback(st);
	free(im);
	return -1;
}

/* v as an error message shows it, cut to fit buf. */
static const char *shown(const json_t *v, char *buf, size_t len)
{
	char *text = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;

	snprintf(buf, len, "%s", !v ? "nothing" : text ? text : "?");
	if (text && strlen(text) >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	free(text);
	return buf;
}

static int bad_value(const struct column *col, const json_t *v, const char *allowed, struct wl_error *err)
{
	char got[48];

	wl_error_field(err, WL_ERR_INVALID_FIELD, col->name, "column %s: not %s (got %s)", col->name, allowed,
		       shown(v, got, sizeof(got)));
	return -1;
}

/* Bind the record's value v of column col to parameter i; samples become the
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
	case COL_RUN_ID:
	case COL_RUNNER_ID:
	case COL_CHANGE:
		if (!json_is_integer(v))
			return bad_value(col, v, "a number", err);
		wl_db_bind_int64(s, i, json_integer_value(v));
		return 0;
	case COL_REAL:
		if (!json_is_number(v))
			return bad_value(col, v, "a number", err);
		wl_db_bind_double(s, i, json_number_value(v));
		return 0;
	case COL_TEXT:
		if (!json_is_string(v))
			return bad_value(col, v, "a string", err);
		wl_db_bind_text(s, i, json_string_value(v));
		return 0;
	case COL_SAMPLES: {
		size_t n = json_array_size(v);

		if (!json_is_array(v))
			return bad_value(col, v, "a list of numbers", err);
		for (size_t k = 0; k < n; k++)
			if (!json_is_number(json_array_get(v, k)))
				return bad_value(col, json_array_get(v, k), "a list of numbers", err);
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
	return bad_value(col, v, "of a known kind", err);
}

/* The table the record names, and its row; -1 with err naming what is
 * allowed when the record is not one of the store's. */
static int record_table(const json_t *record, const struct table **out, const json_t **row,
			struct wl_error *err)
{
	const char *name = json_string_value(json_object_get(record, "table"));
	const char *key;
	json_t *v;
	char names[160];
	size_t i, at = 0, n;

	*row = json_object_get(record, "row");
	for (i = 0; i < NTABLES && (!name || strcmp(store_tables[i].name, name) != 0); i++)
		;
	if (!name || i == NTABLES || !json_is_object(*row)) {
		for (size_t k = 0; k < NTABLES; k++)
			at += (size_t)snprintf(names + at, at < sizeof(names) ? sizeof(names) - at : 0, "%s%s",
					       k ? ", " : "", store_tables[k].name);
		wl_error_field(err, WL_ERR_INVALID_FIELD, "table",
			       "a record is {\"table\": one of %s, \"row\": {column: value, ...}}; got table %s%s",
			       names, name ? name : "(none)", name && i < NTABLES ? " without a row" : "");
		return -1;
	}
	n = store_table_ncols(&store_tables[i]);
	json_object_foreach((json_t *)*row, key, v) {
		size_t c;

		for (c = 0; c < n && strcmp(store_tables[i].cols[c].name, key) != 0; c++)
			;
		if (c == n) {
			wl_error_field(err, WL_ERR_INVALID_FIELD, key, "table %s has no column %s", name, key);
			return -1;
		}
	}
	*out = &store_tables[i];
	return 0;
}

/* Note an imported run: its id in the records and in the store. */
static void count_run(struct wl_store_import_summary *sum, long long old_id, long long new_id)
{
	if (sum->runs == 0) {
		sum->first_id = sum->last_id = new_id;
		sum->first_old = sum->last_old = old_id;
		sum->in_order = 1;
	}
	/* Ids are given rising, so the order holds while the records' rise. */
	sum->in_order = sum->in_order && old_id >= sum->last_old && new_id >= sum->last_id;
	sum->first_id = new_id < sum->first_id ? new_id : sum->first_id;
	sum->last_id = new_id > sum->last_id ? new_id : sum->last_id;
	sum->first_old = old_id < sum->first_old ? old_id : sum->first_old;
	sum->last_old = old_id > sum->last_old ? old_id : sum->last_old;
	sum->runs++;
}

/* A restore: every column as the record gives it. */
static int restore_row(struct wl_store_import *im, const struct table *t, const json_t *row,
		       struct wl_error *err)
{
	size_t i = (size_t)(t - store_tables), n = store_table_ncols(t);
	float *blobs[MAX_COLUMNS] = { 0 };
	struct wl_db_stmt *s = store_stmt(im->st, insert_sql[i], err);
	int rc = -1;

	if (!s)
		return -1;
	for (size_t c = 0; c < n; c++)
		if (bind_value(s, (int)c + 1, &t->cols[c], json_object_get(row, t->cols[c].name), &blobs[c],
			       err) < 0)
			goto out;
	if (wl_db_step(s) == WL_DB_ERROR) {
		store_fail(im->st, err, t->name);
		goto out;
	}
	if (t->cols[0].kind == COL_RUN_ID && json_is_integer(json_object_get(row, "id")))
		count_run(&im->sum, json_integer_value(json_object_get(row, "id")),
			  json_integer_value(json_object_get(row, "id")));
	rc = 0;
out:
	wl_db_reset(s);
	for (size_t c = 0; c < n; c++)
		free(blobs[c]);
	return rc;
}

/* The map of the numbering column kind names (a run's ids, or a runner's). */
static struct wl_id_map *map_of(struct wl_store_import *im, enum col_kind kind)
{
	assert(kind == COL_RUN_ID || kind == COL_RUNNER_ID);
	return kind == COL_RUN_ID ? &im->runs : &im->runners;
}

static const char *numbering(enum col_kind kind)
{
	return kind == COL_RUN_ID ? "run" : "runner";
}

/* The record's own id (column 0 of a MERGE_NEW_ID table) into *own: a
 * number no record of this import had before. */
static int own_id(struct wl_store_import *im, const struct table *t, const json_t *row, long long *own,
		  struct wl_error *err)
{
	const struct column *col = &t->cols[0];
	const json_t *v = json_object_get(row, col->name);
	long long seen;
	char got[48];

	if (!json_is_integer(v)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, col->name,
			       "column %s: each %s needs its id, a number, for the records that name it (got %s)",
			       col->name, numbering(col->kind), shown(v, got, sizeof(got)));
		return -1;
	}
	*own = json_integer_value(v);
	if (wl_id_map_get(map_of(im, col->kind), *own, &seen)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, col->name,
			       "column %s: %s %lld is in this import twice (each %s once)", col->name,
			       numbering(col->kind), *own, numbering(col->kind));
		return -1;
	}
	return 0;
}

/* The store's id for the id v a record names in column col: 0 and *to set,
 * or -1 with err naming the column and the value. */
static int remapped(struct wl_store_import *im, const struct column *col, const json_t *v, long long *to,
		    struct wl_error *err)
{
	const char *what = numbering(col->kind);

	if (!json_is_integer(v))
		return bad_value(col, v, "a number", err);
	if (!wl_id_map_get(map_of(im, col->kind), json_integer_value(v), to)) {
		wl_error_field(err, WL_ERR_INVALID_FIELD, col->name,
			       "column %s: %s %lld is not among the %ss this import has read so far"
			       " (a %s's record comes before the records that name it)",
			       col->name, what, (long long)json_integer_value(v), what, what);
		return -1;
	}
	return 0;
}

/* A runner is one process on one host: the same host, pid and start is the
 * same runner, whatever id it had where the records come from. */
static const char SQL_SAME_RUNNER[] =
	"SELECT id FROM runners WHERE host = ?1 AND pid = ?2 AND started_at = ?3 ORDER BY id LIMIT 1";

/* 1 and *id when the runner row describes is in the store already, 0 when
 * not (or when the row is malformed, which its insert then says), -1 with
 * err set when the store cannot tell. */
static int known_runner(struct wl_store_import *im, const json_t *row, long long *id, struct wl_error *err)
{
	const json_t *host = json_object_get(row, "host"), *pid = json_object_get(row, "pid");
	const json_t *started = json_object_get(row, "started_at");
	struct wl_db_stmt *s;
	int rc;

	if (!json_is_string(host) || !json_is_integer(pid) || !json_is_string(started))
		return 0;
	s = store_stmt(im->st, SQL_SAME_RUNNER, err);
	if (!s)
		return -1;
	wl_db_bind_text(s, 1, json_string_value(host));
	wl_db_bind_int64(s, 2, json_integer_value(pid));
	wl_db_bind_text(s, 3, json_string_value(started));
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW)
		*id = wl_db_col_int64(s, 0);
	else if (rc == WL_DB_ERROR)
		store_fail(im->st, err, "look for the runner");
	wl_db_reset(s);
	return rc == WL_DB_ERROR ? -1 : rc == WL_DB_ROW;
}

/* Where a MERGE_ONCE table counts the records it kept. */
static long long *kept_count(struct wl_store_import_summary *sum, const struct table *t)
{
	assert(t->merge == MERGE_ONCE);
	return strcmp(t->name, "devices") == 0 ? &sum->kept_devices
	       : strcmp(t->name, "sources") == 0 ? &sum->kept_sources : &sum->kept_builds;
}

/* Bind the merge's INSERT of t (merge_sql) from row: ids remapped, the change
 * number left for the store's trigger to give (0), the rest as given. */
static int bind_merged(struct wl_store_import *im, struct wl_db_stmt *s, const struct table *t,
		       const json_t *row, float **blobs, struct wl_error *err)
{
	size_t n = store_table_ncols(t), first = t->merge == MERGE_NEW_ID;

	for (size_t c = first; c < n; c++) {
		const struct column *col = &t->cols[c];
		const json_t *v = json_object_get(row, col->name);
		int param = (int)(c - first) + 1;
		long long id;

		if ((col->kind == COL_RUN_ID || col->kind == COL_RUNNER_ID) && v && !json_is_null(v)) {
			if (remapped(im, col, v, &id, err) < 0)
				return -1;
			wl_db_bind_int64(s, param, id);
		} else if (col->kind == COL_CHANGE) {
			wl_db_bind_int64(s, param, 0);
		} else if (bind_value(s, param, col, v, &blobs[c], err) < 0) {
			return -1;
		}
	}
	return 0;
}

/* The merge's INSERT of row into t; *id is the new id the store gave a
 * MERGE_NEW_ID record. */
static int insert_merged(struct wl_store_import *im, const struct table *t, const json_t *row,
			 long long *id, struct wl_error *err)
{
	size_t n = store_table_ncols(t);
	float *blobs[MAX_COLUMNS] = { 0 };
	struct wl_db_stmt *s = store_stmt(im->st, merge_sql[t - store_tables], err);
	int rc = -1, step;

	if (!s)
		return -1;
	if (bind_merged(im, s, t, row, blobs, err) < 0)
		goto out;
	step = wl_db_step(s);
	if (step == WL_DB_ERROR || (t->merge == MERGE_NEW_ID && step != WL_DB_ROW)) {
		store_fail(im->st, err, t->name);
		goto out;
	}
	if (t->merge == MERGE_NEW_ID)
		*id = wl_db_col_int64(s, 0);
	else if (t->merge == MERGE_ONCE && wl_db_changes(im->st->db) == 0)
		(*kept_count(&im->sum, t))++;
	rc = 0;
out:
	wl_db_reset(s);
	for (size_t c = 0; c < n; c++)
		free(blobs[c]);
	return rc;
}

/* A merge: the record added beside what the store holds (merge_rule), and
 * a new id mapped from the one the record had. */
static int merge_row(struct wl_store_import *im, const struct table *t, const json_t *row,
		     struct wl_error *err)
{
	long long own = 0, id = 0;
	int known = 0;

	if (t->merge == MERGE_NEW_ID && own_id(im, t, row, &own, err) < 0)
		return -1;
	if (t->cols[0].kind == COL_RUNNER_ID && (known = known_runner(im, row, &id, err)) < 0)
		return -1;
	if (known)
		im->sum.kept_runners++;
	else if (insert_merged(im, t, row, &id, err) < 0)
		return -1;
	if (t->merge != MERGE_NEW_ID)
		return 0;
	if (wl_id_map_put(map_of(im, t->cols[0].kind), own, id) != 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (t->cols[0].kind == COL_RUN_ID)
		count_run(&im->sum, own, id);
	return 0;
}

int wl_store_import_row(struct wl_store_import *im, const json_t *record, struct wl_error *err)
{
	const struct table *t;
	const json_t *row;

	if (record_table(record, &t, &row, err) < 0)
		return -1;
	return im->merging ? merge_row(im, t, row, err) : restore_row(im, t, row, err);
}

/* PostgreSQL's identity columns do not see ids given explicitly: move them
 * past the largest, so the next run gets the next id (SQLite does this
 * itself). */
static const char SQL_PG_NEXT_IDS[] =
	"SELECT setval(pg_get_serial_sequence('runs', 'id'), coalesce(max(id), 0) + 1, false) FROM runs;"
	"SELECT setval(pg_get_serial_sequence('runners', 'id'), coalesce(max(id), 0) + 1, false) FROM runners";

/* A merge adds runs to a store that servers may be showing: tell their
 * watchers at commit, as the trigger would have for each run (SQLite's
 * connection does so itself once runs changed). */
static const char SQL_PG_ANNOUNCE[] = "SELECT pg_notify('warplab_" WL_WAKE_WATCHERS "', '')";

int wl_store_import_end(struct wl_store_import *im, struct wl_store_import_summary *sum,
			struct wl_error *err)
{
	struct wl_store *st = im->st;
	int pg = wl_db_kind(st->db) == WL_DB_POSTGRES, rc;

	/* Runs came in finished: count them as a whole. */
	if ((pg && wl_db_exec(st->db, SQL_PG_NEXT_IDS, err) < 0) ||
	    wl_db_exec(st->db, pg ? store_count_totals.postgres : store_count_totals.sqlite, err) < 0 ||
	    (pg && im->merging && wl_db_exec(st->db, SQL_PG_ANNOUNCE, err) < 0)) {
		store_rollback(st);
		import_free(im);
		return -1;
	}
	rc = store_commit(st, err);
	if (rc == 0 && sum)
		*sum = im->sum;
	import_free(im);
	return rc;
}

void wl_store_import_abort(struct wl_store_import *im)
{
	if (!im)
		return;
	store_rollback(im->st);
	import_free(im);
}
