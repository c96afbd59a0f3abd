/* A CUDA device's launches waiting for their counters (see cuda_counts.h). */
#include "cuda_counts.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"
#include "cupti_counters.h"
#include "clock.h"

/* One launch to profile, a copy of its call (whose params are made at
 * launch: the copy moves when the list grows). */
struct waiting {
	struct wl_cuda_call call;
	unsigned dims;
	size_t global[3], local[3];
	CUdeviceptr flush;		/* filled before the launch (cold), or 0 */
	size_t flush_bytes;
	int warm;			/* an unprofiled launch first (hot) */
	double kernel_ms;
	double left_ms;			/* when it was left */
	long long run_id, seq;
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
	struct wl_counted *s;		/* settled, to be written */
	size_t ns, caps;
};

void wl_counts_extra(const double *values, const char *why, char *extra, size_t len)
{
	json_t *o;
	char *text;

	if (!values) {
		wl_counts_error_extra(why, extra, len);
		return;
	}
	o = json_pack("{s:o}", "counters", wl_counters_json(values));
	text = o ? json_dumps(o, JSON_COMPACT) : NULL;
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

/* Grow *v (of *cap elements of size) to hold one more than n; -1 when out
 * of memory, *v left as it was. */
static int grow(void **v, size_t n, size_t *cap, size_t size, size_t first)
{
	void *grown;
	size_t want;

	if (n < *cap)
		return 0;
	want = *cap ? 2 * *cap : first;
	if (!(grown = realloc(*v, want * size)))
		return -1;
	*v = grown;
	*cap = want;
	return 0;
}

int wl_cuda_count_later(struct wl_cuda_device *cd, const struct wl_launch *l, const struct wl_flush *flush,
			double median_ms, long long run_id, long long seq, struct wl_error *err)
{
	struct wl_cuda_counts *c = cd->counts;
	struct waiting *w;

	if (!c && !(c = cd->counts = calloc(1, sizeof(*c))))
		goto oom;
	if (grow((void **)&c->w, c->n, &c->cap, sizeof(*c->w), 64) < 0)
		goto oom;
	w = &c->w[c->n];
	*w = (struct waiting){ .call = *(const struct wl_cuda_call *)l->handle, .dims = l->dims, .kernel_ms = median_ms, .left_ms = wl_now_ms(),
			       .run_id = run_id, .seq = seq };
	memcpy(w->global, l->global, sizeof(w->global));
	memcpy(w->local, l->local, sizeof(w->local));
	if (flush && flush->buf.handle) {
		w->flush = flush->buf.handle;
		w->flush_bytes = flush->bytes;
	} else {
		/* A hot launch is profiled with the cache as its timed ones
		 * found it: after itself, or after the waiting launch before
		 * it where that one used the same buffers (the point's
		 * variants, mostly). A long kernel warms nothing it needs. */
		w->warm = median_ms < WL_WARM_AFTER_MS && !(c->n > 0 && !c->w[c->n - 1].flush &&
							   same_buffers(&c->w[c->n - 1].call, l->handle));
	}
	c->n++;
	return 0;
oom:
	wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
	return -1;
}

size_t wl_cuda_counts_waiting(const struct wl_cuda_device *cd, long long run_id)
{
	const struct wl_cuda_counts *c = cd->counts;
	size_t n = 0;

	if (!c || run_id == 0)
		return c ? c->n : 0;
	for (size_t i = 0; i < c->n; i++)
		n += c->w[i].run_id == run_id;
	return n;
}

size_t wl_cuda_counts_held(const struct wl_cuda_device *cd)
{
	return cd->counts ? cd->counts->kept_bytes : 0;
}

int wl_cuda_counts_due(const struct wl_cuda_device *cd, size_t held_max)
{
	const struct wl_cuda_counts *c = cd->counts;

	return c && c->n && (c->n >= WL_COUNTS_PILE || c->kept_bytes > held_max ||
			     wl_now_ms() - c->w[0].left_ms >= WL_COUNTS_WAIT_MS);
}

long long wl_cuda_counts_seconds(const struct wl_cuda_device *cd, size_t max)
{
	const struct wl_cuda_counts *c = cd->counts;
	double ms = 0, sessions = 0;

	for (size_t i = 0; c && i < c->n && i < max; i++) {
		ms += c->w[i].kernel_ms * (c->w[i].warm ? 2 : 1);
		sessions += i % WL_COUNTS_MAX == 0;
	}
	/* Passes: 4 on an H100; room for twice as many, and for the driver
	 * (a second per session). */
	return 9 + (long long)sessions + (long long)(8 * ms / 1000);
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
	/* Without room to remember it, the buffer is freed now and the
	 * launches that read it are given up. */
	if (grow((void **)&c->k, c->nk, &c->capk, sizeof(*c->k), 32) < 0) {
		wl_cuda_counts_drop(cd, "not profiled: out of memory", 0, 0);
		return 0;
	}
	c->k[c->nk++] = (struct kept){ ptr, bytes };
	c->kept_bytes += bytes;
	return 1;
}

/* Whether a waiting launch reads ptr. */
static int still_read(const struct wl_cuda_counts *c, CUdeviceptr ptr)
{
	for (size_t i = 0; i < c->n; i++) {
		if (c->w[i].flush == ptr)
			return 1;
		for (int b = 0; b < c->w[i].call.nbuffers; b++)
			if (c->w[i].call.buffers[b] == ptr)
				return 1;
	}
	return 0;
}

/* Free the kept buffers no waiting launch reads (forget them only, where
 * the context took them). */
static void free_unread(struct wl_cuda_device *cd, int context_lost)
{
	struct wl_cuda_counts *c = cd->counts;
	size_t kept = 0;

	if (c->nk && !context_lost && cu.lib)
		cu.ctx_set(cd->context);
	for (size_t i = 0; i < c->nk; i++) {
		if (!context_lost && still_read(c, c->k[i].ptr)) {
			c->k[kept++] = c->k[i];
			continue;
		}
		if (!context_lost && cu.lib)
			cu.mem_free(c->k[i].ptr);
		c->kept_bytes -= c->k[i].bytes;
	}
	c->nk = kept;
}

/* Settle waiting launch i with extra (NULL: forget it); 0, or -1 when out
 * of memory (it is then forgotten). */
static int settle(struct wl_cuda_counts *c, size_t i, const char *extra, double ms)
{
	struct wl_counted *s;

	if (!extra)
		return 0;
	if (grow((void **)&c->s, c->ns, &c->caps, sizeof(*c->s), 64) < 0)
		return -1;
	s = &c->s[c->ns++];
	*s = (struct wl_counted){ .run_id = c->w[i].run_id, .seq = c->w[i].seq, .ms = ms };
	snprintf(s->extra, sizeof(s->extra), "%s", extra);
	return 0;
}

void wl_cuda_counts_drop(struct wl_cuda_device *cd, const char *why, int context_lost, long long run_id)
{
	struct wl_cuda_counts *c = cd->counts;
	char extra[sizeof(((struct wl_counted *)0)->extra)];
	size_t left = 0;

	if (!c)
		return;
	if (why)
		wl_counts_extra(NULL, why, extra, sizeof(extra));
	for (size_t i = 0; i < c->n; i++) {
		if (run_id && c->w[i].run_id != run_id) {
			c->w[left++] = c->w[i];
			continue;
		}
		settle(c, i, why ? extra : NULL, 0);
	}
	c->n = left;
	free_unread(cd, context_lost);
}

size_t wl_cuda_counts_settled(const struct wl_cuda_device *cd, const struct wl_counted **out)
{
	*out = cd->counts ? cd->counts->s : NULL;
	return cd->counts ? cd->counts->ns : 0;
}

void wl_cuda_counts_forget(struct wl_cuda_device *cd, size_t n)
{
	struct wl_cuda_counts *c = cd->counts;

	if (!c || n == 0)
		return;
	if (n > c->ns)
		n = c->ns;
	memmove(c->s, c->s + n, (c->ns - n) * sizeof(*c->s));
	c->ns -= n;
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

/* Profile waiting launches [0, n) in sessions, settling each. */
static void profile_first(struct wl_cuda_device *cd, size_t n, double *values)
{
	struct wl_cuda_counts *c = cd->counts;
	char why[300], extra[sizeof(((struct wl_counted *)0)->extra)];

	for (size_t first = 0; first < n; first += WL_COUNTS_MAX) {
		struct session s = { cd, c, first };
		size_t m = n - first < WL_COUNTS_MAX ? n - first : WL_COUNTS_MAX;
		double started = wl_now_ms(), each;
		int ok = wl_counters_profile_each(cd->counters, m, prepare, launch, &s, values, why, sizeof(why)) == 0;

		each = (wl_now_ms() - started) / (double)m;
		for (size_t i = 0; i < m; i++) {
			wl_counts_extra(ok ? values + i * WL_COUNTERS : NULL, why, extra, sizeof(extra));
			settle(c, first + i, extra, each);
		}
	}
}

void wl_cuda_counts_profile(struct wl_cuda_device *cd, size_t max)
{
	struct wl_cuda_counts *c = cd->counts;
	double *values;
	size_t n;

	if (!c || !c->n)
		return;
	if (!wl_cuda_counters_ready(cd)) {
		wl_cuda_counts_drop(cd, cd->counters_why, 0, 0);
		return;
	}
	if (!(values = malloc(WL_COUNTS_MAX * WL_COUNTERS * sizeof(*values)))) {
		wl_cuda_counts_drop(cd, "not profiled: out of memory", 0, 0);
		return;
	}
	n = c->n < max ? c->n : max;
	profile_first(cd, n, values);
	free(values);
	memmove(c->w, c->w + n, (c->n - n) * sizeof(*c->w));
	c->n -= n;
	free_unread(cd, 0);
}

void wl_cuda_counts_free(struct wl_cuda_counts *c)
{
	if (!c)
		return;
	free(c->w);
	free(c->k);
	free(c->s);
	free(c);
}
