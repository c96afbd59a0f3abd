/* The store as records, shared by its export (store_transfer.c) and its
 * import (store_import.c): each table as of the latest migration, the kind of
 * each column, and how a merge adds the table's records. */
#ifndef WL_STORE_TRANSFER_H
#define WL_STORE_TRANSFER_H

#include <stddef.h>

/* A column's kind: integer, real, text, or float32 samples (a blob, written
 * as an array of numbers); and three integers a merge gives afresh: an id of
 * one of the store's numberings (a run's, a runner's), remapped wherever a
 * record names it, and a run's change number. */
enum col_kind { COL_INT, COL_REAL, COL_TEXT, COL_SAMPLES, COL_RUN_ID, COL_RUNNER_ID, COL_CHANGE };

struct column {
	const char *name;
	enum col_kind kind;
};

/* How a merge adds a table's records. */
enum merge_rule {
	MERGE_ADD,	/* as they are, with the ids they name remapped */
	MERGE_NEW_ID,	/* column 0 is the record's own id: the store gives a new one */
	MERGE_ONCE,	/* kept as it is where its key (the order) is there already */
};

#define MAX_COLUMNS 32
#define NTABLES 8

struct table {
	const char *name;
	const char *order;	/* the key, for a stable order */
	enum merge_rule merge;
	struct column cols[MAX_COLUMNS];
};

/* The tables, in an order that keeps every reference valid (store_transfer.c). */
extern const struct table store_tables[NTABLES];

/* How many columns t has. */
size_t store_table_ncols(const struct table *t);

#endif
