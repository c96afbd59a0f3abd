/* warplab-store: moving a lab's whole store. `copy` takes every run, result,
 * runner, device and kernel source from one store into a new one (a SQLite
 * file into PostgreSQL when a lab outgrows one machine, or back), ids and
 * share URLs unchanged; `export` writes the same records as JSON lines for a
 * backup and `import` reads them into a new store. A target that already
 * holds runs is refused, so nothing is ever merged or overwritten. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "store.h"

static const char usage[] =
	"usage: warplab-store copy --from STORE --to STORE\n"
	"       warplab-store export --from STORE            (JSON lines on stdout)\n"
	"       warplab-store import --to STORE               (JSON lines on stdin)\n"
	"STORE is a SQLite file (a path or sqlite:PATH) or postgresql://...; the\n"
	"target must hold no runs. PostgreSQL passwords come from ~/.pgpass,\n"
	"PGPASSFILE or the service file, never the command line.\n";

struct counts {
	long long records, runs, results;
	struct wl_store *to;	/* copy: where records go; NULL: export */
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

static int import_lines(struct wl_store *to, struct counts *c, struct wl_error *err)
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

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	const char *from = arg(argc, argv, "--from"), *to = arg(argc, argv, "--to");
	struct wl_store *src = NULL, *dst = NULL;
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
	if (from && to && strcmp(from, to) == 0) {
		fprintf(stderr, "warplab-store: --from and --to are the same store\n");
		return 2;
	}
	if ((from && wl_store_open(from, &src, &err) < 0) || (to && wl_store_open(to, &dst, &err) < 0))
		goto out;
	if (dst && wl_store_import_begin(dst, &err) < 0)
		goto out;
	c.to = dst;
	rc = src ? wl_store_each_row(src, on_record, &c, &err) : import_lines(dst, &c, &err);
	if (dst)
		rc = rc < 0 ? (wl_store_import_abort(dst), -1) : wl_store_import_end(dst, &err);
	if (rc == 0)
		fprintf(stderr, "warplab-store: %s %lld runs, %lld results (%lld records)%s%s\n",
			strcmp(cmd, "export") == 0 ? "exported" : strcmp(cmd, "import") == 0 ? "imported" : "copied",
			c.runs, c.results, c.records, dst ? " into " : "", dst ? wl_db_shown(to) : "");
out:
	if (rc < 0)
		fprintf(stderr, "warplab-store: %s%s\n", err.msg,
			dst && err.kind != WL_ERR_CONFLICT ? "; nothing was written" : "");
	wl_store_close(src);
	wl_store_close(dst);
	return rc < 0 ? 1 : 0;
}
