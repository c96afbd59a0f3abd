/* A tuning run's parts, beside analysis.h's wl_run_add_tuning (which
 * includes this): the ranking of a space before a run is queued
 * (tuning_rank.c), a search for energy and its front (tuning_energy.c), why
 * the best wins (tuning_why.c) and the whole space as CSV
 * (tuning_space_csv.c). */
#ifndef WL_ANALYSIS_TUNING_H
#define WL_ANALYSIS_TUNING_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"

struct wl_catalog;
struct wl_result;
struct wl_run;

/* A tuning size's "energy" from its entry's "space" (each with "energy_j"):
 * {"objective", "measured" (configurations with energy), "error" (why_none,
 * the device's reason, where none has energy), "front" (objective "both":
 * the entries no other beats on time and energy both, fastest first, each
 * entry of the space marked "front" true or false; else null), "sentence"}.
 * by_energy: the size's best went by energy. -1 when out of memory (size
 * then partly marked). */
int wl_tuning_energy(json_t *size, const char *objective, int by_energy, const char *why_none);

/* "38.6 µs" or "1.25 ms"; "812 µJ", "1.21 mJ" or "2.3 J": a time in ms and
 * an energy in joules as the tuning sentences write them, into out. */
void wl_tuning_time_text(double ms, char *out, size_t len);
void wl_tuning_energy_text(double j, char *out, size_t len);

/* Why best, a tuning run's fastest result at a size, beats other there (its
 * configuration other_config, as text): a sentence of what the model's
 * figures and the compiler's occupancy say differs between the two, or that
 * none does (tuning_why.c); JSON null where there is no other; NULL when out
 * of memory. */
json_t *wl_tuning_why(const struct wl_result *best, const struct wl_result *other, const char *other_config);

/* Where normalized (a validated request) tunes with the "model" strategy:
 * every configuration its params and restrictions allow predicted on device
 * (its record, with facts; its DRAM rate copy_gbps, or where 0 its float4
 * copy fact), each scored by its fastest variant, and the best budget of
 * each size written into its "tune" as "chosen" ([{"params",
 * "predicted_ms", "rank"}], best first) beside "ranked" (how many were
 * predicted). 0 (nothing done for another request), or -1 with err on
 * "tune.strategy" where the model cannot rank it (custom kernels, a
 * variant without declared accesses — the catalog's or an experiment of
 * one's own —, no measured facts, a space it cannot predict within
 * WL_TUNE_RANK_S). */
int wl_tuning_rank(const struct wl_catalog *cat, json_t *normalized, const json_t *device, double copy_gbps,
		   struct wl_error *err);

/* Every configuration a tuning request's params and restrictions allow,
 * ranked as wl_tuning_rank ranks them (whatever its strategy), into
 * *ranked: [{"params", "predicted_ms", "rank"}], by size and then rank
 * (caller owns). 0, or -1 with err as wl_tuning_rank says (*ranked NULL). */
int wl_tuning_rank_every(const struct wl_catalog *cat, const json_t *normalized, const json_t *device,
			 json_t **ranked, struct wl_error *err);

/* A tuning run's whole space as CSV, header "<each param>,rank,
 * predicted_ms,measured_ms,variant,energy_j": a row per configuration of
 * ranked (wl_tuning_rank_every's, in its order), with the fastest verified
 * result the run measured of it (by the objective "energy", the one of
 * least energy), its columns empty where none, into *out (*len bytes,
 * caller frees). -1 when out of memory (*out NULL). */
int wl_tuning_space_csv(const struct wl_run *run, const json_t *ranked, char **out, size_t *len);

#endif
