/* The store's schema as numbered migrations (store_schema.c), each in both
 * engines' words; store_open.c runs them in turn, store_import.c counts a
 * merged store's totals afresh. Nothing outside store/ includes this. */
#ifndef WL_STORE_SCHEMA_H
#define WL_STORE_SCHEMA_H

/* One numbered migration in each engine's words. */
struct store_migration {
	const char *sqlite, *postgres;
};

/* Migration i takes a store from version i to i + 1; store_nmigrations is the
 * latest version. */
extern const struct store_migration store_migrations[];
extern const int store_nmigrations;

/* Count the runs' totals (run_counts, run_durations) afresh, for a store
 * filled other than through the triggers that keep them (an import). */
extern const struct store_migration store_count_totals;

#endif
