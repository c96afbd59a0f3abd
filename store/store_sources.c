/* Kernel sources kept by hash: the runner stores each family's .cl text when a
 * run starts, the server reads it back to show a run's built-in kernels as they
 * were, even after the file has changed. */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "store_db.h"

static const char SQL_PUT_SOURCE[] =
	"INSERT INTO sources (hash, name, text) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING";
static const char SQL_GET_SOURCE[] = "SELECT name, text FROM sources WHERE hash = ?1";

int wl_store_put_source(struct wl_store *st, const char *hash, const char *name,
			const char *text, struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_PUT_SOURCE, err);
	int rc;

	if (!s)
		return -1;
	wl_db_bind_text(s, 1, hash);
	wl_db_bind_text(s, 2, name);
	wl_db_bind_text(s, 3, text);
	rc = wl_db_step(s);
	wl_db_reset(s);
	if (rc != WL_DB_DONE) {
		store_fail(st, err, "store a kernel source");
		return -1;
	}
	return 0;
}

int wl_store_get_source(struct wl_store *st, const char *hash, char **name, char **text,
			struct wl_error *err)
{
	struct wl_db_stmt *s = store_stmt(st, SQL_GET_SOURCE, err);
	int rc, ret = -1;

	*name = *text = NULL;
	if (!s)
		return -1;
	wl_db_bind_text(s, 1, hash);
	rc = wl_db_step(s);
	if (rc == WL_DB_ROW) {
		*name = strdup(wl_db_col_text(s, 0));
		*text = strdup(wl_db_col_text(s, 1));
		if (*name && *text) {
			ret = 0;
		} else {
			free(*name);
			free(*text);
			*name = *text = NULL;
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		}
	} else if (rc == WL_DB_DONE) {
		wl_error_set(err, WL_ERR_NOT_FOUND, "no kernel source with hash %.40s", hash);
	} else {
		store_fail(st, err, "read a kernel source");
	}
	wl_db_reset(s);
	return ret;
}
