/* A stored request typed once (run_request.h, and request.h's settings and
 * languages): a full normalized request read whole, an older one's absent
 * fields each with its one meaning, what no validator writes refused naming
 * the field, the language of a body, and validation with the language
 * decided beforehand giving what validation alone gives. */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "request.h"
#include "run_request.h"

/* The JSON of a test row, or NULL with a failed CHECK. */
static json_t *row_json(const char *text)
{
	json_t *j = json_loads(text, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);

	CHECK(j != NULL, "test row is not JSON: %s", text);
	return j;
}

void test_run_request_types_a_full_normalized_request(void)
{
	struct wl_catalog *cat = check_load_catalog();
	json_t *body = NULL, *norm = NULL;
	struct wl_run_request rr = { 0 };
	struct wl_error err;
	long long count = 0;

	if (!cat)
		return;
	body = row_json("{\"experiment\":\"transpose\",\"variants\":[\"naive\",\"padded\"],"
			"\"params\":{\"n\":[256,512,1024]},\"device\":\"gpu\",\"language\":\"cuda\","
			"\"repeat\":250,\"seed\":42,\"label\":\"full\",\"cache\":\"hot\",\"noise\":0.005,"
			"\"budget_ms\":300,\"counters\":\"off\"}");
	wl_error_clear(&err);
	CHECK(body && wl_request_validate(cat, body, &norm, &count, &err) == 0, "%s", err.msg);
	CHECK(norm && wl_run_request_parse(cat, norm, &rr, &err) == 0, "%s", err.msg);
	if (rr.json) {
		const struct wl_run_settings *s = &rr.settings;

		CHECK(rr.json == norm && norm->refcount == 2, "holds a reference of its own to the request");
		CHECK(rr.exp == wl_catalog_find(cat, "transpose"), "the catalog's experiment");
		CHECK(strcmp(s->device, "gpu") == 0, "device '%s'", s->device);
		CHECK(s->label && strcmp(s->label, "full") == 0, "label '%s'", s->label ? s->label : "(none)");
		CHECK(s->language == WL_LANG_CUDA, "language %s", wl_language_name(s->language));
		CHECK(s->cache == WL_CACHE_HOT, "cache %s", wl_cache_mode_name(s->cache));
		CHECK(s->repeat == 250 && s->seed == 42, "repeat %lld, seed %lld", s->repeat, s->seed);
		CHECK(s->noise_given && s->noise == 0.005, "noise %g (given %d)", s->noise, s->noise_given);
		CHECK(s->budget_ms == 300, "budget_ms %lld", s->budget_ms);
		CHECK(s->counters == 0, "counters off");
		CHECK(rr.pts.count == 3 && (long long)(rr.pts.count * rr.nvariants) == count,
		      "%zu points x %zu variants, validation counted %lld", rr.pts.count, rr.nvariants, count);
		CHECK(json_array_size(rr.variants) == 2 && rr.kernels == NULL, "two built-ins, no kernels");
	}
	wl_run_request_free(&rr);
	CHECK(rr.json == NULL && rr.pts.values == NULL && norm && norm->refcount == 1,
	      "freed: the reference given back, nothing held");
	wl_run_request_free(&rr);	/* twice is harmless */
	json_decref(norm);
	json_decref(body);

	/* Custom kernels follow the built-ins; the defaults of a bandwidth
	 * experiment are cold and counted. */
	norm = row_json("{\"experiment\":\"copy\",\"variants\":[\"float\"],\"params\":{\"n\":4096,\"local\":256},"
			"\"kernels\":[{\"name\":\"mine\",\"like\":\"float\",\"entry\":\"mine\",\"source\":\"x\"}],"
			"\"language\":\"opencl\",\"cache\":\"cold\",\"counters\":\"on\",\"repeat\":100,"
			"\"seed\":7,\"noise\":0.01,\"budget_ms\":1000,\"device\":\"auto\"}");
	CHECK(norm && wl_run_request_parse(cat, norm, &rr, &err) == 0, "%s", err.msg);
	CHECK(rr.nvariants == 2 && json_array_size(rr.kernels) == 1, "one built-in then one kernel: %zu",
	      rr.nvariants);
	CHECK(rr.settings.language == WL_LANG_OPENCL && rr.settings.cache == WL_CACHE_COLD &&
		      rr.settings.counters == 1 && rr.pts.count == 1,
	      "opencl, cold, counted, one point");
	wl_run_request_free(&rr);
	json_decref(norm);
	wl_catalog_free(cat);
}

