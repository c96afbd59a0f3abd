/* What a --db value names: which engine, the SQLite file, how messages show
 * it, and where what goes with a store lives beside its file. Words about the
 * value alone, with no connection: the engines, the wake-ups and the store's
 * opening all ask them, so this file calls none of theirs. */
#ifndef WL_DB_TARGET_H
#define WL_DB_TARGET_H

#include <stddef.h>

enum wl_db_kind { WL_DB_SQLITE, WL_DB_POSTGRES };

/* Which engine a --db value names: a postgresql:// or postgres:// URI (or
 * a libpq "key=value" string holding dbname=) is PostgreSQL; anything else is
 * a SQLite file, given as a path or as sqlite:PATH. */
enum wl_db_kind wl_db_kind_of(const char *target);

/* The SQLite file a target names (the path itself, or PATH of sqlite:PATH)
 * into out: 0, or -1 for a PostgreSQL target or one that does not fit (out
 * is then not to be used). */
int wl_db_sqlite_path(const char *target, char *out, size_t len);

/* The target as messages may show it: a PostgreSQL URI may hold a password,
 * so it is shown as "PostgreSQL"; a SQLite file as its path (target itself,
 * borrowed). */
const char *wl_db_shown(const char *target);

/* "<folder of the store's file>/<name>" into out: where what goes with a store
 * lives (wake-up sockets, program binaries). 0, or -1 when the store is not a
 * file or the path does not fit (out is then not to be used). */
int wl_store_beside(const char *path, const char *name, char *out, size_t len);

#endif
