/* The one rule for every sentence that cites the model: whether it may, and
 * what it says instead where it may not.
 *
 * Why: the model speaks through the verdict ("In the model, both are bound
 * by DRAM bandwidth"), the point sentences ("bound by ...") and a
 * prediction's departure ("likely cause: ..."), and it used to speak with
 * the same confidence where it was right and where it was 200× off — on
 * PoCL the page named the DRAM ceiling as the reason for a reduction it
 * showed 113× slower than predicted. A cause the model names is only worth
 * what the model is worth at that point, so:
 *
 * - A point the model misses by more than WL_TRUST_POINT_FACTOR (2×,
 *   either way; the departure's threshold) it does not explain: a sentence
 *   says so, with the factor ("the model is 113× off here: it does not
 *   explain this point"), and claims no cause — no binding ceiling, no
 *   access pattern, no departure cause.
 * - Where the model's record on the device for the point's family is poor
 *   — the median factor of its latest points (at most WL_TRUST_RECORD_RECENT,
 *   of the runs that ended before the point's) over WL_TRUST_RECORD_FACTOR
 *   (1.5×), once they are at least
 *   WL_TRUST_RECORD_MIN — a point it happens to get within 2× is luck as
 *   much as explanation: the sentence says the record is poor and claims no
 *   cause.
 * - On a CPU (a device without a warp width) the model has no local-memory,
 *   first-level, latency, barrier or issue ceiling (model/ceilings.c): it
 *   counts bytes and times them at the copy (and cache) rates. A sentence that cites
 *   it there says so (WL_TRUST_CPU_WORDS), and never names bank conflicts,
 *   which cost nothing in it there.
 *
 * Every sentence asks wl_trust_may_name() before it names a claim of the
 * model, and says wl_trust_words() where it may not. The record comes from
 * the ledger (analysis.h, "the model's record"); the rule itself reads
 * nothing, so it is tested by its cases alone. */
#ifndef WL_MODEL_TRUST_H
#define WL_MODEL_TRUST_H

#include <stddef.h>

/* Beyond this factor either way the model does not explain a point. */
#define WL_TRUST_POINT_FACTOR 2.0
/* A record whose median factor is beyond this is poor. */
#define WL_TRUST_RECORD_FACTOR 1.5
/* The points a record needs before it may be called poor: with 20, the
 * median's 95% interval spans the 6th to the 15th of them, narrow enough to
 * tell a model 1.5× off from one that is right; fewer would let two or
 * three bad points of a new family silence it. */
#define WL_TRUST_RECORD_MIN 20
/* A record is the latest points of a device and family, at most this many:
 * the model's record as it stands now, read in one bounded index walk. */
#define WL_TRUST_RECORD_RECENT 200

/* The model's record on one device for one family: its latest points (at
 * most WL_TRUST_RECORD_RECENT) scored at this model's version. */
struct wl_model_record {
	const char *family;		/* borrowed; NULL: no record looked up */
	long long points;		/* 0: none yet */
	double median_factor;		/* of those points, 0 where none */
};

enum wl_trust_kind {
	WL_TRUST_CITE,			/* the model may be cited, with its causes */
	WL_TRUST_MISSES_POINT,		/* beyond WL_TRUST_POINT_FACTOR at this point */
	WL_TRUST_POOR_RECORD,		/* its record on the device for the family is poor */
};

/* The rule's judgement of one result. */
struct wl_trust {
	enum wl_trust_kind kind;
	double factor;			/* the point's: max(ratio, 1 / ratio); 0: not compared */
	const struct wl_model_record *record;	/* what it was weighed by, or NULL */
	int cpu;			/* the device has no warp width */
};

/* What a sentence may name of the model's. */
enum wl_trust_claim {
	WL_CLAIM_BINDING,		/* "bound by DRAM bandwidth" */
	WL_CLAIM_SECTORS,		/* "32 sectors per request (against 4)" */
	WL_CLAIM_CONFLICTS,		/* "32-way bank conflicts" */
	WL_CLAIM_CAUSE,			/* a departure's cause */
};

/* Judge a result: ratio is its prediction over its measurement (time or
 * slowdown; 0 or below where it has none), record the model's record on
 * the device for its family (NULL: none known), cpu whether the device has
 * no warp width. Never fails. */
void wl_model_trust(double ratio, const struct wl_model_record *record, int cpu, struct wl_trust *out);

/* Whether a sentence may name claim about the result t judges. */
int wl_trust_may_name(const struct wl_trust *t, enum wl_trust_claim claim);

/* Where the model may not be cited, what is said instead, into buf (len
 * bytes; "" where it may): "the model is 113× off for sequential here: it
 * does not explain this point", or "the model's record for reduction on this
 * device is poor (its latest 40 points are 1.8× off at the median): it names
 * no cause here". who names the result (NULL: "here" alone). Lower case,
 * no full stop: the caller's sentence holds it. */
void wl_trust_words(const struct wl_trust *t, const char *who, char *buf, size_t len);

/* The same for the two results a sentence compares (b may be NULL, or a
 * itself): "" where both may be cited, else the words of each that may not,
 * one clause for two points both missed ("the model is 113× off for
 * sequential and 14× off for interleaved here: it does not explain these
 * points") and one for a poor record they share. */
void wl_trust_pair_words(const struct wl_trust *a, const char *who_a, const struct wl_trust *b, const char *who_b,
			 char *buf, size_t len);

/* The departure sentence of a point beyond the factor (measured ratio
 * faster or slower than predicted), as the rule words it: the factor, that
 * the model does not explain it and names no cause, and on a CPU, in a
 * clause (WL_TRUST_CPU_CLAUSE: the run's verdict says it whole), what the
 * model does not model. */
void wl_trust_departure(const struct wl_trust *t, double ratio, char *buf, size_t len);

/* The same sentence for points of one sweep that depart alike (faster, or
 * slower, by factors from low to high): "Measured 2.2–3.3× slower than
 * predicted: the model does not explain these points and names no cause." */
void wl_trust_departures(const struct wl_trust *t, int faster, double low, double high, size_t points, char *buf,
			 size_t len);

/* What the model does not model on a CPU, as one sentence. */
#define WL_TRUST_CPU_WORDS                                                                              \
	"On a CPU the model has no local-memory, first-level, latency, barrier, issue or work-group ceiling: it counts " \
	"the bytes a kernel moves and times them at the measured copy (and cache) rates, so bank conflicts, " \
	"vector units and threads are not in it."

/* The same, short, for each point's departure on a CPU. */
#define WL_TRUST_CPU_CLAUSE \
	"on a CPU the model counts bytes alone: no local memory, first level, latency, barriers, issue or work-group starts"

#endif
