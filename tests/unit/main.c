/* The unit-test runner: every test by name, "ok"/"not ok" per test, and a last
 * line "unit: N passed, N failed" that tests/run.sh adds up. An argument runs
 * only the tests whose names contain it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "check.h"

int check_failures;
char check_tmpdir[256];

#define TESTS(X)                                                                        \
	X(catalog_loads_repository_catalog)                                             \
	X(catalog_rejects_bad_entries)                                                  \
	X(cost_formulas_parse_and_evaluate)                                             \
	X(request_accepts_good_requests)                                                \
	X(request_rejects_bad_requests)                                                 \
	X(request_fills_defaults_and_seed)                                              \
	X(points_expand_in_catalog_order)                                               \
	X(device_check_refuses_what_does_not_fit)                                       \
	X(store_queues_and_reads_runs)                                                  \
	X(store_claims_oldest_run_for_its_devices)                                      \
	X(store_records_progress_and_results)                                           \
	X(store_recovers_runs_of_dead_runners)                                          \
	X(store_refuses_when_queue_full)                                                \
	X(store_lists_runs_newest_first_with_paging)                                    \
	X(store_cancels_queued_and_running_runs)                                        \
	X(store_releases_a_run_whose_worker_died)                                       \
	X(store_numbers_every_visible_change)                                           \
	X(stats_summarise_samples)                                                      \
	X(csv_has_documented_header_and_rows)                                           \
	X(rng_is_reproducible_and_never_zero)                                           \
	X(transpose_reference_transposes)                                               \
	X(exact_verification_reports_first_difference)                                  \
	X(checks_run_in_the_background)                                                 \
	X(body_cache_evicts_least_recently_used)                                        \
	X(accept_headers_and_entity_tags)                                               \
	X(event_streams_park_wake_and_end)                                              \
	X(device_ids_are_slugs)                                                         \
	X(tokens_compare_and_load)                                                      \
	X(options_read_file_then_flags)                                                 \
	X(bank_model_predicts_conflict_degree)                                          \
	X(minplus_reference_is_min_over_k)                                              \
	X(banks_reference_sums_the_pattern)                                             \
	X(exact_sums_catch_one_wrong_element)                                           \
	X(slowdown_is_relative_to_baseline_point)                                       \
	X(catalog_holds_every_seed_experiment)                                          \
	X(gather_sum_dot_and_myadd_references)                                          \
	X(drops_find_the_seeds_partition_camping)                                       \
	X(drops_ignore_rises_noise_and_edges)                                           \
	X(copy_ceiling_is_as_of_the_runs_end)                                           \
	X(fuzz_corpus_and_findings_replay_cleanly)                                      \
	X(custom_kernels_are_validated_and_counted)                                     \
	X(custom_kernels_refusals_name_the_field)                                       \
	X(custom_kernels_limits_and_shapes)                                             \
	X(kernel_scanner_reads_the_repository_sources)                                  \
	X(median_interval_from_order_statistics)                                        \
	X(sampling_stops_on_noise_budget_or_max)                                        \
	X(drops_need_intervals_apart)                                                   \
	X(verdicts_only_beyond_the_noise)                                               \
	X(rng_fills_are_counter_based)                                                  \
	X(device_random_inputs_match_the_host)                                          \
	X(verification_against_a_function_of_the_index)                                 \
	X(programs_are_kept_on_disk_across_restarts)

#define DECLARE(name) void test_##name(void);
TESTS(DECLARE)
#undef DECLARE

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
#define ENTRY(name) { #name, test_##name },
	TESTS(ENTRY)
#undef ENTRY
};

struct wl_catalog *check_load_catalog(void)
{
	struct wl_catalog *cat = NULL;
	struct wl_error err;

	if (wl_catalog_load(CATALOG_PATH, &cat, &err) < 0)
		CHECK(0, "load: %s", err.msg);
	return cat;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	char cmd[300];

	snprintf(check_tmpdir, sizeof(check_tmpdir), "/tmp/warplab-unit-XXXXXX");
	if (!mkdtemp(check_tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		check_failures = 0;
		tests[i].fn();
		if (check_failures) {
			printf("not ok - %s (%d checks failed)\n", tests[i].name, check_failures);
			failed++;
		} else {
			printf("ok - %s\n", tests[i].name);
			passed++;
		}
		fflush(stdout);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", check_tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", check_tmpdir);
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
