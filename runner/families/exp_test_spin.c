/* A test-only experiment: one work-item spins until a flag it never sees set,
 * so a run of it hangs the device for good. warplab's tests use it to prove
 * that the supervisor stops a hung point and the runner serves the next run.
 * Only a runner started with --test-kernels accepts a catalog that lists it;
 * the repository's catalog does not. Its kernel is in tests/fixtures/. */
#include <stdlib.h>

#include "experiments.h"

struct spin_state {
	struct wl_buf flag, out;	/* the flag stays 0; out is what gets poisoned */
};

static void spin_teardown(void *state)
{
	struct spin_state *s = state;

	if (!s)
		return;
	wl_buf_release(&s->flag);
	wl_buf_release(&s->out);
	free(s);
}

static int spin_setup(const struct wl_point *pt, void **state, struct wl_error *err)
{
	struct spin_state *s = calloc(1, sizeof(*s));
	int32_t zero = 0;

	if (!s) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (wl_point_buffer(pt, WL_BUF_SCRATCH, sizeof(zero), &zero, &s->flag, err) < 0 ||
	    wl_point_buffer(pt, WL_BUF_SCRATCH, sizeof(zero), NULL, &s->out, err) < 0) {
		spin_teardown(s);
		return -1;
	}
	*state = s;
	return 0;
}

static int spin_measure(const struct wl_point *pt, void *state, const struct wl_variant_def *v,
			struct wl_measurement *res, struct wl_error *err)
{
	struct spin_state *s = state;
	const struct wl_arg_buffer buffers[] = { { .name = "flag", .mem = &s->flag }, { .name = "out", .mem = &s->out } };
	struct wl_launch l = { 0 };
	const void *output;
	int rc;

	if (wl_point_prepare(pt, v, "", buffers, 2, &l, err) < 0)
		return -1;
	rc = wl_point_run(pt, &l, &s->out, sizeof(int32_t), &output, res, err);
	wl_launch_release(&l);
	return rc < 0 ? -1 : 0;
}


const struct wl_experiment_ops wl_exp_test_spin = {
	.id = "test_spin",
	.setup = spin_setup,
	.measure = spin_measure,
	.teardown = spin_teardown,
};
