/* The expression language and the memory-access model, on hand-checked cases:
 * the catalog's own declarations must give the sectors per request, conflict
 * degrees and efficiencies the seeds reason out by hand, and the banks family
 * must predict what the removed runner/bank_model.c did for every c. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "warp_model.h"

void test_expressions_parse_and_evaluate(void)
{
	static const char *const names[] = { "n", "lid0", "i" };
	const long long vars[] = { 10, 3, 2 };
	static const struct {
		const char *text;
		long long want;		/* when error is NULL */
		const char *error;	/* a part of the parse or evaluation error */
	} rows[] = {
		{ "2 + 3*4", 14, NULL },
		{ "(2 + 3)*4", 20, NULL },
		{ "n - lid0 - i", 5, NULL },		/* left-associative */
		{ "n/3*3 + n%3", 10, NULL },
		{ "-lid0 + n", 7, NULL },
		{ "lid0 < n && i >= 2", 1, NULL },
		{ "lid0 == 3 || n != 10", 1, NULL },
		{ "i*2 <= lid0", 0, NULL },
		{ "2*i*lid0 > n", 1, NULL },
		{ "n / (i - 2)", 0, "division by zero" },
		{ "n % (lid0 - 3)", 0, "division by zero" },
		{ "4611686018427387903 * 4", 0, "overflows" },
		{ "n + m", 0, "unknown variable 'm' (known: n lid0 i)" },
		{ "n +", 0, "ends where an operand is expected" },
		{ "(n + 1", 0, "'(' is not closed" },
		{ "n ** 2", 0, "unexpected '*'" },
		{ "n = 2", 0, "unexpected '='" },
		{ "12ab", 0, "bad number" },
		{ "((((((((((((((((((((((((((((((((((n))))))))))))))))))))))))))))))))))", 0, "nested too deeply" },
		{ "1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1", 0, "too long" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct wl_expr e;
		struct wl_error err = { 0 };
		const char *why = NULL;
		long long got = -1;
		int rc = wl_expr_parse(rows[i].text, names, 3, 0, &e, &err);

		if (rc == 0)
			rc = wl_expr_eval(&e, vars, &got, &why);
		if (!rows[i].error) {
			CHECK(rc == 0 && got == rows[i].want, "'%s' = %lld, want %lld (%s%s)", rows[i].text,
			      got, rows[i].want, err.msg, why ? why : "");
			continue;
		}
		CHECK(rc < 0, "'%s' should fail", rows[i].text);
		CHECK(strstr(why ? why : err.msg, rows[i].error) != NULL, "'%s': '%s' lacks '%s'",
		      rows[i].text, why ? why : err.msg, rows[i].error);
		if (!why)
			CHECK(strstr(err.msg, rows[i].text) != NULL, "the message quotes the expression: %s",
			      err.msg);
	}
}

/* The catalog's prediction for experiment id's variant at values (given by
 * name, in any order, as "n", 64, ...), NULL-terminated. */
static int predict(const struct wl_catalog *cat, const char *id, const char *variant,
		   struct wl_prediction *p, const char *name, ...)
{
	const struct wl_experiment *exp = wl_catalog_find(cat, id);
	const struct wl_variant_def *v = exp ? wl_experiment_variant(exp, variant, NULL) : NULL;
	long long values[16] = { 0 };
	struct wl_error err = { 0 };
	va_list ap;

	if (!v || !v->model) {
		CHECK(0, "%s/%s declares no accesses", id, variant);
		return -1;
	}
	va_start(ap, name);
	for (; name; name = va_arg(ap, const char *))
		values[wl_experiment_param(exp, name)] = va_arg(ap, long long);
	va_end(ap);
	if (wl_model_predict(v->model, values, (int)exp->nparams, 32, 0, p, &err) < 0) {
		CHECK(0, "%s/%s: %s", id, variant, err.msg);
		return -1;
	}
	return 0;
}

