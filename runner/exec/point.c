/* Helpers the experiment files share: building a kernel, buffers, poisoning,
 * timing a launch into a measurement, handing the output to verification. */
#include "point.h"

#include "backend.h"
#include "checker.h"
#include "energy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct wl_kernel_site wl_point_site(const struct wl_point *pt)
{
	return (struct wl_kernel_site){ .dev = pt->dev, .programs = pt->programs, .source = pt->source,
					.family = pt->family, .like_kernel = pt->like_kernel, .variant = pt->variant };
}

long long wl_point_value(const struct wl_point *pt, const char *name)
{
	int p = wl_experiment_param(pt->exp, name);

	return p >= 0 ? pt->values[p] : 0;
}

int wl_point_kernel(const struct wl_point *pt, const char *options, const char *name, struct wl_launch *l,
		    struct wl_error *err)
{
	const struct wl_kernel_site site = wl_point_site(pt);
	double started = wl_now_ms();
	int rc = pt->backend->kernel(&site, options, name, l, err);

	wl_budget_add(pt->budget, WL_PHASE_BUILD, started);
	return rc;
}

int wl_point_buffer(const struct wl_point *pt, enum wl_buf_role role, size_t bytes,
		    const void *init, struct wl_buf *out, struct wl_error *err)
{
	double started = wl_now_ms();
	int rc = pt->backend->buffer(pt->dev, role, bytes, init, out, err);

	wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
	return rc;
}

int wl_point_poison(const struct wl_point *pt, const struct wl_buf *buf, size_t bytes, struct wl_error *err)
{
	double started = wl_now_ms();
	int rc = pt->backend->fill(pt->dev, buf, 0xFFFFFFFFu, bytes, err);

	wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
	return rc;
}

int wl_point_read(const struct wl_point *pt, const struct wl_buf *buf, size_t bytes, void *out,
		  struct wl_error *err)
{
	double started = wl_now_ms();
	int rc = pt->backend->read(pt->dev, buf, bytes, out, err);

	wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
	return rc;
}

int wl_warm_known(const struct wl_warm_kernels *w, const char *variant)
{
	for (size_t i = 0; w && variant && i < w->count; i++)
		if (strcmp(w->names[i], variant) == 0)
			return 1;
	return 0;
}

void wl_warm_note(struct wl_warm_kernels *w, const char *variant, double median_ms)
{
	if (w && variant && median_ms >= WL_WARM_AFTER_MS && !wl_warm_known(w, variant) && w->count < WL_WARM_MAX)
		w->names[w->count++] = variant;
}

int wl_point_once(const struct wl_point *pt, const struct wl_launch *l, double *ms, int *refused,
		  struct wl_error *err)
{
	const struct wl_kernel_site site = wl_point_site(pt);
	int rc;

	*refused = 0;
	if (pt->arm)
		pt->arm(pt->arm_ctx, 1, pt->probe_s);
	rc = pt->backend->time(&site, l, 0, 1, NULL, ms, refused, err);
	if (pt->arm)
		pt->arm(pt->arm_ctx, 0, pt->point_s);
	return rc;
}

int wl_point_time(const struct wl_point *pt, const struct wl_launch *l,
		  struct wl_measurement *res, struct wl_error *err)
{
	const struct wl_sampling fixed = { .min_samples = (size_t)pt->repeat,
					   .max_samples = (size_t)pt->repeat, .target = 0,
					   .budget_ms = 1e300 };
	const struct wl_sampling *rule = pt->sampling ? pt->sampling : &fixed;
	const struct wl_kernel_site site = wl_point_site(pt);
	size_t max = (size_t)pt->repeat, n = 0;
	size_t group = 1;
	long long warmup = wl_warm_known(pt->warm, pt->variant) ? 0 : pt->warmup;
	double *samples, started = wl_now_ms();
	enum wl_stop stop = WL_STOP_MORE;
	int rc = 0, refused = 0;

