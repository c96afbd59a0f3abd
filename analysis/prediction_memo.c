/* The prediction memo (see prediction_memo.h). Entries live in an array in
 * the order they were asked for, which is also the queue: the thread computes
 * entry next_job, then the one after. A jansson object maps each key to its
 * place. The memo starts afresh when it is full and every entry has been
 * computed; a full memo with work still queued takes no new jobs until then
 * (their asks stay pending). The thread starts with the first ask. */
#include "prediction_memo.h"
#include "clock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog_load.h"
#include "source.h"

struct entry {
	enum wl_memo_state state;
	struct wl_prediction p;
	char error[256];
	/* The job, until it is done. */
	const struct wl_experiment *exp;
	const struct wl_model *model;
	const struct wl_variant_def *like;
	json_t *accesses;		/* owned */
	long long *values;		/* owned */
	int lanes;
	/* An experiment of one's own (the ask's definition): its copy, owned,
	 * and the ids of the variant and the like variant, read again from it
	 * for the job (exp, model and like are then NULL: the asker's reading
	 * is gone by the time the job runs). */
	json_t *definition;
	char *variant, *like_id;
};

static struct {
	pthread_once_t once;
	pthread_mutex_t lock;
	pthread_cond_t queued, done;
	json_t *index;			/* key -> place in entries */
	struct entry **entries;
	size_t n, next_job;
	int running;			/* the thread started */
	int quit;			/* wl_memo_stop asks the thread to end */
} memo = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER,
	   .queued = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER };

void wl_memo_ask_set(struct wl_memo_ask *ask)
{
	int used;

	if (ask->model) {
		used = snprintf(ask->key, sizeof(ask->key), "%s|b%s", ask->exp->id, ask->variant);
	} else {
		char *text = json_dumps(ask->accesses, JSON_COMPACT | JSON_SORT_KEYS);

		used = snprintf(ask->key, sizeof(ask->key), "%s|c%s|%016llx", ask->exp->id, ask->like->id,
				text ? (unsigned long long)wl_fnv1a64(text, strlen(text)) : 0ULL);
		free(text);
	}
	/* Two users' own experiments may share an id, not their definitions. */
	if (ask->definition && used > 0 && (size_t)used < sizeof(ask->key)) {
		char *text = json_dumps(ask->definition, JSON_COMPACT | JSON_SORT_KEYS);

		used += snprintf(ask->key + used, sizeof(ask->key) - (size_t)used, "|d%016llx",
				 text ? (unsigned long long)wl_fnv1a64(text, strlen(text)) : 0ULL);
		free(text);
	}
	for (size_t i = 0; i < ask->exp->nparams && used > 0 && (size_t)used < sizeof(ask->key); i++)
		used += snprintf(ask->key + used, sizeof(ask->key) - (size_t)used, "|%lld", ask->values[i]);
	if (used > 0 && (size_t)used < sizeof(ask->key))
		snprintf(ask->key + used, sizeof(ask->key) - (size_t)used, "|%d", ask->lanes);
}

/* Read e's own experiment again into *own and point e's job into it; -1
 * with err where it no longer reads (it did when asked). */
static int read_own(struct entry *e, struct wl_experiment *own, struct wl_error *err)
{
	const struct wl_variant_def *def;

	if (wl_experiment_load_own(e->definition, own, err) < 0)
		return -1;
	e->exp = own;
	def = e->variant ? wl_experiment_variant(own, e->variant, NULL) : NULL;
	e->model = def ? def->model : NULL;
	e->like = e->like_id ? wl_experiment_variant(own, e->like_id, NULL) : NULL;
	if ((e->variant && !e->model) || (e->like_id && !e->like)) {
		wl_error_set(err, WL_ERR_INTERNAL, "variant %s of %s not found", e->variant ? e->variant : e->like_id,
			     own->id);
		return -1;
	}
	return 0;
}

/* What e's own experiment's job held, freed once it is done or forgotten. */
static void job_free(struct entry *e)
{
	json_decref(e->definition);
	e->definition = NULL;
	free(e->variant);
	free(e->like_id);
	e->variant = e->like_id = NULL;
}

/* Compute e (the lock not held). */
static void compute(struct entry *e)
{
	struct wl_model *parsed = NULL;
	struct wl_experiment own = { 0 };
	const struct wl_model *m;
	struct wl_error err = { 0 };
	int rc = -1, mine = e->definition != NULL;

	if (mine && read_own(e, &own, &err) < 0)
		goto done;
	m = e->model;
	if (!m) {
		json_t *obj = json_pack("{s:O}", "accesses", e->accesses);

		if (obj && wl_experiment_model(e->exp, e->like, obj, "accesses", &parsed, &err) == 0)
			m = parsed;
		else if (!obj)
			wl_error_set(&err, WL_ERR_INTERNAL, "out of memory");
		json_decref(obj);
	}
	if (m)
		rc = wl_model_predict(m, e->values, (int)e->exp->nparams, e->lanes, wl_monotonic_s() + WL_MEMO_PREDICT_S,
				      &e->p, &err);
done:
	wl_model_free(parsed);
	if (mine) {
		e->exp = NULL;
		e->model = NULL;
		e->like = NULL;
		if (own.id)
			wl_experiment_clear(&own);
	}
	pthread_mutex_lock(&memo.lock);
	e->state = rc == 0 ? WL_MEMO_DONE : WL_MEMO_FAILED;
	if (rc < 0)
		snprintf(e->error, sizeof(e->error), "%.255s", err.msg);
	json_decref(e->accesses);
	e->accesses = NULL;
	free(e->values);
	e->values = NULL;
	job_free(e);
	pthread_cond_broadcast(&memo.done);
	pthread_mutex_unlock(&memo.lock);
}

