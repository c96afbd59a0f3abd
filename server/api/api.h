/* server/api/: warplab-server's API and pages, one file per part of them —
 * runs (api_runs), the compare table (api_compare), the compiler's account
 * (api_compiler), an estimate (api_estimate), live streams (api_events and
 * their hub, events), kernel sources (api_sources), a pasted source's
 * kernels and a draft experiment over them (api_scan), the catalog, devices
 * and health (api_info), the model's record (api_model), /metrics
 * (api_metrics), the pages that negotiate
 * (api_pages) — with what a run request must pass (run_check) and the store
 * handles they share (store_pool). A handler reads the store, asks
 * analysis/ what the results say, and fills a response (server/http/). The
 * route table (server/routes.c) says which handler answers which method
 * and path, and which of them need a write token: a handler is called
 * authorised, its placeholders parsed. It includes server/http/, analysis/,
 * model/, catalog/, store/ and common/, never the top of server/. */
#ifndef WL_API_H
#define WL_API_H

#include <pthread.h>

#include "auth.h"
#include "body_cache.h"
#include "catalog.h"
#include "metrics.h"
#include "response.h"
#include "source.h"
#include "static_files.h"
#include "store_pool.h"

struct wl_events;

struct wl_server_config {
	char *listen, *db, *www, *catalog, *token_file;
	int allow_anonymous_writes;
	long max_body;			/* bytes of a request body */
	long queue_limit;		/* queued runs before 429 */
	long max_measurements;		/* per run; 0: the catalog's limit */
	long max_connections, per_ip_connections, connection_timeout;
	long heartbeat;			/* seconds after which a silent runner is offline */
	int no_custom_kernels;		/* refuse requests that bring their own kernels */
	long response_cache_mb;		/* bytes of finished bodies kept in memory, MiB */
	long stream_heartbeat;		/* seconds an idle event stream waits for a comment */
};

/* What the handlers share: made by wl_server_init (server/server.h). */
struct wl_server {
	const struct wl_server_config *cfg;
	struct wl_catalog *catalog;
	char *catalog_json;		/* the body of GET /api/experiments, built once */
	struct wl_source *families;	/* each experiment's kernel source as found at start,
					 * in catalog order; hashed as the runner hashes it */
	struct wl_store_pool *pool;
	struct wl_tokens tokens;	/* none: writes need no token */
	struct wl_http_counters counters;	/* responses sent, for /metrics */
	/* The server's writers take turns here rather than in SQLite's busy
	 * handler, which sleeps and retries and so lets one writer lose for
	 * seconds under load. */
	pthread_mutex_t write_lock;
	/* Bodies of finished runs and compressed dashboard files (cacheable.h). */
	struct wl_body_cache *bodies;
	struct wl_www www;		/* the dashboard's folder, opened once */
	/* The live streams' watcher (events.h). */
	struct wl_events *events;
};

/* What a route's placeholders matched in the request's path. */
struct wl_path_args {
	long long id;			/* {id}: a run id */
	char experiment[65];		/* {experiment}: an experiment's id */
	char variant[65];		/* {variant}: a variant's id */
	const char *page;		/* {page}: the segment as sent */
};

/* A handler: fill resp for req (what srv holds, what the path matched). A
 * failure is a response too (the API's JSON error); nothing is left
 * behind but what the store committed. */
typedef void wl_handler(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
			struct wl_response *resp);

/* ---- runs (api_runs.c) ---- */
wl_handler wl_api_create_run;	/* POST /api/runs: checked (run_check.h), queued, 201 */
wl_handler wl_api_list_runs;	/* GET /api/runs: newest first, filters, keyset paging */
wl_handler wl_api_get_run;	/* GET /api/runs/{id}: the run with every derived figure */
wl_handler wl_api_run_csv;	/* GET /api/runs/{id}/results.csv */
wl_handler wl_api_run_space_csv;	/* GET /api/runs/{id}/space.csv */
wl_handler wl_api_run_samples;	/* GET /api/runs/{id}/samples */
wl_handler wl_api_cancel_run;	/* POST /api/runs/{id}/cancel */

/* ---- the rest of the API ---- */
wl_handler wl_api_estimate_run;	/* POST /api/runs/estimate (api_estimate.c) */
wl_handler wl_api_compare;	/* GET /api/compare?runs= (api_compare.c) */
wl_handler wl_api_run_compiler;	/* GET /api/runs/{id}/compiler (api_compiler.c) */
wl_handler wl_api_run_sources;	/* GET /api/runs/{id}/sources (api_sources.c) */
wl_handler wl_api_variant_source;	/* GET /api/experiments/{experiment}/variants/{variant}/source */
wl_handler wl_api_scan_source;	/* POST /api/sources/scan (api_scan.c) */
wl_handler wl_api_run_events;	/* GET /api/runs/{id}/events (api_events.c) */
wl_handler wl_api_events;	/* GET /api/events */
wl_handler wl_api_experiments;	/* GET /api/experiments (api_info.c) */
wl_handler wl_api_devices;	/* GET /api/devices */
wl_handler wl_api_health;	/* GET /api/health */
wl_handler wl_api_model_accuracy;	/* GET /api/model/accuracy (api_model.c) */
wl_handler wl_api_metrics;	/* GET /metrics (api_metrics.c) */

/* ---- the pages that negotiate (api_pages.c) ---- */
wl_handler wl_page_runs;	/* /runs: the runs page, or the list as JSON when asked */
wl_handler wl_page_run;		/* /runs/{page}: the run's page, or its JSON when asked */

/* A run id in a path: 1 to 18 digits, no sign, no leading zero. 0 with *id
 * set, or -1 (*id untouched). */
int wl_parse_run_id(const char *s, size_t len, long long *id);

/* The 404 of a path that names no run, text being what it names instead. */
void wl_api_no_run(const char *text, struct wl_response *resp);

/* ---- the families' kernel sources (api_sources.c) ---- */

/* Read every family's kernel source and add each variant's signature to
 * the catalog's JSON; fails naming a source that cannot be read or a
 * variant whose kernel it does not define. What was read is freed by
 * wl_family_sources_free, after a failure too. */
int wl_family_sources_load(struct wl_server *srv, json_t *catalog_json, struct wl_error *err);
void wl_family_sources_free(struct wl_server *srv);

#endif
