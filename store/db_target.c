/* What a --db value names (see db_target.h): read from the value's text
 * alone, so that the engines, the wake-ups and the store's opening can all
 * ask without calling each other. */
#include "db_target.h"

#include <libgen.h>
#include <stdio.h>
#include <string.h>

enum wl_db_kind wl_db_kind_of(const char *target)
{
	if (strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0)
		return WL_DB_POSTGRES;
	/* libpq's other form, "host=... dbname=...": no file path has "dbname=". */
	if (strstr(target, "dbname=") && !strchr(target, '/'))
		return WL_DB_POSTGRES;
	return WL_DB_SQLITE;
}

int wl_db_sqlite_path(const char *target, char *out, size_t len)
{
	const char *path = target;
	int n;

	if (wl_db_kind_of(target) != WL_DB_SQLITE)
		return -1;
	if (strncmp(path, "sqlite://", 9) == 0)
		path += 9;	/* sqlite:///abs/path and sqlite://rel/path */
	else if (strncmp(path, "sqlite:", 7) == 0)
		path += 7;
	n = snprintf(out, len, "%s", path);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

const char *wl_db_shown(const char *target)
{
	return wl_db_kind_of(target) == WL_DB_POSTGRES ? "PostgreSQL" : target;
}

int wl_store_beside(const char *target, const char *name, char *out, size_t len)
{
	char path[4096];
	int n;

	if (wl_db_sqlite_path(target, path, sizeof(path)) < 0 || !path[0] ||
	    strncmp(path, "file:", 5) == 0 || strcmp(path, ":memory:") == 0)
		return -1;
	n = snprintf(out, len, "%s/%s", dirname(path), name);
	return n > 0 && (size_t)n < len ? 0 : -1;
}
