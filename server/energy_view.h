/* Energy per useful byte (issue 37). The runner measures a result's energy
 * as a burst of its launches between two updates of the GPU's energy counter
 * (runner/energy.h) and stores joules per launch; this turns that into the
 * figures a reader compares, once, so that the run page, the CSV, the
 * verdict, the compare table and a script read the same numbers:
 * - picojoules per useful byte: per launch over the result's bytes, the
 *   fewest the variant must move (the bytes its GB/s counts) — what the
 *   work cost;
 * - picojoules per moved byte: per launch over the bytes DRAM moved, counted
 *   by the hardware where the run profiled the variant (extra.counters),
 *   else as the memory-access model predicts (prediction.traffic) — what
 *   moving a byte cost, however wasteful the pattern;
 * - nanojoules per operation, for a result that counts operations.
 * A device without an energy counter (PoCL, a driver without it) stored
 * {"error": why}: the result then says energy null and why. */
#ifndef WL_ENERGY_VIEW_H
#define WL_ENERGY_VIEW_H

#include <jansson.h>

/* How far apart two variants' energies must be before one is said to use
 * less: bursts of the same launch agree within 2.4% on the H100
 * (bench/energy-probe.c), so two of them can differ by twice that with
 * nothing changed. */
#define WL_ENERGY_NOISE 0.05

/* The energy of result r (a result as the store reads it, or as derived
 * here: its "energy" is recomputed from "j_per_launch" either way), into
 * *figures as a new object (caller owns): the stored figures
 * {"j_per_launch", "j_above_idle_per_launch", "avg_w", "idle_w", "launches",
 * "burst_ms", "window_ms", "throttled"} and "pj_per_useful_byte",
 * "pj_per_useful_byte_above_idle" (null where r has no bytes), "nj_per_op"
 * (null where r counts no operations), "moved_bytes", "moved_bytes_from"
 * ("counters" or "model") and "pj_per_moved_byte" (all three null where
 * neither is known). *figures is NULL where r has no energy; *error then
 * points into r at the reason where the device could not measure it (NULL
 * where the run did not ask). -1 only when out of memory (*figures NULL). */
int wl_result_energy(const json_t *r, json_t **figures, const char **error);

/* Set every result's "energy" to its figures as above, or null and then
 * "energy_error" where the device could not measure it. Run it after the
 * predictions (wl_run_add_predictions), whose traffic gives the model's
 * moved bytes. -1 only when out of memory. */
int wl_run_add_energy(json_t *run);

/* What a point's variants are compared on (they do the same work there):
 * the energy's "pj_per_useful_byte", else "nj_per_op", else "j_per_launch",
 * its name into *key; -1 (and *key NULL) where energy has none. */
double wl_energy_per_work(const json_t *energy, const char **key);

#endif
