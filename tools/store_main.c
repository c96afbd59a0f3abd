/* warplab-store: moving a lab's whole store. `copy` takes every run, result,
 * runner, device and kernel source from one store into a new one (a SQLite
 * file into PostgreSQL when a lab outgrows one machine, or back), ids and
 * share URLs unchanged; `export` writes the same records as JSON lines for a
 * backup and `import` reads them into a new store. A target that already
 * holds runs is refused unless `import --merge` asks to add to it: a merge
 * must be asked for, because it gives every imported run a new id (and a
 * second import of one file adds its runs twice), which a restore that met
 * the wrong store by mistake should not do quietly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "store.h"

static const char usage[] =
	"usage: warplab-store copy --from STORE --to STORE\n"
	"       warplab-store export --from STORE            (JSON lines on stdout)\n"
	"       warplab-store import --to STORE [--merge]     (JSON lines on stdin)\n"
	"STORE is a SQLite file (a path or sqlite:PATH) or postgresql://...\n"
	"copy and import fill a store that holds no runs, every id kept.\n"
	"import --merge also adds to a store that holds runs, overwriting nothing:\n"
	"each imported run gets a new id after the store's own (the last line says\n"
	"which) and keeps its results, samples, traces and builds; a runner, device,\n"
	"kernel source or build already there is kept once. A bad line leaves the\n"
	"store as it was. PostgreSQL passwords come from ~/.pgpass, PGPASSFILE or\n"
	"the service file, never the command line.\n";

struct counts {
	long long records, runs, results;
	struct wl_store_import *to;	/* copy: where records go; NULL: export */
};

static void count(struct counts *c, const json_t *record)
{
	const char *table = json_string_value(json_object_get(record, "table"));

	c->records++;
	c->runs += table && strcmp(table, "runs") == 0;
	c->results += table && strcmp(table, "results") == 0;
	if (c->records % 100000 == 0)
		fprintf(stderr, "warplab-store: %lld records (%lld runs) so far\n", c->records, c->runs);
}

static int on_record(void *ctx, json_t *record, struct wl_error *err)
{
	struct counts *c = ctx;

	count(c, record);
	if (c->to)
		return wl_store_import_row(c->to, record, err);
	if (json_dumpf(record, stdout, JSON_COMPACT) < 0 || fputc('\n', stdout) == EOF) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot write the export");
		return -1;
	}
	return 0;
}

