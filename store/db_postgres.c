/* The PostgreSQL engine behind db.h (libpq): one connection per handle, named
 * server-side prepared statements, parameters sent as text (blobs as binary),
 * and a connection lost to the network made again at the next statement, so a
 * runner or server rides out a database restart. Writers take turns through a
 * transaction-wide advisory lock, as SQLite's writers do through its file lock;
 * commits that change a run are announced by the schema's own trigger
 * (NOTIFY), not here. */
#include "db_backend.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG_MAX_PARAMS 32

struct pg_conn {
	PGconn *pg;
	unsigned generation;	/* bumped whenever the connection is made again */
	unsigned next_name;
	long long changes;
	char sqlstate[6];
	char errmsg[512];
};

struct pg_stmt {
	struct wl_db_stmt base;
	struct pg_conn *conn;
	unsigned generation;
	char name[16];
	int nparams;
	const char *values[PG_MAX_PARAMS];
	int lengths[PG_MAX_PARAMS], formats[PG_MAX_PARAMS];
	char numbers[PG_MAX_PARAMS][32];
	PGresult *result;	/* after the first step */
	int row, nrows;
	unsigned char *blob;	/* the last bytea read, unescaped */
};

static const char *const pg_dialect[][2] = {
	{ "now", "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')" },
	{ "secs", "extract(epoch FROM CAST($ AS timestamptz))" },
	{ "strpos", "strpos" },
	{ "string_agg", "string_agg" },
	/* The same, which the trigram index on lower(label) (migration 8)
	 * answers; LIKE's wildcards in the text are escaped. */
	{ "label_match", "lower(r.label) LIKE '%' || replace(replace(replace("
			 "lower(?6), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'" },
	{ "run_cache", "(CASE WHEN CAST(r.request AS json)->>'cache' = 'cold' THEN 'cold' ELSE 'hot' END)" },
	/* Runners on several hosts claim at once: each skips the rows the
	 * others are taking. */
	{ "skip_locked", " FOR UPDATE SKIP LOCKED" },
	{ NULL, NULL },
};

static struct pg_stmt *P(struct wl_db_stmt *s)
{
	return (struct pg_stmt *)s;
}

static void remember_error(struct pg_conn *conn, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorMessage(res) : NULL;
	size_t n;

	snprintf(conn->sqlstate, sizeof(conn->sqlstate), "%s", state ? state : "08000");
	snprintf(conn->errmsg, sizeof(conn->errmsg), "%s",
		 msg && *msg ? msg : PQerrorMessage(conn->pg));
	n = strlen(conn->errmsg);
	while (n > 0 && (conn->errmsg[n - 1] == '\n' || conn->errmsg[n - 1] == ' '))
		conn->errmsg[--n] = '\0';
}

static void pg_fail(void *c, struct wl_error *err, const char *doing)
{
	struct pg_conn *conn = c;
	/* Classes 08 (connection), 40 (serialization, deadlock), 53 (resources),
	 * 57 (shutdown) and 55P03 (lock timeout) pass: the caller may retry. */
	int transient = PQstatus(conn->pg) != CONNECTION_OK || strncmp(conn->sqlstate, "08", 2) == 0 ||
			strncmp(conn->sqlstate, "40", 2) == 0 || strncmp(conn->sqlstate, "53", 2) == 0 ||
			strncmp(conn->sqlstate, "57", 2) == 0 || strcmp(conn->sqlstate, "55P03") == 0;

	wl_error_set(err, transient ? WL_ERR_UNAVAILABLE : WL_ERR_INTERNAL, "store: %s: %s", doing,
		     conn->errmsg[0] ? conn->errmsg : "no error recorded");
}

/* Make a lost connection again; 0 when it is usable. Statements prepared on
 * the old one are then stale (stmt_valid). */
