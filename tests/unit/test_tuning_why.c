/* Why a tuning run's best configuration wins, from the model's figures of
 * two results: each figure that differs is named with both values, the
 * binding ceiling is cited, and where nothing differs the sentence says the
 * model cannot tell them apart; without both predictions, nothing. */
#include <string.h>

#include "analysis.h"
#include "check.h"

/* A result of variant at median_ms with the model's figures (JSON text). */
static struct wl_result result(const char *variant, double median_ms, json_t *prediction, const char *binding)
{
	struct wl_result r;

	memset(&r, 0, sizeof(r));
	r.variant = variant;
	r.median_ms = median_ms;
	r.prediction = prediction;
	r.binding = binding;
	return r;
}

void test_tuning_why_names_what_differs(void)
{
	json_t *fast = json_pack("{s:f, s:f, s:{s:i, s:i}}", "conflict_degree", 2.0, "sectors_per_request", 4.0,
				 "work", "groups", 256, "items", 64);
	json_t *slow = json_pack("{s:f, s:f, s:{s:i, s:i}}", "conflict_degree", 32.0, "sectors_per_request", 4.0,
				 "work", "groups", 64, "items", 256);
	struct wl_result best = result("tiled", 0.05, fast, "dram"), other = result("tiled", 0.2, slow, "dram");
	struct wl_result same = result("tiled", 0.3, fast, NULL), bare = result("tiled", 0.4, NULL, NULL);
	json_t *why = wl_tuning_why(&best, &other, "tile = 32, rows = 8");
	const char *text = json_string_value(why);

	CHECK(text && strcmp(text, "Against tile = 32, rows = 8 (tiled, 0.2 ms): its local memory accesses conflict "
				   "2-way, against 32-way; it launches 256 work-groups, against 64; its work-groups hold 64 "
				   "work-items, against 256; the model finds DRAM bandwidth binding both.") == 0,
	      "%s", text ? text : "(none)");
	json_decref(why);
	best.binding = NULL;
	why = wl_tuning_why(&best, &same, "tile = 16, rows = 4");
	text = json_string_value(why);
	CHECK(text && strstr(text, "are the same, so what it sees does not tell them apart."), "%s", text ? text : "(none)");
	json_decref(why);
	why = wl_tuning_why(&best, &bare, "tile = 8, rows = 1");
	CHECK(json_is_null(why), "no reason without the other's prediction");
	json_decref(why);
	json_decref(fast);
	json_decref(slow);
}

/* Two tiles of one shape whose work-items move more or fewer elements: the
 * same figures but the waves' wait at barriers, which the sentence names in
 * µs — a prediction without drains as none, either way round. */
void test_tuning_why_names_the_barriers_drains(void)
{
	json_t *many = json_pack("{s:f, s:f}", "sectors_per_request", 4.0, "drain_ms", 0.0042);
	json_t *few = json_pack("{s:f, s:f}", "sectors_per_request", 4.0, "drain_ms", 0.0336);
	json_t *none = json_pack("{s:f, s:n}", "sectors_per_request", 4.0, "drain_ms");
	struct wl_result best = result("tiled", 0.14, many, "dram"), other = result("tiled", 0.29, few, "dram");
	struct wl_result flat = result("naive", 0.3, none, "dram");
	json_t *why = wl_tuning_why(&best, &other, "tile = 32, rows = 1");
	const char *text = json_string_value(why);

	CHECK(text && strcmp(text, "Against tile = 32, rows = 1 (tiled, 0.29 ms): its waves wait 4.2 µs at barriers for "
				   "their loads, against 33.6 µs; the model finds DRAM bandwidth binding both.") == 0,
	      "%s", text ? text : "(none)");
	json_decref(why);
	why = wl_tuning_why(&best, &flat, "naive");
	text = json_string_value(why);
	CHECK(text && strstr(text, "its waves wait 4.2 µs at barriers for their loads, against none;"), "%s",
	      text ? text : "(none)");
	json_decref(why);
	why = wl_tuning_why(&flat, &other, "tile = 32, rows = 1");
	text = json_string_value(why);
	CHECK(text && strstr(text, "its waves wait at no barrier for their loads, against 33.6 µs;"), "%s",
	      text ? text : "(none)");
	json_decref(why);
	json_decref(many);
	json_decref(few);
	json_decref(none);
}