/* The value of --name in argv, or NULL. */
static const char *arg(int argc, char **argv, const char *name)
{
	for (int i = 2; i + 1 < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return argv[i + 1];
	return NULL;
}

/* Whether the flag --name is in argv. */
static int flag(int argc, char **argv, const char *name)
{
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

static int import_lines(struct wl_store_import *to, struct counts *c, struct wl_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	long long lineno = 0;
	int rc = 0;

	while (getline(&line, &cap, stdin) > 0) {
		json_error_t jerr;
		json_t *record;

		lineno++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		record = json_loads(line, 0, &jerr);
		if (!record) {
			wl_error_set(err, WL_ERR_BAD_JSON, "line %lld: not JSON: %s", lineno, jerr.text);
			rc = -1;
			break;
		}
		count(c, record);
		rc = wl_store_import_row(to, record, err);
		json_decref(record);
		if (rc < 0) {
			char inner[sizeof(err->msg)];

			snprintf(inner, sizeof(inner), "%s", err->msg);
			wl_error_set(err, err->kind, "line %lld: %s", lineno, inner);
			break;
		}
	}
	free(line);
	return rc;
}

/* n thing or things, appended to buf at *at; nothing when n is 0. */
static void add_count(char *buf, size_t len, size_t *at, long long n, const char *thing)
{
	int w;

	if (n == 0 || *at >= len)
		return;
	w = snprintf(buf + *at, len - *at, "%s%lld %s%s", *at ? ", " : "", n, thing, n == 1 ? "" : "s");
	*at += w > 0 ? (size_t)w : 0;
}

/* How the merged runs' new ids follow their old ones, so that a share URL
 * of the other lab can be found here. */
static void say_ids(const struct wl_store_import_summary *sum, char *buf, size_t len)
{
	if (sum->in_order && sum->last_id - sum->first_id + 1 == sum->runs &&
	    sum->last_old - sum->first_old + 1 == sum->runs)
		snprintf(buf, len, "ids %lld..%lld in the export, %+lld each", sum->first_old, sum->last_old,
			 sum->first_id - sum->first_old);
	else
		snprintf(buf, len, "ids %lld..%lld in the export%s", sum->first_old, sum->last_old,
			 sum->in_order ? ", in the same order" : "");
}

/* The last line: what was moved, and for a merge the ids the runs have now
 * (their URLs changed) and what was there already. */
static void say_done(const char *cmd, const struct counts *c, const struct wl_store_import_summary *sum,
		     const char *to)
{
	char kept[200] = "", ids[128] = "";
	size_t at = 0;

	if (!sum->merged) {
		fprintf(stderr, "warplab-store: %s %lld runs, %lld results (%lld records)%s%s\n",
			strcmp(cmd, "export") == 0 ? "exported" : strcmp(cmd, "import") == 0 ? "imported" : "copied",
			c->runs, c->results, c->records, to ? " into " : "", to ? wl_db_shown(to) : "");
		return;
	}
	add_count(kept, sizeof(kept), &at, sum->kept_runners, "runner");
	add_count(kept, sizeof(kept), &at, sum->kept_devices, "device");
	add_count(kept, sizeof(kept), &at, sum->kept_sources, "source");
	add_count(kept, sizeof(kept), &at, sum->kept_builds, "build");
	if (sum->runs > 0) {
		say_ids(sum, ids, sizeof(ids));
		fprintf(stderr, "warplab-store: imported %lld runs as ids %lld..%lld (%s), %lld results"
			" (%lld records) into %s beside its %lld runs%s%s\n",
			sum->runs, sum->first_id, sum->last_id, ids, c->results, c->records, wl_db_shown(to),
			sum->runs_before, at ? "; already there, kept once: " : "", kept);
	} else {
		fprintf(stderr, "warplab-store: imported 0 runs (%lld records) into %s beside its %lld runs%s%s\n",
			c->records, wl_db_shown(to), sum->runs_before, at ? "; already there, kept once: " : "",
			kept);
	}
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	const char *from = arg(argc, argv, "--from"), *to = arg(argc, argv, "--to");
	int merge = flag(argc, argv, "--merge");
	struct wl_store *src = NULL, *dst = NULL;
	struct wl_store_import *im = NULL;
	struct wl_store_import_summary sum = { 0 };
	struct counts c = { 0 };
	struct wl_error err = { 0 };
	int rc = -1;

	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if ((strcmp(cmd, "copy") == 0 && (!from || !to)) || (strcmp(cmd, "export") == 0 && !from) ||
	    (strcmp(cmd, "import") == 0 && !to) ||
	    (strcmp(cmd, "copy") && strcmp(cmd, "export") && strcmp(cmd, "import"))) {
		fputs(usage, stderr);
		return 2;
	}
	if (merge && strcmp(cmd, "import") != 0) {
		fprintf(stderr, "warplab-store: --merge is for import only (%s moves a whole store into a new one)\n",
			cmd);
		return 2;
	}
	if (from && to && strcmp(from, to) == 0) {
		fprintf(stderr, "warplab-store: --from and --to are the same store\n");
		return 2;
	}
	if ((from && wl_store_open(from, &src, &err) < 0) || (to && wl_store_open(to, &dst, &err) < 0))
		goto out;
	if (dst && wl_store_import_begin(dst, merge, &im, &err) < 0) {
		if (err.kind == WL_ERR_CONFLICT && strcmp(cmd, "import") == 0) {
			size_t n = strlen(err.msg);

			snprintf(err.msg + n, sizeof(err.msg) - n,
				 ", or add --merge to import its runs beside them under new ids");
		}
		goto out;
	}
	c.to = im;
	rc = src ? wl_store_each_row(src, on_record, &c, &err) : import_lines(im, &c, &err);
	if (im)
		rc = rc < 0 ? (wl_store_import_abort(im), -1) : wl_store_import_end(im, &sum, &err);
	if (rc == 0)
		say_done(cmd, &c, &sum, to);
out:
	if (rc < 0)
		fprintf(stderr, "warplab-store: %s%s\n", err.msg,
			dst && err.kind != WL_ERR_CONFLICT ? "; nothing was written" : "");
	wl_store_close(src);
	wl_store_close(dst);
	return rc < 0 ? 1 : 0;
}