static int ensure_connected(struct pg_conn *conn)
{
	if (PQstatus(conn->pg) == CONNECTION_OK)
		return 0;
	PQreset(conn->pg);
	conn->generation++;
	if (PQstatus(conn->pg) == CONNECTION_OK)
		return 0;
	remember_error(conn, NULL);
	return -1;
}

static void ignore_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static void pg_close(void *c)
{
	struct pg_conn *conn = c;

	if (!conn)
		return;
	PQfinish(conn->pg);
	free(conn);
}

static int pg_open(const char *target, void **out, struct wl_error *err)
{
	struct pg_conn *conn = calloc(1, sizeof(*conn));

	if (!conn) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	conn->pg = PQconnectdb(target);
	if (!conn->pg || PQstatus(conn->pg) != CONNECTION_OK) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", conn->pg ? PQerrorMessage(conn->pg) : "out of memory");
		msg[strcspn(msg, "\n")] = '\0';
		/* The target may hold a password: name the server, not the URI. */
		wl_error_set(err, WL_ERR_UNAVAILABLE, "store: cannot connect to PostgreSQL: %s", msg);
		pg_close(conn);
		return -1;
	}
	/* "already exists, skipping" and the like are not the user's concern. */
	PQsetNoticeProcessor(conn->pg, ignore_notice, NULL);
	*out = conn;
	return 0;
}

/* The highest $N in sql (outside quotes): how many parameters it takes; and
 * in used[N-1], whether sql names $N. */
static int count_params(const char *sql, int used[PG_MAX_PARAMS])
{
	int quoted = 0, most = 0;

	memset(used, 0, PG_MAX_PARAMS * sizeof(*used));
	for (const char *p = sql; *p; p++) {
		if (*p == '\'')
			quoted = !quoted;
		else if (!quoted && *p == '$' && p[1] >= '1' && p[1] <= '9') {
			int n = atoi(p + 1);

			most = n > most ? n : most;
			if (n <= PG_MAX_PARAMS)
				used[n - 1] = 1;
		}
	}
	return most;
}

static struct wl_db_stmt *pg_prepare(void *c, const char *sql, struct wl_error *err)
{
	struct pg_conn *conn = c;
	struct pg_stmt *s = calloc(1, sizeof(*s));
	Oid types[PG_MAX_PARAMS];
	int used[PG_MAX_PARAMS];
	PGresult *res;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	s->base.ops = &wl_db_postgres_ops;
	s->conn = conn;
	s->nparams = count_params(sql, used);
	if (s->nparams > PG_MAX_PARAMS) {
		wl_error_set(err, WL_ERR_INTERNAL, "store: a statement takes %d parameters (at most %d)",
			     s->nparams, PG_MAX_PARAMS);
		free(s);
		return NULL;
	}
	if (ensure_connected(conn) < 0) {
		pg_fail(conn, err, "connect");
		free(s);
		return NULL;
	}
	s->generation = conn->generation;
	snprintf(s->name, sizeof(s->name), "wl%u", conn->next_name++);
	/* The server infers each parameter's type from where it is used; one a
	 * statement skips (the runs list binds every filter, uses some) is text. */
	for (int i = 0; i < PG_MAX_PARAMS; i++)
		types[i] = used[i] ? 0 : 25;	/* 25: text */
	res = PQprepare(conn->pg, s->name, sql, s->nparams, types);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		remember_error(conn, res);
		PQclear(res);
		pg_fail(conn, err, "prepare");
		free(s);
		return NULL;
	}
	PQclear(res);
	return &s->base;
}

static void clear_rows(struct pg_stmt *s)
{
	PQclear(s->result);
	s->result = NULL;
	PQfreemem(s->blob);
	s->blob = NULL;
	s->row = s->nrows = 0;
}