/* Field by field: a struct's padding is not compared. */
static int same_settings(const struct wl_run_settings *a, const struct wl_run_settings *b)
{
	return a->device == b->device && a->label == b->label && a->language == b->language &&
	       a->cache == b->cache && a->repeat == b->repeat && a->seed == b->seed && a->noise == b->noise &&
	       a->noise_given == b->noise_given && a->budget_ms == b->budget_ms && a->counters == b->counters;
}

/* A request queued by an older server lacks fields; each absent one has one
 * meaning (request.h), for the runner's plan and the server's pages alike. */
void test_run_request_reads_absent_fields_as_older_requests_ran(void)
{
	static const struct {
		const char *stored;
		enum wl_language language;
		enum wl_cache_mode cache;
		int noise_given, counters;
		double noise;
		long long repeat, budget_ms, seed;
		const char *device;
	} rows[] = {
		/* Before noise, cold mode, CUDA and counters: hot, exactly repeat launches. */
		{ "{\"experiment\":\"copy\",\"variants\":[\"float\"],\"params\":{},\"repeat\":20,\"seed\":3,\"device\":\"cpu\"}",
		  WL_LANG_OPENCL, WL_CACHE_HOT, 0, 1, WL_NOISE_DEFAULT, 20, WL_BUDGET_MS_DEFAULT, 3, "cpu" },
		/* Nothing but what the parse needs. */
		{ "{\"experiment\":\"copy\",\"variants\":[]}",
		  WL_LANG_OPENCL, WL_CACHE_HOT, 0, 1, WL_NOISE_DEFAULT, WL_REPEAT_DEFAULT, WL_BUDGET_MS_DEFAULT, 0, "auto" },
		/* Noise-driven, before CUDA and counters. */
		{ "{\"experiment\":\"copy\",\"variants\":[\"float\"],\"repeat\":100,\"cache\":\"cold\",\"noise\":0.02,\"budget_ms\":500}",
		  WL_LANG_OPENCL, WL_CACHE_COLD, 1, 1, 0.02, 100, 500, 0, "auto" },
		/* CUDA, before counters could be turned off: counted. */
		{ "{\"experiment\":\"copy\",\"variants\":[\"float\"],\"language\":\"cuda\",\"noise\":0.01}",
		  WL_LANG_CUDA, WL_CACHE_HOT, 1, 1, 0.01, WL_REPEAT_DEFAULT, WL_BUDGET_MS_DEFAULT, 0, "auto" },
		/* A repeat outside the limits is brought into them. */
		{ "{\"experiment\":\"copy\",\"variants\":[\"float\"],\"repeat\":0}",
		  WL_LANG_OPENCL, WL_CACHE_HOT, 0, 1, WL_NOISE_DEFAULT, 1, WL_BUDGET_MS_DEFAULT, 0, "auto" },
		{ "{\"experiment\":\"copy\",\"variants\":[\"float\"],\"repeat\":123456}",
		  WL_LANG_OPENCL, WL_CACHE_HOT, 0, 1, WL_NOISE_DEFAULT, WL_REPEAT_MAX, WL_BUDGET_MS_DEFAULT, 0, "auto" },
	};
	struct wl_catalog *cat = check_load_catalog();

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *stored = row_json(rows[i].stored);
		struct wl_run_request rr = { 0 };
		struct wl_run_settings s;
		struct wl_error err;

		wl_error_clear(&err);
		CHECK(stored && wl_run_request_parse(cat, stored, &rr, &err) == 0, "row %zu (%s): %s", i,
		      rows[i].stored, err.msg);
		CHECK(wl_run_settings_read(stored, &s, &err) == 0, "row %zu: %s", i, err.msg);
		CHECK(same_settings(&s, &rr.settings), "row %zu: the parse's settings are the read's", i);
		CHECK(s.language == rows[i].language, "row %zu (%s): language %s, expected %s", i, rows[i].stored,
		      wl_language_name(s.language), wl_language_name(rows[i].language));
		CHECK(s.cache == rows[i].cache && wl_request_cache(stored) == rows[i].cache,
		      "row %zu (%s): cache %s, wl_request_cache %s, expected %s", i, rows[i].stored,
		      wl_cache_mode_name(s.cache), wl_cache_mode_name(wl_request_cache(stored)),
		      wl_cache_mode_name(rows[i].cache));
		CHECK(s.noise_given == rows[i].noise_given && s.noise == rows[i].noise,
		      "row %zu (%s): noise %g given %d, expected %g given %d", i, rows[i].stored, s.noise,
		      s.noise_given, rows[i].noise, rows[i].noise_given);
		CHECK(s.counters == rows[i].counters, "row %zu (%s): counters %d, expected %d", i, rows[i].stored,
		      s.counters, rows[i].counters);
		CHECK(s.repeat == rows[i].repeat && s.budget_ms == rows[i].budget_ms && s.seed == rows[i].seed,
		      "row %zu (%s): repeat %lld budget_ms %lld seed %lld, expected %lld %lld %lld", i, rows[i].stored,
		      s.repeat, s.budget_ms, s.seed, rows[i].repeat, rows[i].budget_ms, rows[i].seed);
		CHECK(strcmp(s.device, rows[i].device) == 0 && s.label == NULL, "row %zu: device '%s', label", i,
		      s.device);
		wl_run_request_free(&rr);
		json_decref(stored);
	}
	/* No request at all reads as all absent. */
	if (cat) {
		struct wl_run_settings s;

		CHECK(wl_run_settings_read(NULL, &s, NULL) == 0 && s.language == WL_LANG_OPENCL &&
			      s.cache == WL_CACHE_HOT && !s.noise_given && s.counters,
		      "NULL is an older request with nothing in it");
	}
	wl_catalog_free(cat);
}

