/* A map from the ids an import's records carry to the ids the store gave
 * them, one map per numbering (runs, runners): what a merge uses to point each
 * imported result, trace, build and device at its run's or runner's new id.
 * An open-addressing hash table, so a million runs cost a million small
 * entries and each look-up a probe or two, in whatever order ids come.
 *
 *   struct wl_id_map runs = { 0 };           zeroed is empty
 *   wl_id_map_put(&runs, 7, 42);              0 added, 1 7 was there, -1 no memory
 *   wl_id_map_get(&runs, 7, &new_id);         1 found (new_id = 42), 0 not
 *   wl_id_map_free(&runs);                    empty again
 */
#ifndef WL_ID_MAP_H
#define WL_ID_MAP_H

#include <stddef.h>

struct wl_id_slot;

struct wl_id_map {
	struct wl_id_slot *slots;	/* cap of them, owned; NULL while empty */
	size_t cap, count;
};

/* Map from to to. Returns 0 when added, 1 when from was mapped already (the
 * map is unchanged: the first mapping stands), -1 when out of memory (the
 * map is unchanged). */
int wl_id_map_put(struct wl_id_map *m, long long from, long long to);

/* 1 and *to set when from is mapped, else 0 (*to untouched). */
int wl_id_map_get(const struct wl_id_map *m, long long from, long long *to);

/* Free what the map holds; it is empty and usable again. */
void wl_id_map_free(struct wl_id_map *m);

#endif
