/* The device facts as the store keeps them (model/facts.c): a fact its probe
 * could not measure on a busy machine is taken from a second probe where that
 * one measured it, and is otherwise said absent with the reason — never a
 * number that is none, never the whole record lost — and reads back as
 * unknown (0) to the model. */
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "facts.h"

void test_facts_unmeasured_are_measured_again_or_said_absent(void)
{
	struct wl_facts f = { 0 }, again = { 0 }, back;
	json_t *o;
	const char *why;

	f.launch_us = 5.9;
	f.cache_gbps = NAN;		/* a median of no time: no figure */
	f.cache_probe_bytes = 1 << 20;
	f.latency_ns = INFINITY;	/* a timing of 0 */
	f.l1_bytes = 0;			/* not measured here at all (a CPU) */
	CHECK(wl_facts_any_unmeasured(&f), "two facts unmeasured");
	again.cache_gbps = 1200;
	again.latency_ns = NAN;
	again.launch_us = 7.0;
	wl_facts_fill_unmeasured(&f, &again);
	CHECK(f.cache_gbps == 1200 && f.launch_us == 5.9, "the second probe's cache rate taken, the first's launch kept");
	CHECK(isnan(f.latency_ns) && wl_facts_any_unmeasured(&f), "unmeasured twice, still unmeasured");
	o = wl_facts_to_json(&f);
	CHECK(o != NULL, "the record is kept whole");
	why = json_string_value(json_object_get(json_object_get(o, "latency_ns"), "absent"));
	CHECK(why && strstr(why, "twice") && !json_object_get(json_object_get(o, "latency_ns"), "value") &&
	      json_string_value(json_object_get(json_object_get(o, "latency_ns"), "method")),
	      "said absent with the reason and the method");
	CHECK(json_real_value(json_object_get(json_object_get(o, "cache_gbps"), "value")) == 1200 &&
	      json_object_get(json_object_get(o, "cache_gbps"), "bytes"), "the fact measured again is there");
	CHECK(!json_object_get(o, "l1_bytes"), "a fact not measured here is not said absent");
	CHECK(wl_facts_from_json(o, &back) == 1 && back.latency_ns == 0 && back.cache_gbps == 1200,
	      "read back: the absent one unknown to the model");
	json_decref(o);
}
