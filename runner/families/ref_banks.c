/* The reference of the banks experiment (kernels/banks.cl): groups x local
 * work-items each summing iters reads of local memory in its variant's
 * pattern (its host.output). Local memory holds each word's own index, so
 * the CPU forms each work-item's sum in the same order and the results must
 * agree bit for bit; every work-group computes the same, so one sum a local
 * id is the whole reference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "references.h"

struct banks_ref {
	size_t items, c, local, iters;
	float *want;		/* a sum a local id, for the variant being measured */
};

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

static void banks_release(void *ctx)
{
	struct banks_ref *b = ctx;

	if (b)
		free(b->want);
	free(b);
}

static int banks_prepare(const struct wl_ref_point *in, void **ctx, struct wl_error *err)
{
	struct banks_ref *b = calloc(1, sizeof(*b));

	if (!b) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	b->c = (size_t)wl_point_value(in->pt, "c");
	b->local = (size_t)wl_point_value(in->pt, "local");
	b->iters = (size_t)wl_point_value(in->pt, "iters");
	b->items = in->output->count;
	if (in->output->def->type.base != WL_ELEM_FLOAT || in->output->def->type.lanes != 1 || b->local == 0 ||
	    b->items % b->local != 0 || !(b->want = malloc(b->local * sizeof(float)))) {
		wl_error_set(err, WL_ERR_CONFIG, "reference 'banks': the output must be floats, a whole number of work-groups");
		banks_release(b);
		return -1;
	}
	*ctx = b;
	return 0;
}

static void banks_check(void *ctx, const struct wl_point *pt, const struct wl_variant_def *v, const void *got,
			struct wl_measurement *res)
{
	struct banks_ref *b = ctx;
	const float *output = got;
	size_t bad = 0, first = b->items;

	(void)pt;
	wl_banks_reference(v->host.output, b->c, b->local, b->iters, b->want);
	#pragma omp parallel for reduction(+ : bad) reduction(min : first) schedule(static) if (b->items > 65536)
	for (size_t k = 0; k < b->items; k++) {
		if (memcmp(&output[k], &b->want[k % b->local], sizeof(float)) != 0) {
			bad++;
			first = k < first ? k : first;
		}
	}
	res->verified = bad == 0;
	if (bad)
		snprintf(res->error, sizeof(res->error),
			 "verification failed: %zu of %zu work-items summed wrongly; first %zu: %.9g, expected %.9g",
			 bad, b->items, first, (double)output[first], (double)b->want[first % b->local]);
}

static const char *const banks_outputs[] = { "stride", "broadcast", "struct", "soa", NULL };

/* What prepare reads of its point. */
static const char *const banks_reads[] = { "c", "local", "iters", NULL };

const struct wl_reference wl_ref_banks = {
	.name = "banks",
	.outputs = banks_outputs,
	.prepare = banks_prepare,
	.check = banks_check,
	.release = banks_release,
	.reads = banks_reads,
};