static void *memo_main(void *arg)
{
	(void)arg;
	for (;;) {
		struct entry *e;

		pthread_mutex_lock(&memo.lock);
		while (memo.next_job >= memo.n && !memo.quit)
			pthread_cond_wait(&memo.queued, &memo.lock);
		if (memo.quit) {
			memo.running = 0;
			pthread_cond_broadcast(&memo.done);
			pthread_mutex_unlock(&memo.lock);
			return NULL;
		}
		e = memo.entries[memo.next_job++];
		pthread_mutex_unlock(&memo.lock);
		compute(e);
	}
	return NULL;
}

static void memo_init(void)
{
	memo.index = json_object();
	memo.entries = calloc(WL_MEMO_ENTRIES, sizeof(*memo.entries));
}

/* The thread, started where it is not running (at the first ask, and again
 * after wl_memo_stop). Lock held. */
static void start(void)
{
	pthread_t thread;

	if (memo.running || !memo.index || !memo.entries)
		return;
	if (pthread_create(&thread, NULL, memo_main, NULL) == 0) {
		pthread_detach(thread);
		memo.running = 1;
	}
}

/* Start afresh: every entry freed, with the job of one not computed. Lock
 * held. */
static void wipe(void)
{
	for (size_t i = 0; i < memo.n; i++) {
		json_decref(memo.entries[i]->accesses);
		free(memo.entries[i]->values);
		job_free(memo.entries[i]);
		free(memo.entries[i]);
	}
	memo.n = memo.next_job = 0;
	json_object_clear(memo.index);
}

void wl_memo_stop(void)
{
	pthread_mutex_lock(&memo.lock);
	if (memo.running) {
		memo.quit = 1;
		pthread_cond_broadcast(&memo.queued);
		while (memo.running)
			pthread_cond_wait(&memo.done, &memo.lock);
		memo.quit = 0;
	}
	/* The jobs left point into the catalog being freed. */
	if (memo.index)
		wipe();
	pthread_mutex_unlock(&memo.lock);
}

/* The entry of ask, queued when missing; NULL when the memo cannot take it.
 * Lock held. */
static struct entry *find_or_queue(const struct wl_memo_ask *ask)
{
	json_t *at = json_object_get(memo.index, ask->key);
	struct entry *e;

	if (at)
		return memo.entries[json_integer_value(at)];
	if (memo.n == WL_MEMO_ENTRIES && memo.next_job == memo.n)
		wipe();
	if (memo.n == WL_MEMO_ENTRIES || !(e = calloc(1, sizeof(*e))))
		return NULL;
	e->values = malloc((ask->exp->nparams + 1) * sizeof(*e->values));
	if (!e->values || json_object_set_new(memo.index, ask->key, json_integer((json_int_t)memo.n)) < 0) {
		free(e->values);
		free(e);
		return NULL;
	}
	memcpy(e->values, ask->values, ask->exp->nparams * sizeof(*e->values));
	e->state = WL_MEMO_PENDING;
	e->exp = ask->exp;
	e->model = ask->model;
	e->like = ask->like;
	e->accesses = ask->model ? NULL : json_deep_copy(ask->accesses);
	e->lanes = ask->lanes;
	if (ask->definition) {
		e->definition = json_deep_copy(ask->definition);
		e->variant = ask->model && ask->variant ? strdup(ask->variant) : NULL;
		e->like_id = ask->like ? strdup(ask->like->id) : NULL;
		e->exp = NULL;
		e->model = NULL;
		e->like = NULL;
		if (!e->definition || (ask->model && !e->variant) || (ask->like && !e->like_id)) {
			job_free(e);
			json_decref(e->accesses);
			free(e->values);
			free(e);
			json_object_del(memo.index, ask->key);
			return NULL;
		}
	}
	memo.entries[memo.n++] = e;
	pthread_cond_signal(&memo.queued);
	return e;
}

void wl_memo_lookup(struct wl_memo_ask *asks, size_t n, long wait_ms)
{
	double until = wl_monotonic_s() + (double)wait_ms / 1000;
	int pending;

	pthread_once(&memo.once, memo_init);
	pthread_mutex_lock(&memo.lock);
	start();
	for (;;) {
		pending = 0;
		for (size_t i = 0; i < n; i++) {
			struct entry *e = memo.running ? find_or_queue(&asks[i]) : NULL;

			asks[i].state = e ? e->state : WL_MEMO_PENDING;
			if (e && e->state == WL_MEMO_DONE)
				asks[i].p = e->p;
			else if (e && e->state == WL_MEMO_FAILED)
				snprintf(asks[i].error, sizeof(asks[i].error), "%s", e->error);
			pending |= asks[i].state == WL_MEMO_PENDING;
		}
		if (!pending || wl_monotonic_s() >= until)
			break;
		{
			struct timespec ts;
			double t = until;

			/* pthread_cond_timedwait counts on the realtime clock. */
			clock_gettime(CLOCK_REALTIME, &ts);
			t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + (until - wl_monotonic_s());
			ts.tv_sec = (time_t)t;
			ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
			pthread_cond_timedwait(&memo.done, &memo.lock, &ts);
		}
	}
	pthread_mutex_unlock(&memo.lock);
}