/* The figures of the access to array (the first of that kind, load or store). */
static const struct wl_access_figures *figures_of(const struct wl_catalog *cat, const char *id,
						 const char *variant, const struct wl_prediction *p,
						 const char *array, int store)
{
	const struct wl_variant_def *v = wl_experiment_variant(wl_catalog_find(cat, id), variant, NULL);

	for (int i = 0; v && i < v->model->naccesses; i++)
		if (strcmp(v->model->accesses[i].array, array) == 0 && v->model->accesses[i].store == store)
			return &p->access[i];
	CHECK(0, "%s/%s has no %s of %s", id, variant, store ? "store" : "load", array);
	return NULL;
}

void test_model_predicts_the_seeds_by_hand(void)
{
	struct wl_catalog *cat = NULL;
	struct wl_error err;
	struct wl_prediction p;
	const struct wl_access_figures *f;
	static const long long strides[] = { 1, 2, 4, 8, 32 }, sectors[] = { 4, 8, 16, 32, 32 };

	if (wl_catalog_load(CATALOG_PATH, &cat, &err) < 0) {
		CHECK(0, "load: %s", err.msg);
		return;
	}
	/* Stride s floats: 32 lanes x 4 bytes spread over 4 s sectors, at most one per lane. */
	for (size_t i = 0; i < 5; i++) {
		if (predict(cat, "strided", "stride", &p, "stride", strides[i], "n", 8388608LL, NULL) < 0)
			continue;
		f = figures_of(cat, "strided", "stride", &p, "a", 0);
		CHECK(f && f->sectors_per_request == sectors[i], "stride %lld: %g sectors, want %lld",
		      strides[i], f ? f->sectors_per_request : -1, sectors[i]);
		CHECK(f && f->efficiency == 4.0 / sectors[i], "stride %lld: efficiency %g", strides[i],
		      f ? f->efficiency : -1);
	}
	/* One float off: the warp's 128 bytes straddle five sectors and two lines. */
	if (predict(cat, "offset", "offset", &p, "offset", 1LL, "n", 8388608LL, NULL) == 0) {
		f = figures_of(cat, "offset", "offset", &p, "a", 0);
		CHECK(f && f->sectors_per_request == 5 && f->lines_per_request == 2,
		      "offset 1: %g sectors, %g lines", f ? f->sectors_per_request : -1,
		      f ? f->lines_per_request : -1);
	}
	/* Naive transpose: reads coalesce, each write lands n floats from its neighbour's. */
	if (predict(cat, "transpose", "naive", &p, "n", 8192LL, "tile", 32LL, "rows", 8LL, NULL) == 0) {
		f = figures_of(cat, "transpose", "naive", &p, "odata", 1);
		CHECK(f && f->sectors_per_request == 32, "naive write: %g sectors",
		      f ? f->sectors_per_request : -1);
		f = figures_of(cat, "transpose", "naive", &p, "idata", 0);
		CHECK(f && f->sectors_per_request == 4, "naive read: %g sectors",
		      f ? f->sectors_per_request : -1);
		CHECK(p.efficiency > 0.22 && p.efficiency < 0.23, "naive: 8 useful sectors of 36: %g",
		      p.efficiency);
	}
	/* The tile's column read tile[lid0][lid1 + i]: 32-way at T = 32, free padded. */
	if (predict(cat, "transpose", "tiled", &p, "n", 8192LL, "tile", 32LL, "rows", 8LL, NULL) == 0) {
		f = figures_of(cat, "transpose", "tiled", &p, "tile", 0);
		CHECK(f && f->conflict_degree == 32, "tiled column read: %g-way",
		      f ? f->conflict_degree : -1);
		f = figures_of(cat, "transpose", "tiled", &p, "tile", 1);
		CHECK(f && f->conflict_degree == 1, "tiled row write: %g-way", f ? f->conflict_degree : -1);
		CHECK(p.conflict_degree == 32 && p.efficiency == 1, "tiled: %g-way, efficiency %g",
		      p.conflict_degree, p.efficiency);
	}
	if (predict(cat, "transpose", "padded", &p, "n", 8192LL, "tile", 32LL, "rows", 8LL, NULL) == 0) {
		f = figures_of(cat, "transpose", "padded", &p, "tile", 0);
		CHECK(f && f->conflict_degree == 1, "padded column read: %g-way",
		      f ? f->conflict_degree : -1);
	}
	/* Min-plus: v0's x = d[n*i + k] spreads a warp over 16 rows; v1 reads along them. */
	if (predict(cat, "minplus", "v0", &p, "n", 1024LL, NULL) == 0) {
		f = figures_of(cat, "minplus", "v0", &p, "d", 0);
		CHECK(f && f->sectors_per_request == 16, "v0 x: %g sectors", f ? f->sectors_per_request : -1);
		CHECK(p.groups == 64 * 64, "v0: %g groups", p.groups);
	}
	if (predict(cat, "minplus", "v1", &p, "n", 1024LL, NULL) == 0)
		CHECK(p.efficiency > 0.5, "v1 coalesces: efficiency %g", p.efficiency);
	/* Interleaved reduction piles onto few banks; sequential does not. */
	if (predict(cat, "reduction", "interleaved", &p, "n", 65536LL, "local", 256LL, NULL) == 0)
		CHECK(p.conflict_degree > 2, "interleaved: %g-way", p.conflict_degree);
	if (predict(cat, "reduction", "sequential", &p, "n", 65536LL, "local", 256LL, NULL) == 0)
		CHECK(p.conflict_degree == 1, "sequential: %g-way", p.conflict_degree);
	/* A long loop is sampled and scaled: naive dot's requests are all its loads. */
	if (predict(cat, "dot", "naive", &p, "n", 16777216LL, "items", 262144LL, "local", 256LL,
		    NULL) == 0) {
		f = figures_of(cat, "dot", "naive", &p, "v1", 0);
		CHECK(p.sampled && f && fabs(f->requests - 8 * 64) < 1e-9, "naive dot: %g requests of v1 per group",
		      f ? f->requests : -1);
		CHECK(f && f->sectors_per_request == 32, "naive dot: %g sectors",
		      f ? f->sectors_per_request : -1);
	}
	/* A caller's deadline bounds the work, however long the declared loops. */
	{
		const struct wl_experiment *dot = wl_catalog_find(cat, "dot");
		const struct wl_variant_def *naive = wl_experiment_variant(dot, "naive", NULL);
		long long values[3];

		values[wl_experiment_param(dot, "n")] = 268435456;
		values[wl_experiment_param(dot, "items")] = 64;
		values[wl_experiment_param(dot, "local")] = 64;
		CHECK(wl_model_predict(naive->model, values, 3, 32, 1e-9, &p, &err) < 0 &&
		      strstr(err.msg, "time for this prediction ran out") != NULL,
		      "4 Mi iterations past a deadline: %s", err.msg);
		CHECK(wl_model_predict(naive->model, values, 3, 32, 0, &p, &err) == 0 &&
		      p.access[0].requests == 2.0 * 4194304, "unbounded it runs: %s", err.msg);
	}
	wl_catalog_free(cat);
}

