/* The runner's side of a run while it runs: claiming the oldest queued run
 * for its devices in an immediate transaction, recording its provenance,
 * clocks and time budget, and reading whether a client asked it to stop.
 * Its results are store_results.c's; its end store_finish.c's. */
#include "store_claim.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language.h"
#include "store_db.h"

void wl_claim_free(struct wl_claim *c)
{
	free(c->experiment);
	free(c->request_json);
	free(c->device_id);
	memset(c, 0, sizeof(*c));
}

/* A queued run one of the runner's devices can take: ?1 its ids as
 * ",a,b," (store_device_list), ?2..?4 its choice for auto, gpu and cpu, ?5
 * the languages they run as ",opencl,cuda," (bind_devices). A run stored
 * without a language is in the default one (language.h). */
#define QUEUED_FOR                                                                            \
	"status = 'queued' AND ({strpos}(?1, ',' || device_id || ',') > 0"                     \
	"  OR (device_id IS NULL AND ((device_req = 'auto' AND CAST(?2 AS TEXT) IS NOT NULL)" \
	"   OR (device_req = 'gpu' AND CAST(?3 AS TEXT) IS NOT NULL)"                          \
	"   OR (device_req = 'cpu' AND CAST(?4 AS TEXT) IS NOT NULL))))"                       \
	"  AND {strpos}(?5, ',' || coalesce(language, '" WL_LANG_DEFAULT_NAME "') || ',') > 0"

static const char SQL_NEXT_QUEUED[] =
	"SELECT id, experiment, request, device_id, device_req, attempts, shared FROM runs"
	" WHERE " QUEUED_FOR " ORDER BY id LIMIT 1{skip_locked}";
static const char SQL_ANY_QUEUED[] = "SELECT 1 FROM runs WHERE " QUEUED_FOR " LIMIT 1";

static const char SQL_MARK_RUNNING[] =
	"UPDATE runs SET status = 'running', runner_id = ?2, started_at = {now},"
	" device_id = ?3, device = (SELECT info FROM devices WHERE id = ?3), device_model = ?4,"
	" attempts = attempts + 1, done = 0, error = NULL WHERE id = ?1 AND status = 'queued'";

static char *dup_col(struct wl_db_stmt *s, int col)
{
	const char *t = wl_db_col_text(s, col);

	return t ? strdup(t) : NULL;
}

char *store_device_list(const struct wl_claim_devices *devs, struct wl_error *err)
{
	size_t len = 2;
	char *ids;

	/* Device ids are slugs, without commas. */
	for (size_t i = 0; i < devs->nids; i++)
		len += strlen(devs->ids[i]) + 1;
	if (!(ids = malloc(len))) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	strcpy(ids, ",");
	for (size_t i = 0; i < devs->nids; i++) {
		strcat(ids, devs->ids[i]);
		strcat(ids, ",");
	}
	return ids;
}

/* Bind QUEUED_FOR's ?1..?5 on s: ids (from store_device_list, which must
 * outlive the statement's step) and devs' choices and languages, where a
 * runner that names none runs the default language alone. */
static void bind_devices(struct wl_db_stmt *s, const char *ids, const struct wl_claim_devices *devs)
{
	wl_db_bind_text(s, 1, ids);
	wl_db_bind_text(s, 2, devs->auto_id);
	wl_db_bind_text(s, 3, devs->gpu_id);
	wl_db_bind_text(s, 4, devs->cpu_id);
	wl_db_bind_text(s, 5, devs->languages ? devs->languages : "," WL_LANG_DEFAULT_NAME ",");
}

int wl_store_run_waiting(struct wl_store *st, const struct wl_claim_devices *devs, int *waiting,
			 struct wl_error *err)
{
	char *ids = store_device_list(devs, err);
	struct wl_db_stmt *s = ids ? store_stmt(st, SQL_ANY_QUEUED, err) : NULL;
	int rc;

	*waiting = 0;
	if (!s) {
		free(ids);
		return -1;
	}
	bind_devices(s, ids, devs);
	rc = wl_db_step(s);
	wl_db_reset(s);
	free(ids);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "look for a queued run");
		return -1;
	}
	*waiting = rc == WL_DB_ROW;
	return 0;
}

