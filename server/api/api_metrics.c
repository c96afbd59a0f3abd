/* GET /metrics: the store's runs and runners, the run durations, the
 * requests served (metrics.h), the body cache and the live streams, as
 * Prometheus text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "events.h"
#include "store.h"

void wl_api_metrics(struct wl_server *srv, const struct wl_request *req, const struct wl_path_args *at,
		    struct wl_response *resp)
{
	struct wl_store *st = NULL;
	struct wl_error err;
	long long durations[WL_STORE_DURATION_BUCKETS], durations_total = 0;
	double durations_sum = 0;
	json_t *counts = NULL, *runners = NULL, *v;
	const char *key;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f;

	(void)req;
	(void)at;
	if (wl_store_pool_get(srv->pool, &st, &err) < 0 ||
	    wl_store_count_runs(st, &counts, &err) < 0 ||
	    wl_store_list_runners(st, srv->cfg->heartbeat, &runners, &err) < 0 ||
	    wl_store_run_durations(st, durations, &durations_total, &durations_sum, &err) < 0) {
		json_decref(runners);
		json_decref(counts);
		wl_store_pool_put(srv->pool, st);
		wl_response_from_error(resp, &err);
		return;
	}
	wl_store_pool_put(srv->pool, st);
	f = open_memstream(&text, &len);
	if (!f) {
		json_decref(counts);
		json_decref(runners);
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
		return;
	}
	fputs("# HELP warplab_runs Runs in the store, by status.\n# TYPE warplab_runs gauge\n", f);
	json_object_foreach(counts, key, v)
		fprintf(f, "warplab_runs{status=\"%s\"} %lld\n", key, (long long)json_integer_value(v));
	fprintf(f, "# HELP warplab_queue_depth Runs waiting for a runner.\n"
		   "# TYPE warplab_queue_depth gauge\nwarplab_queue_depth %lld\n",
		(long long)json_integer_value(json_object_get(counts, "queued")));
	fputs("# HELP warplab_runner_online Whether each runner has checked in within the heartbeat window.\n"
	      "# TYPE warplab_runner_online gauge\n", f);
	json_array_foreach(runners, i, v)
		fprintf(f, "warplab_runner_online{runner=\"%lld\"} %d\n",
			(long long)json_integer_value(json_object_get(v, "id")),
			json_is_true(json_object_get(v, "online")));
	fputs("# HELP warplab_runner_last_seen_seconds Seconds since each runner's last heartbeat.\n"
	      "# TYPE warplab_runner_last_seen_seconds gauge\n", f);
	json_array_foreach(runners, i, v)
		fprintf(f, "warplab_runner_last_seen_seconds{runner=\"%lld\"} %.3f\n",
			(long long)json_integer_value(json_object_get(v, "id")),
			json_real_value(json_object_get(v, "last_seen_age_s")));
	fputs("# HELP warplab_run_duration_seconds How long finished runs took, queue time excluded.\n"
	      "# TYPE warplab_run_duration_seconds histogram\n", f);
	for (i = 0; i < WL_STORE_DURATION_BUCKETS; i++)
		fprintf(f, "warplab_run_duration_seconds_bucket{le=\"%g\"} %lld\n", wl_store_duration_le[i],
			durations[i]);
	fprintf(f, "warplab_run_duration_seconds_bucket{le=\"+Inf\"} %lld\n"
		   "warplab_run_duration_seconds_sum %.3f\nwarplab_run_duration_seconds_count %lld\n",
		durations_total, durations_sum, durations_total);
	wl_http_counters_write(&srv->counters, f);
	if (srv->bodies) {
		size_t bytes, entries;
		unsigned long long hits, misses;

		wl_body_cache_stats(srv->bodies, &bytes, &entries, &hits, &misses);
		fprintf(f, "# HELP warplab_response_cache_bytes Bytes of finished bodies kept in memory.\n"
			   "# TYPE warplab_response_cache_bytes gauge\nwarplab_response_cache_bytes %zu\n"
			   "# HELP warplab_response_cache_entries Bodies kept in memory.\n"
			   "# TYPE warplab_response_cache_entries gauge\nwarplab_response_cache_entries %zu\n"
			   "# HELP warplab_response_cache_lookups_total Lookups in the body cache, by outcome.\n"
			   "# TYPE warplab_response_cache_lookups_total counter\n"
			   "warplab_response_cache_lookups_total{outcome=\"hit\"} %llu\n"
			   "warplab_response_cache_lookups_total{outcome=\"miss\"} %llu\n",
			bytes, entries, hits, misses);
	}
	fprintf(f, "# HELP warplab_event_streams Live event streams open.\n"
		   "# TYPE warplab_event_streams gauge\nwarplab_event_streams %zu\n",
		wl_events_open_streams(srv->events));
	json_decref(counts);
	json_decref(runners);
	if (fclose(f) != 0) {
		free(text);
		wl_response_error(resp, 500, "internal", NULL, "out of memory");
		return;
	}
	wl_response_text(resp, 200, "text/plain; version=0.0.4; charset=utf-8", text, len);
	free(text);
}
