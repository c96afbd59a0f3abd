/* The import's id map (id_map.h): linear probing over a power-of-two table,
 * grown to keep it at most half full so a miss ends within a few slots. Keys
 * are hashed with splitmix64's finaliser: export ids come consecutive, and a
 * bare modulus would pile them into runs of neighbouring slots. */
#include "id_map.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

struct wl_id_slot {
	long long from, to;
	int used;
};

/* The first table; it doubles from there. */
#define FIRST_CAP 64

static size_t slot_of(long long key, size_t cap)
{
	uint64_t z = (uint64_t)key + 0x9e3779b97f4a7c15u;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	z ^= z >> 31;
	return (size_t)(z & (cap - 1));
}

/* The index of the slot holding from, or of the empty one where it would
 * go; the table is never full, so the walk ends. */
static size_t find(const struct wl_id_slot *slots, size_t cap, long long from)
{
	size_t i = slot_of(from, cap);

	while (slots[i].used && slots[i].from != from)
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow(struct wl_id_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : FIRST_CAP;
	struct wl_id_slot *slots;

	if (cap < m->cap || cap > SIZE_MAX / sizeof(*slots))
		return -1;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].used)
			slots[find(slots, cap, m->slots[i].from)] = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int wl_id_map_put(struct wl_id_map *m, long long from, long long to)
{
	struct wl_id_slot *s;

	if (m->cap && m->slots[find(m->slots, m->cap, from)].used)
		return 1;
	if ((m->count + 1) * 2 > m->cap && grow(m) < 0)
		return -1;
	s = &m->slots[find(m->slots, m->cap, from)];
	assert(!s->used);
	s->from = from;
	s->to = to;
	s->used = 1;
	m->count++;
	return 0;
}

int wl_id_map_get(const struct wl_id_map *m, long long from, long long *to)
{
	const struct wl_id_slot *s;

	if (!m->cap)
		return 0;
	s = &m->slots[find(m->slots, m->cap, from)];
	if (!s->used)
		return 0;
	*to = s->to;
	return 1;
}

void wl_id_map_free(struct wl_id_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = 0;
	m->count = 0;
}