/* A stored field holding what no validator writes is refused naming the
 * field, its value and what is allowed; *out is then empty. The settings
 * are still complete, that field read as absent. */
void test_run_request_refuses_what_no_validator_writes(void)
{
	static const struct {
		const char *stored;
		const char *field, *message;
	} rows[] = {
		{ "{\"experiment\":\"copy\",\"variants\":[],\"language\":\"fortran\"}", "language",
		  "the stored request's language: 'fortran' is not allowed (\"opencl\" or \"cuda\")" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"language\":1}", "language", "1 is not allowed" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"cache\":\"warm\"}", "cache", "'warm' is not allowed (\"hot\" or \"cold\")" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"counters\":true}", "counters", "a boolean is not allowed (\"on\" or \"off\")" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"repeat\":\"10\"}", "repeat", "'10' is not allowed (an integer)" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"seed\":-1}", "seed", "-1 is not allowed" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"noise\":\"1%\"}", "noise", "'1%' is not allowed (a fraction above 0)" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"budget_ms\":0}", "budget_ms", "0 is not allowed" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"device\":[]}", "device", "an array is not allowed" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"label\":5}", "label", "5 is not allowed (a string)" },
		{ "{\"experiment\":\"copy\"}", "variants", "none is not allowed (an array)" },
		{ "{\"experiment\":\"copy\",\"variants\":[],\"kernels\":{}}", "kernels", "an object is not allowed" },
		{ "{\"experiment\":\"nope\",\"variants\":[]}", "experiment", "'nope' is not in this catalog" },
		{ "{\"variants\":[]}", "experiment", "none is not in this catalog" },
		{ "{\"experiment\":\"transpose\",\"variants\":[],\"params\":{\"n\":1000}}", "params.n", "not a multiple" },
		{ "[1]", "", "the stored request is an array, not an object" },
	};
	struct wl_catalog *cat = check_load_catalog();

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *stored = row_json(rows[i].stored);
		struct wl_run_request rr;
		struct wl_error err;

		wl_error_clear(&err);
		memset(&rr, 0xff, sizeof(rr));
		CHECK(stored && wl_run_request_parse(cat, stored, &rr, &err) < 0, "row %zu (%s) parsed", i,
		      rows[i].stored);
		CHECK(rr.json == NULL && rr.exp == NULL && rr.pts.values == NULL && stored && stored->refcount == 1,
		      "row %zu: nothing held after a failure", i);
		CHECK(strcmp(err.field, rows[i].field) == 0, "row %zu (%s): field '%s', expected '%s'", i,
		      rows[i].stored, err.field, rows[i].field);
		CHECK(strstr(err.msg, rows[i].message) != NULL, "row %zu (%s): message '%s' lacks '%s'", i,
		      rows[i].stored, err.msg, rows[i].message);
		wl_run_request_free(&rr);
		json_decref(stored);
	}
	/* The settings are complete either way: a bad field reads as absent. */
	if (cat) {
		json_t *stored = row_json("{\"language\":\"fortran\",\"cache\":\"warm\",\"counters\":\"maybe\",\"noise\":\"x\"}");
		struct wl_run_settings s;
		struct wl_error err;

		wl_error_clear(&err);
		CHECK(wl_run_settings_read(stored, &s, &err) < 0 && strcmp(err.field, "language") == 0,
		      "the first bad field is named: '%s'", err.field);
		CHECK(s.language == WL_LANG_OPENCL && s.cache == WL_CACHE_HOT && s.counters == 1 && !s.noise_given,
		      "each bad field reads as absent");
		CHECK(wl_request_cache(stored) == WL_CACHE_HOT, "a cache no validator writes is hot to every reader");
		json_decref(stored);
	}
	wl_catalog_free(cat);
}

