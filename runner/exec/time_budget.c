/* The run's time budget (see time_budget.h). */
#include "time_budget.h"

#include <time.h>

static const char *const names[WL_PHASES] = {
	"build_ms", "inputs_ms", "transfer_ms", "launch_ms", "verify_ms", "store_ms", "counters_ms",
	"energy_ms",
};

void wl_budget_add(struct wl_time_budget *b, enum wl_phase phase, double since_ms)
{
	if (b)
		b->ms[phase] += wl_now_ms() - since_ms;
}

/* Of b's phases, the milliseconds counted so far, all together. */
static double budget_sum(const struct wl_time_budget *b)
{
	double sum = 0;

	for (int i = 0; i < WL_PHASES; i++)
		sum += b->ms[i];
	return sum;
}

void wl_budget_span_start(const struct wl_time_budget *b, struct wl_budget_span *s)
{
	s->started_ms = wl_now_ms();
	s->counted_ms = b ? budget_sum(b) : 0;
}

void wl_budget_span_end(struct wl_time_budget *b, enum wl_phase phase,
			const struct wl_budget_span *s)
{
	if (b)
		b->ms[phase] += wl_now_ms() - s->started_ms - (budget_sum(b) - s->counted_ms);
}

json_t *wl_budget_json(const struct wl_time_budget *b)
{
	json_t *o = json_pack("{s:f, s:f}", "total_ms", b->total_ms, "kernel_ms", b->kernel_ms);
	double other = b->total_ms - budget_sum(b);

	for (int i = 0; o && i < WL_PHASES; i++)
		json_object_set_new(o, names[i], json_real(b->ms[i]));
	if (o) {
		json_object_set_new(o, "other_ms", json_real(other > 0 ? other : 0));
		json_object_set_new(o, "inputs_made", json_integer(b->inputs_made));
	}
	return o;
}
