/* The unit-test runner: every test by name, "ok"/"not ok" per test, and a last
 * line "unit: N passed, N failed" that tests/run.sh adds up. An argument runs
 * only the tests whose names contain it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "check.h"
#include "db.h"

int check_failures;
char check_tmpdir[256];
const char *check_store_pg;

/* The store's tests, run on SQLite and again on PostgreSQL. */
#define STORE_TESTS(X)                                                          \
	X(store_queues_and_reads_runs)                                          \
	X(store_claims_oldest_run_for_its_devices)                              \
	X(store_claims_only_runs_in_its_languages)                              \
	X(store_shares_a_run_point_by_point)                                   \
	X(store_records_progress_and_results)                                   \
	X(store_recovers_runs_of_dead_runners)                                  \
	X(store_refuses_when_queue_full)                                        \
	X(store_lists_runs_newest_first_with_paging)                            \
	X(store_cancels_queued_and_running_runs)                                \
	X(store_releases_a_run_whose_worker_died)                               \
	X(store_numbers_every_visible_change)                                   \
	X(store_keeps_run_totals_as_runs_change)                                \
	X(store_finds_runs_by_any_part_of_their_label)                          \
	X(store_keeps_each_build_once)                                          \
	X(store_merges_an_import_under_new_ids)                                 \
	X(store_keeps_the_models_ledger)                                        \
	X(copy_ceiling_is_as_of_the_runs_end)                                   \
	X(copy_ceiling_is_the_best_recent_copy_of_the_runs_cache_mode)