static void pg_finalize(struct wl_db_stmt *st)
{
	struct pg_stmt *s = P(st);
	char sql[48];

	if (!s)
		return;
	clear_rows(s);
	if (s->generation == s->conn->generation && PQstatus(s->conn->pg) == CONNECTION_OK &&
	    PQtransactionStatus(s->conn->pg) == PQTRANS_IDLE) {
		snprintf(sql, sizeof(sql), "DEALLOCATE %s", s->name);
		PQclear(PQexec(s->conn->pg, sql));
	}
	free(s);
}

static int pg_stmt_valid(void *c, struct wl_db_stmt *s)
{
	struct pg_conn *conn = c;

	ensure_connected(conn);
	return P(s)->generation == conn->generation;
}

static void set_param(struct pg_stmt *s, int i, const char *value, int length, int format)
{
	if (i < 1 || i > s->nparams)
		return;
	s->values[i - 1] = value;
	s->lengths[i - 1] = length;
	s->formats[i - 1] = format;
}

static void pg_bind_int64(struct wl_db_stmt *st, int i, long long v)
{
	struct pg_stmt *s = P(st);

	if (i < 1 || i > s->nparams)
		return;
	snprintf(s->numbers[i - 1], sizeof(s->numbers[i - 1]), "%lld", v);
	set_param(s, i, s->numbers[i - 1], 0, 0);
}

static void pg_bind_double(struct wl_db_stmt *st, int i, double v)
{
	struct pg_stmt *s = P(st);

	if (i < 1 || i > s->nparams)
		return;
	snprintf(s->numbers[i - 1], sizeof(s->numbers[i - 1]), "%.17g", v);
	set_param(s, i, s->numbers[i - 1], 0, 0);
}

static void pg_bind_text(struct wl_db_stmt *s, int i, const char *v)
{
	set_param(P(s), i, v, 0, 0);
}

static void pg_bind_blob(struct wl_db_stmt *s, int i, const void *p, size_t n)
{
	set_param(P(s), i, p, (int)n, 1);
}

static int pg_step(struct wl_db_stmt *st)
{
	struct pg_stmt *s = P(st);
	ExecStatusType status;

	if (!s->result) {
		s->result = PQexecPrepared(s->conn->pg, s->name, s->nparams, s->values, s->lengths,
					   s->formats, 0);
		status = PQresultStatus(s->result);
		if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
			remember_error(s->conn, s->result);
			clear_rows(s);
			return WL_DB_ERROR;
		}
		s->conn->changes = atoll(PQcmdTuples(s->result));
		s->nrows = PQntuples(s->result);
		s->row = -1;
	}
	PQfreemem(s->blob);
	s->blob = NULL;
	if (s->row + 1 >= s->nrows) {
		s->row = s->nrows;
		return WL_DB_DONE;
	}
	s->row++;
	return WL_DB_ROW;
}

static void pg_reset(struct wl_db_stmt *st)
{
	struct pg_stmt *s = P(st);

	clear_rows(s);
	for (int i = 0; i < s->nparams; i++) {
		s->values[i] = NULL;
		s->lengths[i] = s->formats[i] = 0;
	}
}

static int in_row(const struct pg_stmt *s, int col)
{
	return s->result && s->row >= 0 && s->row < s->nrows && col >= 0 && col < PQnfields(s->result);
}

static int pg_col_null(struct wl_db_stmt *st, int col)
{
	struct pg_stmt *s = P(st);

	return !in_row(s, col) || PQgetisnull(s->result, s->row, col);
}

static const char *pg_col_text(struct wl_db_stmt *st, int col)
{
	struct pg_stmt *s = P(st);

	return pg_col_null(st, col) ? NULL : PQgetvalue(s->result, s->row, col);
}

static long long pg_col_int64(struct wl_db_stmt *st, int col)
{
	const char *t = pg_col_text(st, col);

	if (!t)
		return 0;
	/* Conditions come back as booleans. */
	if (strcmp(t, "t") == 0 || strcmp(t, "f") == 0)
		return t[0] == 't';
	return strtoll(t, NULL, 10);
}

