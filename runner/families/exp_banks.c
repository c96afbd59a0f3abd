/* Host side of the banks experiment (kernels/banks.cl): groups x local
 * work-items each summing iters reads of local memory in its variant's pattern.
 * Local memory holds each word's own index, so the CPU can form each
 * work-item's sum in the same order and the results must agree bit for bit (one
 * reference per local id: every work-group computes the same). The server
 * reports the slowdown against c = 1 beside the conflict degree the catalog's
 * declared accesses predict (warp_model.h). Operations: the local reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"

struct banks_state {
	size_t c, local, groups, iters;
	const float *output;	/* the last read-back, in the device's staging memory */
	float *want;
	struct wl_buf out;
};

static void banks_teardown(void *state)
{
	struct banks_state *s = state;

	if (!s)
		return;
	wl_buf_release(&s->out);
	free(s->want);
	free(s);
}

static int banks_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct banks_state *s = calloc(1, sizeof(*s));

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	s->c = (size_t)wl_point_value(pt, "c");
	s->local = (size_t)wl_point_value(pt, "local");
	s->groups = (size_t)wl_point_value(pt, "groups");
	s->iters = (size_t)wl_point_value(pt, "iters");
		s->want = malloc(s->local * sizeof(float));
	if (!s->want) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of host memory");
		goto fail;
	}
	if (wl_point_buffer(pt, WL_BUF_OUT, s->groups * s->local * sizeof(float), NULL, &s->out,
			    err) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	banks_teardown(s);
	return -1;
}

void wl_banks_reference(const char *pattern, size_t c, size_t local, size_t iters, float *want)
{
	enum { STRIDE, BROADCAST, STRUCT, SOA } kind = strcmp(pattern, "stride") == 0 ? STRIDE
		: strcmp(pattern, "broadcast") == 0 ? BROADCAST
		: strcmp(pattern, "struct") == 0 ? STRUCT : SOA;

#pragma omp parallel for schedule(static) if (local * iters > 65536)
	for (size_t lid = 0; lid < local; lid++) {
		float acc = 0.0f;
		size_t f = 0;

		for (size_t it = 0; it < iters; it++) {
			size_t word;

			if (kind == STRIDE)
				word = lid * c;
			else if (kind == BROADCAST)
				word = lid % c;
			else if (kind == STRUCT)
				word = lid * c + f;
			else
				word = f * local + lid;
			acc += (float)(word + (it & 31));
			f = f + 1 == c ? 0 : f + 1;
		}
		want[lid] = acc;
	}
}

/* The work-group size is a compile-time constant of the kernels. */
static void banks_options(const struct wl_point *pt, char *out, size_t len)
{
	snprintf(out, len, "-D LOCAL_SIZE=%zu", (size_t)wl_point_value(pt, "local"));
}

static int banks_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			 struct wl_measurement *res, struct wl_error *err)
{
	struct banks_state *s = state;
	size_t items = s->groups * s->local, bad = 0, first = 0;
	const struct wl_arg_buffer buffers[] = { { .name = "out", .mem = &s->out } };
	struct wl_launch l = { 0 };
	char options[64];
	int rc = -1;

	banks_options(pt, options, sizeof(options));
	if (wl_point_prepare(pt, v, options, buffers, 1, &l, err) < 0)
		return -1;
	rc = wl_point_run(pt, &l, &s->out, items * sizeof(float), (const void **)&s->output, res, err);
	if (rc <= 0)
		goto out;
	wl_banks_reference(v->host.output, s->c, s->local, s->iters, s->want);
	first = items;
#pragma omp parallel for reduction(+ : bad) reduction(min : first) schedule(static) if (items > 65536)
	for (size_t k = 0; k < items; k++) {
		if (memcmp(&s->output[k], &s->want[k % s->local], sizeof(float)) != 0) {
			bad++;
			first = k < first ? k : first;
		}
	}
	res->verified = bad == 0;
	if (bad)
		snprintf(res->error, sizeof(res->error),
			 "verification failed: %zu of %zu work-items summed wrongly; first %zu: %.9g, expected %.9g",
			 bad, items, first, (double)s->output[first], (double)s->want[first % s->local]);
out:
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}

static const char *const banks_buffers[] = { "out", NULL };
static const char *const banks_outputs[] = { "stride", "broadcast", "struct", "soa", NULL };

const struct wl_experiment_ops wl_exp_banks = {
	.id = "banks",
	.buffers = banks_buffers,
	.outputs = banks_outputs,
	.setup = banks_setup,
	.measure = banks_measure,
	.teardown = banks_teardown,
	.options = banks_options,
};