#define TESTS(X)                                                                        \
	X(catalog_loads_repository_catalog)                                             \
	X(catalog_rejects_bad_entries)                                                  \
	X(cost_formulas_parse_and_evaluate)                                             \
	X(request_accepts_good_requests)                                                \
	X(request_rejects_bad_requests)                                                 \
	X(own_experiment_is_accepted_and_stored_with_its_definition)                    \
	X(own_experiment_refuses_bad_input_naming_the_field)                            \
	X(own_tuning_run_counts_only_when_asked)                                        \
	X(declared_inputs_match_their_generators)                                       \
	X(declared_inits_and_references_refuse_what_they_cannot)                        \
	X(catalog_references_are_the_runners)                                           \
	X(request_fills_defaults_and_seed)                                              \
	X(request_reads_counters_on_or_off)                                             \
	X(request_language_is_opencl_or_cuda)                                           \
	X(validate_in_a_decided_language_agrees)                                        \
	X(run_request_types_a_full_normalized_request)                                  \
	X(run_request_reads_absent_fields_as_older_requests_ran)                        \
	X(run_request_refuses_what_no_validator_writes)                                 \
	X(points_expand_in_catalog_order)                                               \
	X(tuning_selects_the_space)                                                     \
	X(tuning_refuses_bad_requests)                                                  \
	X(tuning_rank_says_when_the_model_cannot_rank)                                  \
	X(ranking_predicts_at_each_configurations_occupancy)                            \
	X(tuning_why_names_what_differs)                                                \
	X(tuning_why_names_the_barriers_drains)                                         \
	X(tuning_searches_for_energy_and_the_front)                                     \
	X(cuda_modules_coming_are_waited_for)                                           \
	X(cuda_modules_kept_on_disk_are_loaded_not_compiled)                            \
	X(cuda_modules_come_from_builders)                                              \
	X(memo_reads_an_own_experiment_again)                                           \
	X(device_check_refuses_what_does_not_fit)                                       \
	STORE_TESTS(X)                                                                  \
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
	X(expressions_parse_and_evaluate)                                               \
	X(model_predicts_the_seeds_by_hand)                                             \
	X(model_matches_the_bank_table)                                                 \
	X(catalog_refuses_bad_access_declarations)                                      \
	X(minplus_reference_is_min_over_k)                                              \
	X(banks_reference_sums_the_pattern)                                             \
	X(exact_sums_catch_one_wrong_element)                                           \
	X(absent_cache_is_hot_for_every_reader)                                         \
	X(slowdown_is_relative_to_baseline_point)                                       \
	X(catalog_holds_every_seed_experiment)                                          \
	X(gather_sum_dot_and_myadd_references)                                          \
	X(drops_find_the_seeds_partition_camping)                                       \
	X(drops_ignore_rises_noise_and_edges)                                           \
	X(custom_kernels_are_validated_and_counted)                                     \
	X(custom_kernels_refusals_name_the_field)                                       \
	X(custom_kernels_limits_and_shapes)                                             \
	X(directive_check_refuses_every_spelling)                                       \
	X(directive_check_agrees_with_clang)                                            \
	X(http_heads_with_unsound_framing_are_refused)                                  \
	X(build_logs_lose_every_host_path)                                              \
	X(the_worker_confinement_holds_alone)                                           \
	X(cold_flush_is_never_less_than_safe)                                           \
	X(cuda_driver_absent_is_said_not_failed)                                        \
	X(a_cpus_cache_comes_from_sysfs)                                                \
	X(kernel_scanner_reads_the_repository_sources)                                  \
	X(kernel_params_read_as_written)                                                \
	X(source_scan_drafts_an_experiment_a_request_takes)                             \
	X(median_interval_from_order_statistics)                                        \
	X(sampling_stops_on_noise_budget_or_max)                                        \
	X(drops_need_intervals_apart)                                                   \
	X(verdicts_only_beyond_the_noise)                                               \
	X(compare_never_stars_zero_or_failed_and_spreads_repeats)                       \
	X(compare_says_what_differs_and_what_moved)                                     \
	X(rng_fills_are_counter_based)                                                  \
	X(device_random_inputs_match_the_host)                                          \
	X(buffers_are_compared_on_the_device)                                           \
	X(verification_against_a_function_of_the_index)                                 \
	X(programs_are_kept_on_disk_across_restarts)                                    \
	X(staging_grows_by_half_but_starts_at_its_size)                                  \
	X(programs_built_ahead_are_found_built)                                         \
	X(warm_kernels_skip_their_warm_ups)                                             \
	X(verdict_names_the_winner_by_how_much_and_why)                                 \
	X(verdict_of_one_variant_compares_its_points)                                   \
	X(verdict_says_within_noise_wherever_intervals_overlap)                         \
	X(verdict_says_whether_each_custom_kernel_beat_its_like)                        \
	X(energy_figures_per_useful_and_moved_byte)                                     \
	X(verdict_names_the_frugal_variant_beyond_the_noise)                            \
	X(csv_appends_energy_columns)                                                   \
	X(compare_cells_carry_energy)                                                   \
	X(drops_wait_for_the_run_and_three_points)                                      \
	X(stored_run_reads_its_settings_once)                                           \
	X(stored_run_reads_its_variants_and_figures)                                    \
	X(sample_spreads_over_columns_and_rows)                                         \
	X(sample_takes_few_groups_whole)                                                \
	X(trace_groups_warp_requests_for_32_and_64_lanes)                               \
	X(trace_refuses_what_it_cannot_read)                                            \
	X(gathers_in_a_page_are_paged)                                                   \
	X(scrambled_lanes_are_irregular)                                                 \
	X(ptxas_figures_from_the_h100)                                                  \
	X(ptx_lines_map_to_source_lines)                                                \
	X(occupancy_by_hand_on_the_h100)                                                \
	X(ceilings_by_hand)                                                             \
	X(dram_streams_at_what_warps_keep_in_flight)                                    \
	X(tiny_groups_are_bound_by_their_starts)                                        \
	X(a_barrier_after_loads_drains_the_warps_requests)                              \
	X(each_result_takes_its_own_builds_occupancy)                                   \
	X(each_result_takes_its_launchs_local_memory)                                   \
	X(a_builds_options_are_its_points)                                              \
	X(departures_name_only_causes_the_kernel_can_have)                              \
	X(model_trust_weighs_each_case)                                                 \
	X(model_trust_words_departures_and_pairs)                                       \
	X(verdict_claims_no_cause_where_the_model_misses)                               \
	X(factor_stats_count_within_and_take_medians)                                   \
	X(model_record_weighs_a_runs_sentences)                                         \
	X(catalog_causes_cannot_contradict_the_row)                                     \
	X(device_model_reads_the_facts)                                                 \
	X(facts_unmeasured_are_measured_again_or_said_absent)                           \
	X(declared_barriers_are_counted)                                                \
	X(minplus_reuse_by_hand)                                                        \
	X(first_level_ceiling_by_hand)                                                  \
	X(minplus_first_level_by_hand)                                                  \
	X(every_catalog_cuda_kernel_compiles_with_nvrtc)                                \
	X(nvrtc_refuses_what_does_not_compile)                                          \
	X(cuda_modules_compile_ahead_without_a_device)                                  \
	X(nvrtc_says_why_a_kernel_does_not_fit)                                         \
	X(cuda_absent_is_said_not_failed)                                               \
	X(waiting_launches_keep_the_buffers_they_read)                                 \
	X(counters_are_written_into_their_results_later)                     \
	X(device_languages_say_why)                                                     \
	X(counters_evaluate_from_an_h100_image)                                         \
	X(id_map_maps_each_id_once)                                                     \
	X(departures_are_listed_once_per_variant_and_point)                             \
	X(untraceable_kernels_say_what_the_simulator_cannot_run)

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

