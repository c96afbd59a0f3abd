/* What the store_*.c files share and nothing else may use: the handle, the
 * schema's migrations, and helpers over the database connection (db.h). */
#ifndef WL_STORE_INTERNAL_H
#define WL_STORE_INTERNAL_H

#include "db.h"
#include "store.h"

struct wl_store {
	struct wl_db *db;
};

/* One numbered migration in each engine's words (store_schema.c). */
struct store_migration {
	const char *sqlite, *postgres;
};
extern const struct store_migration store_migrations[];
extern const int store_nmigrations;
/* Count the runs' totals (run_counts, run_durations) afresh, for a store
 * filled other than through the triggers that keep them (an import). */
extern const struct store_migration store_count_totals;

/* The cached statement for sql, reset and unbound; NULL with err set. */
struct wl_db_stmt *store_stmt(struct wl_store *st, const char *sql, struct wl_error *err);

/* Set err from the connection's last error, with what was being done. */
void store_fail(struct wl_store *st, struct wl_error *err, const char *doing);

/* Run the cached statement sql with ?1 = id and, where sql has them, ?2 = a and
 * ?3 = b (NULL binds NULL); it returns no rows. doing names it in errors. */
/* A queued run one of the runner's devices can take: ?1 its ids as
 * ",a,b," (store_device_list), ?2..?4 its choice for auto, gpu and cpu, ?5
 * the languages they run as ",opencl,cuda," (store_bind_devices); a run
 * without a language is OpenCL's. */
#define STORE_QUEUED_FOR                                                                      \
	"status = 'queued' AND ({strpos}(?1, ',' || device_id || ',') > 0"                     \
	"  OR (device_id IS NULL AND ((device_req = 'auto' AND CAST(?2 AS TEXT) IS NOT NULL)" \
	"   OR (device_req = 'gpu' AND CAST(?3 AS TEXT) IS NOT NULL)"                          \
	"   OR (device_req = 'cpu' AND CAST(?4 AS TEXT) IS NOT NULL))))"                       \
	"  AND {strpos}(?5, ',' || coalesce(language, 'opencl') || ',') > 0"

/* devs' ids as ",a,b," (the caller's to free); NULL with err when out of
 * memory. */
char *store_device_list(const struct wl_claim_devices *devs, struct wl_error *err);

/* Bind STORE_QUEUED_FOR's ?1..?5 on s: ids (from store_device_list, which
 * must outlive the statement's step) and devs' choices and languages. */
void store_bind_devices(struct wl_db_stmt *s, const char *ids, const struct wl_claim_devices *devs);

int store_step_id(struct wl_store *st, const char *sql, long long id, const char *a,
		  const char *b, const char *doing, struct wl_error *err);

/* The cached statement sql run with ?1 = id and stepped to its first row;
 * *out is that statement, for the caller to read and reset. -1 with
 * WL_ERR_NOT_FOUND ("run N does not exist") when there is no row, or the
 * store's error naming doing; the statement is reset then. */
int store_run_row(struct wl_store *st, const char *sql, long long id, const char *doing,
		  struct wl_db_stmt **out, struct wl_error *err);

/* Append run_id's traces ({"variant", "params", "figures"}) to out. */
int store_read_traces(struct wl_store *st, long long run_id, json_t *out, struct wl_error *err);

/* A write transaction (writers take turns), a read one (one snapshot), and
 * their end. */
int store_begin(struct wl_store *st, struct wl_error *err);
int store_begin_read(struct wl_store *st, struct wl_error *err);
int store_commit(struct wl_store *st, struct wl_error *err);
void store_rollback(struct wl_store *st);

/* Column helpers: text as a new JSON string or null; parse a JSON text column. */
json_t *store_col_text(struct wl_db_stmt *s, int col);
json_t *store_col_json(struct wl_db_stmt *s, int col);

#endif
