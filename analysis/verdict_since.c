/* What changed since the previous run (see analysis.h, wl_run_add_since):
 * from the "previous" each result carries (wl_run_add_previous), how many
 * moved beyond noise each way and the one that moved most, said after the
 * verdict's sentence — nothing where nothing moved. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict_words.h"

/* How far r moved since its previous, as a factor of time (above 1: that
 * many times faster or slower), or 0 where it is within noise or has none. */
static double moved(const struct wl_result *r, int *faster)
{
	const json_t *p = json_object_get(r->json, "previous");
	const char *v = json_string_value(json_object_get(p, "verdict"));
	double pct = json_number_value(json_object_get(p, "change_pct"));

	if (!v || strcmp(v, "same") == 0 || !json_is_number(json_object_get(p, "change_pct")) || pct <= -100)
		return 0;
	*faster = strcmp(v, "faster") == 0;
	return *faster ? 100 / (100 + pct) : (100 + pct) / 100;
}

int wl_run_add_since(struct wl_run *run)
{
	const json_t *prev = json_object_get(run->json, "previous");
	json_t *verdict = json_object_get(run->json, "verdict");
	const struct wl_result *most = NULL;
	struct verdict_ctx c;
	int faster = 0, slower = 0, most_faster = 0;
	double most_factor = 0;
	char at[256], said[768];

	if (!json_is_object(prev) || !json_is_object(verdict))
		return 0;
	for (size_t i = 0; i < run->nresults; i++) {
		int f = 0;
		double k = moved(&run->results[i], &f);

		if (k <= 0)
			continue;
		faster += f;
		slower += !f;
		if (k > most_factor) {
			most_factor = k;
			most = &run->results[i];
			most_faster = f;
		}
	}
	if (!most)
		return json_object_set_new(verdict, "since", json_null());
	wl_verdict_ctx(run, &c);
	wl_verdict_point_text(&c, most->params, at, sizeof(at));
	snprintf(said, sizeof(said), "Since run #%lld, %d result%s %s faster beyond noise and %d slower; %s moved most: "
		 "%.*f× %s%s%s.", (long long)json_integer_value(json_object_get(prev, "run")), faster,
		 faster == 1 ? "" : "s", faster == 1 ? "is" : "are", slower, most->variant, most_factor < 9.95 ? 2 : 0,
		 most_factor, most_faster ? "faster" : "slower", at[0] ? " at " : "", at);
	{
		const char *sentence = json_string_value(json_object_get(verdict, "sentence"));
		char whole[8192];

		snprintf(whole, sizeof(whole), "%s %s", sentence ? sentence : "", said);
		if (json_object_set_new(verdict, "sentence", json_string(whole)) < 0)
			return -1;
	}
	return json_object_set_new(verdict, "since", json_pack("{s:O, s:i, s:i, s:s, s:s}", "run",
			json_object_get(prev, "run"), "faster", faster, "slower", slower, "most", most->variant,
			"sentence", said));
}
