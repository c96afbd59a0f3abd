/* An experiment as GET /api/experiments shows it (see catalog_json.h): what a
 * client needs to build a request form and to read a run, without the parsed
 * formulas. */
#include "catalog_json.h"

static json_t *param_to_json(const struct wl_experiment *exp, const struct wl_param_def *p)
{
	json_t *o = json_pack("{s:s, s:I, s:I, s:O}", "type", "int", "min", (json_int_t)p->min,
			      "max", (json_int_t)p->max, "default", p->default_spec);

	if (!o)
		return NULL;
	if (p->title)
		json_object_set_new(o, "title", json_string(p->title));
	if (p->pow2)
		json_object_set_new(o, "pow2", json_true());
	if (p->multiple_of)
		json_object_set_new(o, "multiple_of", json_integer(p->multiple_of));
	else if (p->multiple_of_param >= 0)
		json_object_set_new(o, "multiple_of",
				    json_string(exp->params[p->multiple_of_param].name));
	return o;
}

json_t *wl_experiment_to_json(const struct wl_experiment *e)
{
	json_t *variants = json_array(), *params = json_object(), *o;

	for (size_t v = 0; v < e->nvariants; v++) {
		const struct wl_variant_def *d = &e->variants[v];
		const char *launch = d->launch ? d->launch : e->launch;

		json_array_append_new(
			variants, json_pack("{s:s, s:s, s:s, s:s, s:s, s:O?, s:O?}", "id", d->id,
					    "title", d->title ? d->title : d->id, "note",
					    d->note ? d->note : "", "kernel", d->kernel,
					    "launch", launch ? launch : "", "host", d->host.shown,
					    "model", d->model ? d->model->shown : NULL));
	}
	for (size_t p = 0; p < e->nparams; p++)
		json_object_set_new(params, e->params[p].name, param_to_json(e, &e->params[p]));
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s, s:b}", "id", e->id, "title",
		      e->title, "lesson", e->lesson, "summary", e->summary, "seed", e->seed,
		      "variants", variants,
		      "params", params, "metric", wl_metric_name(e->metric), "fp64",
		      e->needs_fp64);
	if (o && e->drops_param >= 0)
		json_object_set_new(o, "drops",
				    json_pack("{s:s, s:f}", "param",
					      e->params[e->drops_param].name, "threshold",
					      e->drops_threshold));
	if (o && e->after)
		json_object_set_new(o, "after", json_string(e->after));
	if (o && e->reference >= 0)
		json_object_set_new(o, "reference", json_string(e->variants[e->reference].id));
	if (o && e->baseline_param >= 0)
		json_object_set_new(o, "baseline",
				    json_pack("{s:s, s:I}", "param",
					      e->params[e->baseline_param].name, "value",
					      (json_int_t)e->baseline_value));
	return o;
}