/* A body's language: its "language", else its kernels', all alike; else
 * the default, OpenCL; anything else refused naming the field. */
void test_request_language_is_opencl_or_cuda(void)
{
	static const struct {
		const char *body;
		int ok;
		enum wl_language language;
		const char *field, *message;	/* where refused */
	} rows[] = {
		{ "{}", 1, WL_LANG_OPENCL, NULL, NULL },
		{ "[1]", 1, WL_LANG_OPENCL, NULL, NULL },
		{ "{\"language\":\"opencl\"}", 1, WL_LANG_OPENCL, NULL, NULL },
		{ "{\"language\":\"cuda\"}", 1, WL_LANG_CUDA, NULL, NULL },
		{ "{\"kernels\":[{\"name\":\"k\"},{\"language\":\"cuda\"}]}", 1, WL_LANG_CUDA, NULL, NULL },
		{ "{\"language\":\"cuda\",\"kernels\":[{\"language\":\"cuda\"}]}", 1, WL_LANG_CUDA, NULL, NULL },
		{ "{\"language\":\"fortran\"}", 0, 0, "language",
		  "language: 'fortran' is not allowed (\"opencl\", the default, or \"cuda\")" },
		{ "{\"language\":\"CUDA\"}", 0, 0, "language", "'CUDA' is not allowed" },
		{ "{\"language\":null}", 0, 0, "language", "language: null is not allowed" },
		{ "{\"kernels\":[{\"language\":\"cuda\"},{\"language\":\"opencl\"}]}", 0, 0, "kernels[1].language",
		  "kernels[1].language: 'opencl' is not allowed (a run is in one language, and this one's is another)" },
		{ "{\"language\":\"opencl\",\"kernels\":[{\"language\":\"cuda\"}]}", 0, 0, "kernels[0].language",
		  "'cuda' is not allowed (a run is in one language" },
		{ "{\"kernels\":[{\"language\":\"rust\"}]}", 0, 0, "kernels[0].language",
		  "kernels[0].language: a string is not allowed (\"opencl\" or \"cuda\", the run's language)" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *body = row_json(rows[i].body);
		enum wl_language lang = (enum wl_language)99;
		struct wl_error err;
		int rc;

		wl_error_clear(&err);
		rc = wl_request_language(body, &lang, &err);
		if (rows[i].ok) {
			CHECK(rc == 0 && lang == rows[i].language, "row %zu (%s): rc %d, %s, expected %s", i,
			      rows[i].body, rc, rc == 0 ? wl_language_name(lang) : err.msg,
			      wl_language_name(rows[i].language));
		} else {
			CHECK(rc < 0 && lang == (enum wl_language)99, "row %zu (%s) passed or wrote *out", i, rows[i].body);
			CHECK(err.kind == WL_ERR_INVALID_FIELD && strcmp(err.field, rows[i].field) == 0,
			      "row %zu (%s): field '%s', expected '%s'", i, rows[i].body, err.field, rows[i].field);
			CHECK(strstr(err.msg, rows[i].message) != NULL, "row %zu (%s): message '%s' lacks '%s'", i,
			      rows[i].body, err.msg, rows[i].message);
		}
		json_decref(body);
	}
	{
		enum wl_language l = WL_LANG_CUDA;

		CHECK(wl_language_parse("opencl", &l) == 0 && l == WL_LANG_OPENCL && wl_language_parse("cuda", &l) == 0 &&
			      l == WL_LANG_CUDA, "parses both");
		CHECK(wl_language_parse("Cuda", &l) < 0 && wl_language_parse(NULL, &l) < 0 && l == WL_LANG_CUDA,
		      "refuses others, *out untouched");
		CHECK(strcmp(wl_language_name(WL_LANG_OPENCL), "opencl") == 0 &&
			      strcmp(wl_language_name(WL_LANG_CUDA), "cuda") == 0, "the names");
		/* language.h's default, as a value and as the name the store's SQL
		 * reads a NULL as, is one language, and OpenCL: what every run
		 * stored without one was in. */
		CHECK(WL_LANG_DEFAULT == WL_LANG_OPENCL &&
			      strcmp(wl_language_name(WL_LANG_DEFAULT), WL_LANG_DEFAULT_NAME) == 0,
		      "the default: %s, named %s", wl_language_name(WL_LANG_DEFAULT), WL_LANG_DEFAULT_NAME);
	}
}

/* Validation with the language decided beforehand (as POST /api/runs does,
 * once) gives what validation alone gives: the same request, or the same
 * error, field and message. */
void test_validate_in_a_decided_language_agrees(void)
{
	static const char *const rows[] = {
		"{\"experiment\":\"copy\",\"seed\":5}",
		"{\"experiment\":\"copy\",\"seed\":5,\"language\":\"cuda\",\"counters\":\"off\"}",
		"{\"experiment\":\"transpose\",\"seed\":5,\"params\":{\"n\":[256,512]},\"cache\":\"hot\"}",
		"{\"experiment\":\"copy\",\"seed\":5,\"repeat\":0}",
		"{\"experiment\":\"copy\",\"colour\":1}",
		"{\"experiment\":\"nope\"}",
		"{\"experiment\":\"transpose\",\"params\":{\"n\":1000}}",
		"{\"experiment\":\"copy\",\"seed\":5,\"noise\":0}",
	};
	struct wl_catalog *cat = check_load_catalog();

	for (size_t i = 0; cat && i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_t *body = row_json(rows[i]), *a = NULL, *b = NULL;
		struct wl_error ea, eb;
		enum wl_language lang;
		long long ca = -1, cb = -1;
		int ra, rb;

		wl_error_clear(&ea);
		wl_error_clear(&eb);
		ra = wl_request_validate(cat, body, &a, &ca, &ea);
		CHECK(wl_request_language(body, &lang, &eb) == 0, "row %zu: %s", i, eb.msg);
		rb = wl_request_validate_in(cat, body, lang, &b, &cb, &eb);
		CHECK(ra == rb && ca == cb && ((!a && !b) || json_equal(a, b)), "row %zu (%s): %d/%d, %lld/%lld", i,
		      rows[i], ra, rb, ca, cb);
		CHECK(ea.kind == eb.kind && strcmp(ea.field, eb.field) == 0 && strcmp(ea.msg, eb.msg) == 0,
		      "row %zu (%s): '%s' on '%s' against '%s' on '%s'", i, rows[i], ea.msg, ea.field, eb.msg, eb.field);
		CHECK(!b || strcmp(json_string_value(json_object_get(b, "language")), wl_language_name(lang)) == 0,
		      "row %zu: the language decided is the one stored", i);
		json_decref(a);
		json_decref(b);
		json_decref(body);
	}
	wl_catalog_free(cat);
}