static double pg_col_double(struct wl_db_stmt *st, int col)
{
	const char *t = pg_col_text(st, col);

	return t ? strtod(t, NULL) : 0;
}

static const void *pg_col_blob(struct wl_db_stmt *st, int col, size_t *n)
{
	struct pg_stmt *s = P(st);
	const char *t = pg_col_text(st, col);

	*n = 0;
	if (!t)
		return NULL;
	PQfreemem(s->blob);
	s->blob = PQunescapeBytea((const unsigned char *)t, n);
	if (!s->blob)
		*n = 0;
	return s->blob;
}

static long long pg_changes(void *c)
{
	return ((struct pg_conn *)c)->changes;
}

static int pg_exec(void *c, const char *sql, struct wl_error *err)
{
	struct pg_conn *conn = c;
	PGresult *res;
	ExecStatusType status;

	if (ensure_connected(conn) < 0) {
		pg_fail(conn, err, "connect");
		return -1;
	}
	res = PQexec(conn->pg, sql);
	status = PQresultStatus(res);
	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
		remember_error(conn, res);
		PQclear(res);
		pg_fail(conn, err, "exec");
		return -1;
	}
	PQclear(res);
	return 0;
}

static int pg_in_transaction(void *c)
{
	PGTransactionStatusType t = PQtransactionStatus(((struct pg_conn *)c)->pg);

	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
}

/* One row, one column of sql, as an int (0 when it has no row). */
static int query_int(struct pg_conn *conn, const char *sql, int *value, struct wl_error *err)
{
	PGresult *res;

	if (ensure_connected(conn) < 0) {
		pg_fail(conn, err, "connect");
		return -1;
	}
	res = PQexec(conn->pg, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		remember_error(conn, res);
		PQclear(res);
		pg_fail(conn, err, "read schema version");
		return -1;
	}
	*value = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0) ? atoi(PQgetvalue(res, 0, 0)) : 0;
	PQclear(res);
	return 0;
}

/* The version lives in a one-row table of the schema (SQLite keeps it in the
 * file's header). */
static int pg_schema_version(void *c, int *version, struct wl_error *err)
{
	int exists;

	*version = 0;
	if (query_int(c, "SELECT (to_regclass('warplab_schema') IS NOT NULL)::int", &exists, err) < 0)
		return -1;
	return exists ? query_int(c, "SELECT max(version) FROM warplab_schema", version, err) : 0;
}

static int pg_set_schema_version(void *c, int version, struct wl_error *err)
{
	char sql[200];

	snprintf(sql, sizeof(sql),
		 "CREATE TABLE IF NOT EXISTS warplab_schema (version integer NOT NULL);"
		 " DELETE FROM warplab_schema; INSERT INTO warplab_schema VALUES (%d)", version);
	return pg_exec(c, sql, err);
}

const struct wl_db_ops wl_db_postgres_ops = {
	.kind = WL_DB_POSTGRES,
	.open = pg_open,
	.close = pg_close,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.stmt_valid = pg_stmt_valid,
	.bind_int64 = pg_bind_int64,
	.bind_double = pg_bind_double,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.step = pg_step,
	.reset = pg_reset,
	.col_null = pg_col_null,
	.col_text = pg_col_text,
	.col_int64 = pg_col_int64,
	.col_double = pg_col_double,
	.col_blob = pg_col_blob,
	.changes = pg_changes,
	.exec = pg_exec,
	.in_transaction = pg_in_transaction,
	.fail = pg_fail,
	.schema_version = pg_schema_version,
	.set_schema_version = pg_set_schema_version,
	/* One lock per schema, so two labs in one database do not wait on each
	 * other. */
	.begin_write = "BEGIN; SELECT pg_advisory_xact_lock(7761, hashtext(current_schema()))",
	/* READ COMMITTED would give each statement its own snapshot. */
	.begin_read = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
	.dialect = pg_dialect,
};
