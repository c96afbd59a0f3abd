/* The verdict's sentences (analysis.h, wl_run_add_verdict): who won, by
 * how much and why, in words built only from the figures beside them — the
 * winner's rate and share of the copy ceiling, its factor over the slowest
 * and the reference, the model's binding ceilings and the slowest's access
 * pattern — so a sentence cannot say what the numbers do not; and what it
 * says of the model only as far as model_trust.h's rule lets it (each
 * result's trust), plainly saying where the model does not explain a point
 * and, on a CPU, what the model leaves out. */
#ifndef WL_VERDICT_WORDS_H
#define WL_VERDICT_WORDS_H

#include <jansson.h>
#include <stddef.h>

#include "analysis.h"

#define VERDICT_SWEPT_MAX 8

/* What every sentence of one run is said with. */
struct verdict_ctx {
	const struct wl_run *run;	/* its variants' titles */
	const char *metric, *unit;	/* "gbps" and "GB/s", or "gops" and "Gop/s" */
	double min_change;		/* the run's noise target: what counts as apart */
	int so_far;			/* the run is still measuring */
	int points_seen, points_total;	/* points with a result, and the run's points (0: unknown) */
	const char *ended;		/* "Cancelled" or "Failed" where the run ended so, else NULL */
	int nswept;
	const char *swept[VERDICT_SWEPT_MAX];	/* the params whose values vary across the run */
};

/* The context of run; it points into run, which must outlive it. Its
 * points_seen is for the caller to set once it has grouped the results. */
void wl_verdict_ctx(const struct wl_run *run, struct verdict_ctx *out);

/* " In the model, x is bound by DRAM bandwidth; y by latency (32 sectors
 * per request against 4)." of the faster best against slowest (NULL: best
 * alone) — or, where the model may not be cited for either, the trust
 * rule's words instead; into out. */
void wl_verdict_reason_text(const struct verdict_ctx *c, const struct wl_result *best, const struct wl_result *slowest,
			    char *out, size_t len);

/* How a run's sentence starts: "So far, at 2 of 6 points, " while it
 * measures (where it has not all), "Cancelled after 2 of 6 points: " where it
 * ended short, "So far, " or "" otherwise; into out. */
void wl_verdict_cover_text(const struct verdict_ctx *c, char *out, size_t len);

/* One point's sentence into buf: best its fastest verified result (NULL:
 * none), slowest and reference (NULL, or best itself: not said), tied the
 * variants within noise of best. */
void wl_verdict_point_sentence(const struct verdict_ctx *c, const struct wl_result *best,
			       const struct wl_result *slowest, const struct wl_result *reference, const json_t *tied,
			       char *buf, size_t len);

/* How the points of a run were won: wins of judged went to the headline's
 * winner, apart of them beyond noise of every other variant there,
 * other_wins to other (the variant that won most of the rest; NULL where
 * none did). */
struct wl_verdict_wins {
	int wins, judged;
	const char *other;
	int other_wins;
	int apart;
};

/* The run's sentence, about its headline point (its point JSON, as
 * verdict.c makes it, and its results as above), its wins as w says; the
 * point's "frugal", where it has one, is named last. */
void wl_verdict_run_sentence(const struct verdict_ctx *c, const json_t *headline, const struct wl_result *best,
			     const struct wl_result *slowest, const struct wl_result *reference,
			     const struct wl_verdict_wins *w, char *buf, size_t len);

/* Append to buf (of len) what fmt says; never past its end. */
void wl_verdict_put(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A factor as the sentences say it ("1.8×", "12×") into out. */
void wl_verdict_factor_text(double f, char *out, size_t len);

/* "n = 64 Mi, stride = 4": the params that vary across the run at params,
 * into out; "" where none does. */
void wl_verdict_point_text(const struct verdict_ctx *c, const json_t *params, char *out, size_t len);

/* A run of one variant: its best (hi) and worst (lo) points by rate. */
void wl_verdict_sweep_sentence(const struct verdict_ctx *c, const struct wl_result *hi, const struct wl_result *lo,
			       char *buf, size_t len);

#endif