static const char *const store_tests[] = {
#define NAME(name) #name,
	STORE_TESTS(NAME)
#undef NAME
};

static int is_store_test(const char *name)
{
	for (size_t i = 0; i < sizeof(store_tests) / sizeof(store_tests[0]); i++)
		if (strcmp(store_tests[i], name) == 0)
			return 1;
	return 0;
}

int check_store_target(const char *name, char *out, size_t len)
{
	struct wl_db *db = NULL;
	struct wl_error err;
	char sql[256];
	int n;

	if (!check_store_pg) {
		n = snprintf(out, len, "%s/%s.db", check_tmpdir, name);
		unlink(out);
		return n > 0 && (size_t)n < len ? 0 : -1;
	}
	/* A schema per test: the store finds its tables through search_path. */
	char schema[64];

	snprintf(schema, sizeof(schema), "t_%s", name);
	for (char *p = schema; *p; p++)
		*p = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ? *p : '_';
	snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s", schema, schema);
	if (wl_db_open(check_store_pg, &db, &err) < 0 || wl_db_exec(db, sql, &err) < 0) {
		fprintf(stderr, "    PostgreSQL: %s\n", err.msg);
		wl_db_close(db);
		return -1;
	}
	wl_db_close(db);
	n = snprintf(out, len, "%s%soptions=-csearch_path%%3D%s", check_store_pg,
		     strchr(check_store_pg, '?') ? "&" : "?", schema);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Run test i under name, counting it. */
char check_skipped[300];

static void run_one(size_t i, const char *name, int *passed, int *failed)
{
	check_failures = 0;
	check_skipped[0] = '\0';
	tests[i].fn();
	if (check_skipped[0] && !check_failures) {
		printf("ok - %s # SKIP skipped: %s\n", name, check_skipped);
		(*passed)++;
	} else if (check_failures) {
		printf("not ok - %s (%d checks failed)\n", name, check_failures);
		(*failed)++;
	} else {
		printf("ok - %s\n", name);
		(*passed)++;
	}
	fflush(stdout);
}

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
		char name[160];

		snprintf(name, sizeof(name), "%s_on_postgres", tests[i].name);
		if (argc <= 1 || strstr(tests[i].name, argv[1])) {
			check_store_pg = NULL;
			run_one(i, tests[i].name, &passed, &failed);
		}
		if (!is_store_test(tests[i].name) || (argc > 1 && !strstr(name, argv[1])))
			continue;
		check_store_pg = getenv("WARPLAB_TEST_PG");
		if (check_store_pg && *check_store_pg) {
			run_one(i, name, &passed, &failed);
		} else {
			printf("ok - %s # SKIP WARPLAB_TEST_PG is not set (tests/run.sh sets it)\n", name);
		}
		check_store_pg = NULL;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", check_tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", check_tmpdir);
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
