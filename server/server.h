/* The server's shared state and its request handlers. wl_server_handle() is the
 * one entry point: it routes a request to a handler and fills the response. It
 * never touches the network, so the daemon, the tests and the fuzzers all call
 * the same code. */
#ifndef WL_SERVER_H
#define WL_SERVER_H

#include <pthread.h>

#include "auth.h"
#include "catalog.h"
#include "source.h"
#include "response.h"
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



/* Requests served, by route and status, for /metrics. */
#define WL_METRIC_ROUTES 24
struct wl_http_counters {
	pthread_mutex_t lock;
	size_t n;
	struct {
		const char *route;
		unsigned status;
		unsigned long long count;
	} rows[WL_METRIC_ROUTES * 8];
};

struct wl_server {
	const struct wl_server_config *cfg;
	struct wl_catalog *catalog;
	char *catalog_json;		/* the body of GET /api/experiments, built once */
	struct wl_source *families;	/* each experiment's kernel source as found at start,
					 * in catalog order; hashed as the runner hashes it */
	struct wl_store_pool *pool;
	struct wl_tokens tokens;	/* none: writes need no token */
	int www_fd;			/* the www directory, opened once */
	struct wl_http_counters counters;
	/* The server's writers take turns here rather than in SQLite's busy
	 * handler, which sleeps and retries and so lets one writer lose for
	 * seconds under load. */
	pthread_mutex_t write_lock;
	/* Bodies of finished runs and compressed dashboard files (cacheable.c). */
	struct wl_body_cache *bodies;
	/* The live streams' watcher (events.h). */
	struct wl_events *events;
};

/* Prepare srv from cfg: catalog, store pool, tokens, www directory. On failure
 * returns -1 with a message for the operator. Free with wl_server_free(). */
int wl_server_init(struct wl_server *srv, const struct wl_server_config *cfg,
		   struct wl_error *err);
void wl_server_free(struct wl_server *srv);

/* Route req and fill resp (initialised by the caller with wl_response_init). */
void wl_server_handle(struct wl_server *srv, const struct wl_request *req,
		      struct wl_response *resp);

/* ---- responses that can be sent again cheaply (cacheable.c) ---- */

/* Answer with len bytes of data (status 200, type) as a representation with a
 * strong ETag: 304 when req's If-None-Match holds it, gzip-compressed when req
 * accepts gzip. key, for a body that never changes (a finished run's), keeps
 * both forms in srv->bodies and lets browsers and proxies keep them; NULL
 * means "revalidate every time". */
void wl_respond_cacheable(struct wl_server *srv, const struct wl_request *req, const char *key,
			  const char *data, size_t len, const char *type, struct wl_response *resp);

/* Answer from srv->bodies when key is kept there; returns whether it did. */
int wl_respond_from_cache(struct wl_server *srv, const struct wl_request *req, const char *key,
			  const char *type, struct wl_response *resp);

/* Count a served response for /metrics. */
void wl_server_count(struct wl_server *srv, const char *route, unsigned status);

/* ---- handlers: runs (api_runs.c), the compare table (api_compare.c), the
 * catalog, devices, health and metrics (api_info.c), kernel sources
 * (api_sources.c), events (api_events.c), the pages (static_files.c) ---- */
void wl_api_create_run(struct wl_server *srv, const struct wl_request *req, struct wl_response *resp);
/* POST /api/runs/estimate: a request's points, measurements and expected time (api_estimate.c). */
void wl_api_estimate_run(struct wl_server *srv, const struct wl_request *req, struct wl_response *resp);
void wl_api_list_runs(struct wl_server *srv, const struct wl_request *req, struct wl_response *resp);
void wl_api_get_run(struct wl_server *srv, const struct wl_request *req, long long id,
		    struct wl_response *resp);
void wl_api_run_csv(struct wl_server *srv, const struct wl_request *req, long long id,
		    struct wl_response *resp);
void wl_api_run_samples(struct wl_server *srv, const struct wl_request *req, long long id,
			struct wl_response *resp);
void wl_api_cancel_run(struct wl_server *srv, const struct wl_request *req, long long id,
		       struct wl_response *resp);
void wl_api_experiments(struct wl_server *srv, struct wl_response *resp);
void wl_api_compare(struct wl_server *srv, const struct wl_request *req, struct wl_response *resp);
void wl_api_devices(struct wl_server *srv, struct wl_response *resp);
void wl_api_health(struct wl_server *srv, struct wl_response *resp);
void wl_api_metrics(struct wl_server *srv, struct wl_response *resp);
void wl_static_serve(struct wl_server *srv, const char *path, const struct wl_request *req,
		     struct wl_response *resp);
void wl_api_variant_source(struct wl_server *srv, const char *exp_id, const char *variant_id,
			   struct wl_response *resp);
void wl_api_run_sources(struct wl_server *srv, const struct wl_request *req, long long id,
			struct wl_response *resp);
void wl_api_run_compiler(struct wl_server *srv, const struct wl_request *req, long long id,
			 struct wl_response *resp);
void wl_api_run_events(struct wl_server *srv, const struct wl_request *req, long long id,
		       struct wl_response *resp);
void wl_api_events(struct wl_server *srv, const struct wl_request *req, struct wl_response *resp);

/* Read every family's kernel source (api_sources.c) and add each variant's
 * signature to the catalog's JSON; fails naming a source that cannot be read
 * or a variant whose kernel it does not define. Freed by wl_family_sources_free. */
int wl_family_sources_load(struct wl_server *srv, json_t *catalog_json, struct wl_error *err);
void wl_family_sources_free(struct wl_server *srv);

/* Whether req may write: no token configured, or a valid bearer token. On
 * refusal resp holds the 401. */
int wl_server_authorize(struct wl_server *srv, const struct wl_request *req,
			struct wl_response *resp);

#endif
