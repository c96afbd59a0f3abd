/* A CUDA device's launches waiting for their counters (see cuda_counts.h). */
#include "cuda_counts.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"
#include "cupti_counters.h"
#include "time_budget.h"

/* One launch to profile, a copy of its call (whose params are made at
 * launch: the copy moves when the list grows). */
struct waiting {
	struct wl_cuda_call call;
	cl_uint dims;
	size_t global[3], local[3];
	CUdeviceptr flush;		/* filled before the launch (cold), or 0 */
	size_t flush_bytes;
	int warm;			/* an unprofiled launch first (hot) */
	double kernel_ms;
	char *extra;
	size_t extra_len;
};

/* A buffer its owner released while a waiting launch reads it. */
struct kept {
	CUdeviceptr ptr;
	size_t bytes;
};

struct wl_cuda_counts {
	struct waiting *w;
	size_t n, cap;
	struct kept *k;
	size_t nk, capk, kept_bytes;
	double first_ms;		/* when the first of them was left */
};

void wl_counts_extra(const double *values, const char *why, char *extra, size_t len)
{
	json_t *o = values ? json_pack("{s:o}", "counters", wl_counters_json(values)) :
		json_pack("{s:s}", "counters_error", why);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	extra[0] = '\0';
	if (text && strlen(text) < len)
		memcpy(extra, text, strlen(text) + 1);
	free(text);
	json_decref(o);
}

/* Whether a and b read and write the same buffers: then the one profiled
 * just before the other has left the cache as a launch of its own would. */
static int same_buffers(const struct wl_cuda_call *a, const struct wl_cuda_call *b)
{
	return a->nbuffers == b->nbuffers && memcmp(a->buffers, b->buffers, sizeof(a->buffers[0]) * (size_t)a->nbuffers) == 0;
}

int wl_cuda_count_later(struct wl_cuda_device *cd, const struct wl_launch *l, const struct wl_flush *flush,
			double median_ms, char *extra, size_t len, struct wl_error *err)
{
	struct wl_cuda_counts *c = cd->counts;
	struct waiting *w;

	if (!c && !(c = cd->counts = calloc(1, sizeof(*c))))
		goto oom;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct waiting *grown = realloc(c->w, cap * sizeof(*grown));

		if (!grown)
			goto oom;
		c->w = grown;
		c->cap = cap;
	}
	w = &c->w[c->n];
	*w = (struct waiting){ .call = *l->cuda, .dims = l->dims, .kernel_ms = median_ms, .extra = extra,
			       .extra_len = len };
	memcpy(w->global, l->global, sizeof(w->global));
	memcpy(w->local, l->local, sizeof(w->local));
	if (flush && flush->buf.cu) {
		w->flush = flush->buf.cu;
		w->flush_bytes = flush->bytes;
	} else {
		/* A hot launch is profiled with the cache as its timed ones
		 * found it: after itself, or after the waiting launch before
		 * it where that one used the same buffers (the point's
		 * variants, mostly). A long kernel warms nothing it needs. */
		w->warm = median_ms < WL_WARM_AFTER_MS && !(c->n > 0 && !c->w[c->n - 1].flush &&
							   same_buffers(&c->w[c->n - 1].call, l->cuda));
	}
	if (c->n++ == 0)
		c->first_ms = wl_now_ms();
	return 0;
oom:
	wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
	return -1;
}

size_t wl_cuda_counts_waiting(const struct wl_cuda_device *cd)
{
	return cd->counts ? cd->counts->n : 0;
}

size_t wl_cuda_counts_held(const struct wl_cuda_device *cd)
{
	return cd->counts ? cd->counts->kept_bytes : 0;
}

int wl_cuda_counts_due(const struct wl_cuda_device *cd, size_t held_max)
{
	const struct wl_cuda_counts *c = cd->counts;

	return c && c->n && (c->n >= WL_COUNTS_MAX || c->kept_bytes > held_max ||
			     wl_now_ms() - c->first_ms >= WL_COUNTS_EVERY_MS);
}

long long wl_cuda_counts_seconds(const struct wl_cuda_device *cd)
{
	const struct wl_cuda_counts *c = cd->counts;
	double ms = 0;

	for (size_t i = 0; c && i < c->n; i++)
		ms += c->w[i].kernel_ms * (c->w[i].warm ? 2 : 1);
	/* Passes: 4 on an H100; room for twice as many, and for the driver. */
	return 10 + (long long)(8 * ms / 1000);
}