void test_model_matches_the_bank_table(void)
{
	/* runner/bank_model.c's predictions at local = 128, recorded before it was
	 * replaced by the catalog's declarations: stride and struct are
	 * gcd(c, 32); broadcast wraps lid % c at other places in each warp. */
	static const double broadcast[64] = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75,
		1.5, 1.5, 1.5, 1.5, 1.5, 1.25, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5,
		1.5, 1.5, 1.5, 1.5, 1.5, 1,
	};
	struct wl_catalog *cat = NULL;
	struct wl_error err;

	if (wl_catalog_load(CATALOG_PATH, &cat, &err) < 0) {
		CHECK(0, "load: %s", err.msg);
		return;
	}
	for (long long c = 1; c <= 64; c++) {
		static const char *const variants[] = { "stride", "broadcast", "struct", "soa" };
		long long gcd = c, b = 32;

		while (b) {
			long long t = gcd % b;

			gcd = b;
			b = t;
		}
		for (int v = 0; v < 4; v++) {
			struct wl_prediction p;
			double want = v == 0 || v == 2 ? (double)gcd : v == 1 ? broadcast[c - 1] : 1;

			if (predict(cat, "banks", variants[v], &p, "c", c, "local", 128LL, "groups", 1056LL,
				    "iters", 1024LL, NULL) < 0)
				continue;
			CHECK(fabs(p.conflict_degree - want) < 1e-9 * want, "%s at c = %lld: %g-way, bank_model.c said %g",
			      variants[v], c, p.conflict_degree, want);
		}
	}
	wl_catalog_free(cat);
}
