/* A tuning run searched for energy, or for time and energy together (see
 * analysis.h, "tuning"): at a size, the configurations' joules per launch
 * beside their time, and the front of those that no other beats on both. */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wl_tuning_time_text(double ms, char *out, size_t len)
{
	snprintf(out, len, ms < 1 ? "%.3g µs" : "%.3g ms", ms < 1 ? ms * 1000 : ms);
}

void wl_tuning_energy_text(double j, char *out, size_t len)
{
	snprintf(out, len, j < 1e-3 ? "%.3g µJ" : j < 1 ? "%.3g mJ" : "%.3g J", j < 1e-3 ? j * 1e6 : j < 1 ? j * 1e3 : j);
}

static double ms_of(const json_t *c)
{
	return json_number_value(json_object_get(c, "median_ms"));
}

static double j_of(const json_t *c)
{
	return json_number_value(json_object_get(c, "energy_j"));
}

/* "tile = 32, rows = 8 (38.6 µs, 1.21 mJ)" of a space entry, into out. */
static void entry_text(const json_t *c, char *out, size_t len)
{
	char t[40], e[40];

	wl_tuning_time_text(ms_of(c), t, sizeof(t));
	wl_tuning_energy_text(j_of(c), e, sizeof(e));
	snprintf(out, len, "%s (%s, %s)", json_string_value(json_object_get(c, "label")) ?: "?", t, e);
}

/* qsort's order of space entries: by time, then by energy. */
static int by_time(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;

	if (ms_of(x) != ms_of(y))
		return ms_of(x) < ms_of(y) ? -1 : 1;
	return j_of(x) < j_of(y) ? -1 : j_of(x) > j_of(y);
}

/* The front of the space's entries with energy (n of them in list): each
 * marked "front" true or false, and those on it, fastest first, as a new
 * array (NULL when out of memory). An entry is on the front where no other
 * is at least as fast with less energy: sorted by time, each that takes
 * less energy than every faster one. */
static json_t *front_of(const json_t **list, size_t n)
{
	json_t *front = json_array();
	double least = 0;

	qsort(list, n, sizeof(*list), by_time);
	for (size_t i = 0; front && i < n; i++) {
		int on = i == 0 || j_of(list[i]) < least;

		if (on) {
			least = j_of(list[i]);
			if (json_array_append(front, (json_t *)list[i]) < 0) {
				json_decref(front);
				return NULL;
			}
		}
		json_object_set_new((json_t *)list[i], "front", json_boolean(on));
	}
	return front;
}

/* The sentence on the front, into text (len bytes). */
static void front_text(const json_t *front, size_t measured, char *text, size_t len)
{
	const json_t *fast = json_array_get(front, 0), *frugal = json_array_get(front, json_array_size(front) - 1);
	char a[300], b[300];
	double less = 1 - j_of(frugal) / j_of(fast);

	entry_text(fast, a, sizeof(a));
	if (json_array_size(front) == 1) {
		snprintf(text, len, "Of the %zu configurations whose energy was measured, %s is both the fastest and "
			 "the one of least energy.", measured, a);
		return;
	}
	entry_text(frugal, b, sizeof(b));
	snprintf(text, len, "%zu of the %zu configurations whose energy was measured are on the time–energy front "
		 "(no other is both as fast and of less energy): from the fastest, %s, to the one of least energy, %s, "
		 "%.0f%% slower for %.0f%% less energy%s.", json_array_size(front), measured, a, b,
		 100 * (ms_of(frugal) / ms_of(fast) - 1), 100 * less,
		 less < WL_ENERGY_NOISE ? ", a difference within the energy counter's noise" : "");
}

/* By energy: how the fastest configuration compares, into text. */
static void fastest_text(const json_t **list, size_t n, const json_t *best, char *text, size_t len)
{
	const json_t *fast = list[0];
	char a[300];
	double more;

	for (size_t i = 1; i < n; i++)
		if (ms_of(list[i]) < ms_of(fast))
			fast = list[i];
	if (fast == best || ms_of(fast) >= ms_of(best)) {
		snprintf(text, len, "It is also the fastest of the %zu whose energy was measured.", n);
		return;
	}
	more = j_of(fast) / j_of(best) - 1;
	entry_text(fast, a, sizeof(a));
	snprintf(text, len, "The fastest, %s, takes %.0f%% more energy a launch%s.", a, 100 * more,
		 more < WL_ENERGY_NOISE ? ", within the energy counter's noise" : "");
}

int wl_tuning_energy(json_t *size, const char *objective, int by_energy, const char *why_none)
{
	const json_t *space = json_object_get(size, "space"), *c, **list = calloc(json_array_size(space) + 1, sizeof(*list));
	json_t *front = NULL, *o;
	char text[1200];
	size_t n = 0, i;

	if (!list)
		return -1;
	json_array_foreach(space, i, c)
		if (json_is_number(json_object_get(c, "energy_j")))
			list[n++] = c;
	if (n == 0) {
		snprintf(text, sizeof(text), "No configuration's energy was measured here (%s), so %s.",
			 why_none ? why_none : "the device gave none", strcmp(objective, "both") == 0
			 ? "there is no front of time and energy, and the best is the fastest" : "the best is the fastest");
	} else if (strcmp(objective, "both") == 0) {
		if (!(front = front_of(list, n))) {
			free(list);
			return -1;
		}
		front_text(front, n, text, sizeof(text));
	} else if (by_energy && json_array_size(space)) {
		fastest_text(list, n, json_array_get(space, 0), text, sizeof(text));
	} else {
		text[0] = '\0';
	}
	free(list);
	o = json_pack("{s:s, s:I, s:s?, s:o, s:s?}", "objective", objective, "measured", (json_int_t)n, "error",
		      n ? NULL : why_none, "front", front ? front : json_null(), "sentence", text[0] ? text : NULL);
	return o && json_object_set_new(size, "energy", o) == 0 ? 0 : -1;
}