	/* No check against CL_KERNEL_WORK_GROUP_SIZE: NVIDIA's driver reports 256
	 * for every kernel and launches 1024 (bench/cl-workgroup-probe.c). The
	 * launch itself says whether the size is refused. */
	for (unsigned d = 0; d < l->dims; d++)
		group *= l->local[d];
	if (max > WL_REPEAT_MAX)
		max = WL_REPEAT_MAX;
	samples = calloc(max, sizeof(*samples));
	if (!samples) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	/* Someone else's kernel's first launch is a warm-up under a deadline
	 * of its own: one that never ends holds the device seconds, not the
	 * point's minutes. */
	if (pt->arm) {
		double first;

		rc = wl_point_once(pt, l, &first, &refused, err);
		if (warmup > 0)
			warmup--;
	}
	/* Batches: first the least the rule judges on, then half as many again
	 * as there are, so a point that converges early stops early and one that
	 * does not costs few judgements. */
	while (rc == 0 && stop == WL_STOP_MORE) {
		size_t batch = n == 0 ? rule->min_samples : n / 2;

		if (batch < 1)
			batch = 1;
		if (batch > max - n)
			batch = max - n;
		rc = pt->backend->time(&site, l, n == 0 ? warmup : 0, (long long)batch, pt->flush, samples + n, &refused,
				       err);
		if (rc < 0)
			break;
		/* A batch the GPU ran while capping its clocks is not the kernel's
		 * speed: drop it (up to four times the most samples, so a GPU that
		 * stays capped still gets measured, and says so). */
		if (wl_device_throttled(pt->dev) &&
		    res->discarded + (long long)batch <= 4 * (long long)max) {
			res->discarded += (long long)batch;
			continue;
		}
		n += batch;
		/* A cancelled run does not wait for the rest of its point. */
		if (pt->cancelled && pt->cancelled(pt->cancel_ctx)) {
			wl_error_set(err, WL_ERR_CONFLICT, "the run was cancelled");
			rc = -1;
			break;
		}
		stop = wl_sampling_verdict(rule, samples, n, wl_now_ms() - started);
		if (n == max && stop == WL_STOP_MORE)
			stop = WL_STOP_MAX;
	}
	if (rc < 0 && refused) {
		/* Refused before it ran: the queue is intact, only this point fails. */
		snprintf(res->error, sizeof(res->error),
			 "%s refused work-groups of %zu work-items for this kernel (%s)",
			 pt->dev->id, group, pt->backend->refused_name);
		wl_error_clear(err);
		rc = 0;
	} else if (rc == 0 && wl_stats_summary(samples, n, &res->stats) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		rc = -1;
	} else if (rc == 0) {
		res->reps = (long long)n;
		res->stop = stop;
		wl_warm_note(pt->warm, pt->variant, res->stats.median);
		for (size_t i = 0; i < n; i++) {
			res->samples[i] = (float)samples[i];
			if (pt->budget)
				pt->budget->kernel_ms += samples[i];
		}
	}
	free(samples);
	wl_budget_add(pt->budget, WL_PHASE_LAUNCH, started);
	return rc;
}

int wl_point_staging(const struct wl_point *pt, unsigned slot, size_t bytes, void **ptr, struct wl_error *err)
{
	double started;
	int rc;

	if (pt->checker) {
		size_t size;
		void *held = pt->backend->staging_now(pt->dev, slot, &size);

		wl_checker_wait_reading(pt->checker, held, size);
	}
	started = wl_now_ms();
	rc = pt->backend->staging(pt->dev, slot, bytes, ptr, err);
	wl_budget_add(pt->budget, WL_PHASE_TRANSFER, started);
	return rc;
}

int wl_point_run(const struct wl_point *pt, const struct wl_launch *l, const struct wl_buf *out, size_t bytes,
		 const void **host, struct wl_measurement *res, struct wl_error *err)
{
	void *staging;
	unsigned slot;

	if (wl_point_poison(pt, out, bytes, err) < 0 || wl_point_time(pt, l, res, err) < 0)
		return -1;
	if (res->error[0])
		return 0;
	/* Pinned memory kept between points: the read is a DMA at the bus's
	 * speed, into pages that are already there. The slots alternate, so the
	 * previous variant's output may still be checked; the one before it has
	 * been (its wait counts as verification). */
	slot = pt->dev->staging_turn++ & 1;
	if (wl_point_staging(pt, slot, bytes, &staging, err) < 0 || wl_point_read(pt, out, bytes, staging, err) < 0)
		return -1;
	*host = staging;
	return wl_point_extras(pt, l, res, err) < 0 ? -1 : 1;
}

int wl_point_extras(const struct wl_point *pt, const struct wl_launch *l, struct wl_measurement *res,
		    struct wl_error *err)
{
	double started;

	if (pt->backend->count && !pt->uncounted) {
		const struct wl_kernel_site site = wl_point_site(pt);
		const struct wl_count_ask ask = { .run_id = pt->run_id, .seq = pt->result_seq,
						  .median_ms = res->stats.median, .flush = pt->flush,
						  .later = pt->count_later };

		started = wl_now_ms();
		pt->backend->count(&site, l, &ask, res->extra, sizeof(res->extra));
		wl_budget_add(pt->budget, WL_PHASE_COUNTERS, started);
	}
	if (pt->energy) {
		const struct wl_kernel_site ks = wl_point_site(pt);
		const struct wl_energy_site site = { &ks, pt->backend, pt->dev, pt->budget };

		if (wl_energy_measure(&site, l, res->stats.median, res->energy, sizeof(res->energy), err) < 0)
			return -1;
	}
	return 0;
}

void wl_point_verify(const struct wl_point *pt, const struct wl_exact_check *job,
		     struct wl_measurement *res)
{
	if (pt->checker)
		wl_checker_start(pt->checker, job, res);
	else
		res->verified = wl_exact_check_run(job, res);
}
