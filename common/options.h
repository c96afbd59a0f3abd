/* Settings shared by a config file and the command line. Each binary describes
 * its settings once, in a table; the same table reads `key = value` lines from
 * the config file (/etc/warplab/warplab.conf, $WARPLAB_CONFIG or --config) and
 * `--key value` flags, flags winning, and prints --help. */
#ifndef WL_OPTIONS_H
#define WL_OPTIONS_H

#include "error.h"

enum wl_option_type {
	WL_OPT_STRING,	/* target is char ** (owned by the table's user, freed with wl_options_free) */
	WL_OPT_INT,	/* target is long *, checked against min..max */
	WL_OPT_FLAG,	/* target is int *, set to 1 by --name; "true"/"false" in a file */
};

struct wl_option {
	const char *name;	/* "listen": --listen on the command line, listen = in a file */
	enum wl_option_type type;
	void *target;
	const char *arg;	/* shown in --help ("HOST:PORT") */
	const char *help;
	long min, max;		/* WL_OPT_INT only */
};

#define WL_OPTIONS_DEFAULT_CONFIG "/etc/warplab/warplab.conf"

/* Keys a config file may hold for either binary; a key the reading binary does
 * not use is skipped when it is in this list and an error otherwise. */
extern const char *const wl_options_shared_keys[];

enum wl_options_result { WL_OPTIONS_OK, WL_OPTIONS_EXIT_OK, WL_OPTIONS_FAIL };

/* Apply the config file, then argv. --help and --version print to stdout and
 * return WL_OPTIONS_EXIT_OK; a bad file, flag or value fills err and returns
 * WL_OPTIONS_FAIL. usage is the synopsis line printed by --help. */
enum wl_options_result wl_options_parse(const struct wl_option *table, int argc, char **argv,
					const char *usage, const char *version,
					struct wl_error *err);

/* Free every WL_OPT_STRING target of table and set it to NULL. */
void wl_options_free(const struct wl_option *table);

#endif