int wl_store_claim_run(struct wl_store *st, long long runner_id,
		       const struct wl_claim_devices *devs, struct wl_claim *out,
		       struct wl_error *err)
{
	char *ids_text = NULL;
	struct wl_db_stmt *s;
	const char *device = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	/* The ids as ",a,b,". */
	if (!(ids_text = store_device_list(devs, err)))
		return -1;
	if (store_begin(st, err) < 0)
		goto fail;
	s = store_stmt(st, SQL_NEXT_QUEUED, err);
	if (!s)
		goto fail;
	bind_devices(s, ids_text, devs);
	rc = wl_db_step(s);
	if (rc == WL_DB_DONE) {
		wl_db_reset(s);
		store_rollback(st);
		free(ids_text);
		return 0;
	}
	if (rc != WL_DB_ROW) {
		store_fail(st, err, "find a queued run");
		wl_db_reset(s);
		goto fail;
	}
	out->id = wl_db_col_int64(s, 0);
	out->experiment = dup_col(s, 1);
	out->request_json = dup_col(s, 2);
	out->device_id = dup_col(s, 3);
	out->attempt = wl_db_col_int64(s, 5) + 1;
	out->shared = wl_db_col_int64(s, 6) != 0;
	if (!out->device_id) {
		const char *req = wl_db_col_text(s, 4);

		device = strcmp(req, "gpu") == 0 ? devs->gpu_id
			 : strcmp(req, "cpu") == 0 ? devs->cpu_id
						   : devs->auto_id;
		out->device_id = device ? strdup(device) : NULL;
	}
	wl_db_reset(s);
	if (!out->experiment || !out->request_json || !out->device_id) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto fail;
	}
	s = store_stmt(st, SQL_MARK_RUNNING, err);
	if (!s)
		goto fail;
	wl_db_bind_int64(s, 1, out->id);
	wl_db_bind_int64(s, 2, runner_id);
	wl_db_bind_text(s, 3, out->device_id);
	wl_db_bind_text(s, 4, devs->model);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "mark run running");
		goto fail;
	}
	if (store_commit(st, err) < 0)
		goto fail_nocommit;
	free(ids_text);
	return 0;
fail:
	store_rollback(st);
fail_nocommit:
	free(ids_text);
	wl_claim_free(out);
	return -1;
}

static const char SQL_CLOCKS[] = "UPDATE runs SET clocks = ?2, flush_bytes = ?3 WHERE id = ?1";

int wl_store_set_run_clocks(struct wl_store *st, long long run_id, const char *clocks_json,
			    long long flush_bytes, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_CLOCKS, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	wl_db_bind_text(s, 2, clocks_json);
	wl_db_bind_int64(s, 3, flush_bytes);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "record clocks");
		return -1;
	}
	return 0;
}

static const char SQL_BUDGET[] = "UPDATE runs SET budget = ?2 WHERE id = ?1";

int wl_store_set_run_budget(struct wl_store *st, long long run_id, const char *budget_json,
			    struct wl_error *err)
{
	return store_step_id(st, SQL_BUDGET, run_id, budget_json, NULL, "record the time budget", err);
}

static const char SQL_PROVENANCE[] =
	"UPDATE runs SET source_hash = ?2, runner_version = ?3 WHERE id = ?1";

int wl_store_set_run_provenance(struct wl_store *st, long long run_id, const char *source_hash,
				const char *runner_version, struct wl_error *err)
{
	return store_step_id(st, SQL_PROVENANCE, run_id, source_hash, runner_version,
			     "record provenance", err);
}

static const char SQL_CANCEL_REQUESTED[] = "SELECT cancel_requested FROM runs WHERE id = ?1";

int wl_store_cancel_requested(struct wl_store *st, long long run_id, int *requested,
			      struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_CANCEL_REQUESTED, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_int64(s, 1, run_id);
	rc = wl_db_step(s);
	*requested = rc == WL_DB_ROW && wl_db_col_int64(s, 0);
	wl_db_reset(s);
	if (rc != WL_DB_ROW && rc != WL_DB_DONE) {
		store_fail(st, err, "read cancel flag");
		return -1;
	}
	return 0;
}