int wl_cuda_counts_keep(struct wl_cuda_device *cd, unsigned long long ptr, size_t bytes)
{
	struct wl_cuda_counts *c = cd->counts;
	int read = 0;

	for (size_t i = 0; c && i < c->n && !read; i++) {
		read = c->w[i].flush == ptr;
		for (int b = 0; b < c->w[i].call.nbuffers && !read; b++)
			read = c->w[i].call.buffers[b] == ptr;
	}
	if (!read)
		return 0;
	if (c->nk == c->capk) {
		size_t cap = c->capk ? 2 * c->capk : 32;
		struct kept *grown = realloc(c->k, cap * sizeof(*grown));

		/* Without room to remember it, the buffer is freed now and
		 * the launches that read it are given up. */
		if (!grown) {
			wl_cuda_counts_drop(cd, "not profiled: out of memory", 0);
			return 0;
		}
		c->k = grown;
		c->capk = cap;
	}
	c->k[c->nk++] = (struct kept){ ptr, bytes };
	c->kept_bytes += bytes;
	return 1;
}

/* Free the kept buffers (unless the context took them) and forget every
 * waiting launch. */
static void clear(struct wl_cuda_device *cd, int context_lost)
{
	struct wl_cuda_counts *c = cd->counts;

	if (!context_lost && c->nk && cu.lib) {
		cu.ctx_set(cd->context);
		for (size_t i = 0; i < c->nk; i++)
			cu.mem_free(c->k[i].ptr);
	}
	c->n = c->nk = c->kept_bytes = 0;
}

void wl_cuda_counts_drop(struct wl_cuda_device *cd, const char *why, int context_lost)
{
	struct wl_cuda_counts *c = cd->counts;

	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		wl_counts_extra(NULL, why, c->w[i].extra, c->w[i].extra_len);
	clear(cd, context_lost);
}

/* One session's share of the waiting launches: from first on. */
struct session {
	struct wl_cuda_device *cd;
	struct wl_cuda_counts *c;
	size_t first;
};

/* Launch w on the device's stream and wait for it. */
static int launch_waiting(struct wl_cuda_device *cd, const struct waiting *w)
{
	void *params[CALL_PARAMS_MAX];

	for (int p = 0; p < w->call.nparams; p++)
		params[p] = (void *)&w->call.words[p];
	return wl_cuda_launch_call(&w->call, params, w->dims, w->global, w->local, cd->stream) == 0 &&
		cu.stream_sync(cd->stream) == 0 ? 0 : -1;
}

/* Before launch i, outside its range: what came before its timed launches. */
static int prepare(void *arg, size_t i)
{
	const struct session *s = arg;
	const struct waiting *w = &s->c->w[s->first + i];

	if (w->flush)
		return cu.memset32(w->flush, 0x9E3779B9u, w->flush_bytes / 4, s->cd->stream) == 0 &&
			cu.stream_sync(s->cd->stream) == 0 ? 0 : -1;
	return w->warm ? launch_waiting(s->cd, w) : 0;
}

static int launch(void *arg, size_t i)
{
	const struct session *s = arg;

	return launch_waiting(s->cd, &s->c->w[s->first + i]);
}

void wl_cuda_counts_profile(struct wl_cuda_device *cd)
{
	struct wl_cuda_counts *c = cd->counts;
	double *values;
	char why[300];

	if (!c || !c->n)
		return;
	if (!wl_cuda_counters_ready(cd)) {
		wl_cuda_counts_drop(cd, cd->counters_why, 0);
		return;
	}
	if (!(values = malloc(WL_COUNTERS_RANGES_MAX * WL_COUNTERS * sizeof(*values)))) {
		wl_cuda_counts_drop(cd, "out of memory", 0);
		return;
	}
	/* A session holds WL_COUNTERS_RANGES_MAX ranges; more wait only when
	 * one point left many. */
	for (size_t first = 0; first < c->n; first += WL_COUNTERS_RANGES_MAX) {
		struct session s = { cd, c, first };
		size_t n = c->n - first < WL_COUNTERS_RANGES_MAX ? c->n - first : WL_COUNTERS_RANGES_MAX;
		int ok = wl_counters_profile_each(cd->counters, n, prepare, launch, &s, values, why, sizeof(why)) == 0;

		for (size_t i = 0; i < n; i++)
			wl_counts_extra(ok ? values + i * WL_COUNTERS : NULL, why, c->w[first + i].extra,
					c->w[first + i].extra_len);
	}
	free(values);
	clear(cd, 0);
}

void wl_cuda_counts_free(struct wl_cuda_counts *c)
{
	if (!c)
		return;
	free(c->w);
	free(c->k);
	free(c);
}
