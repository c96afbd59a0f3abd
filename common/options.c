/* Config file and command-line settings through one table (see options.h).
 * String defaults are strdup'ed here on first assignment so every string
 * target is owned by the table and freed the same way. */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const wl_options_shared_keys[] = {
	"listen", "db", "www", "catalog", "token-file", "allow-anonymous-writes", "kernels",
	"devices", "max-body", "queue-limit", "max-connections", "per-ip-connections",
	"connection-timeout", "heartbeat", "run-timeout", "stop-timeout", "max-measurements",
	"max-attempts", "warmup", "poll-ms", "no-fp64", "no-custom-kernels", "response-cache",
	"stream-heartbeat", "flush-max", "program-cache", "host-name", "unconfined-kernels",
	"no-trace", "no-catalog-traces", "build-ahead", "builders", "trace-seconds", "trace-memory", NULL,
};

static const struct wl_option *option_find(const struct wl_option *table, const char *name)
{
	for (const struct wl_option *o = table; o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

static int option_set(const struct wl_option *o, const char *value, const char *where,
		      struct wl_error *err)
{
	char *end;
	long v;

	switch (o->type) {
	case WL_OPT_STRING: {
		char **target = o->target;
		char *copy = strdup(value);

		if (!copy) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
		free(*target);
		*target = copy;
		return 0;
	}
	case WL_OPT_INT:
		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || end == value || *end || v < o->min || v > o->max) {
			wl_error_set(err, WL_ERR_CONFIG, "%s%s: '%s' is not an integer in %ld..%ld",
				     where, o->name, value, o->min, o->max);
			return -1;
		}
		*(long *)o->target = v;
		return 0;
	case WL_OPT_FLAG:
		if (strcmp(value, "true") == 0 || strcmp(value, "1") == 0 || strcmp(value, "yes") == 0) {
			*(int *)o->target = 1;
		} else if (strcmp(value, "false") == 0 || strcmp(value, "0") == 0 ||
			   strcmp(value, "no") == 0) {
			*(int *)o->target = 0;
		} else {
			wl_error_set(err, WL_ERR_CONFIG, "%s%s: '%s' is not true or false", where,
				     o->name, value);
			return -1;
		}
		return 0;
	}
	return -1;
}

static int is_shared_key(const char *key)
{
	for (const char *const *k = wl_options_shared_keys; *k; k++)
		if (strcmp(*k, key) == 0)
			return 1;
	return 0;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* Read key = value lines; '#' starts a comment line. A missing file is an error
 * only when the caller named it (required). */
static int config_load(const struct wl_option *table, const char *path, int required,
		       struct wl_error *err)
{
	char line[4096], where[512];
	FILE *f;
	int lineno = 0, rc = -1;

	f = fopen(path, "r");
	if (!f) {
		if (!required && errno == ENOENT)
			return 0;
		wl_error_set(err, WL_ERR_CONFIG, "config %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *key, *value, *eq;
		const struct wl_option *o;

		lineno++;
		key = trim(line);
		if (*key == '\0' || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			wl_error_set(err, WL_ERR_CONFIG, "config %s:%d: expected 'key = value'", path,
				     lineno);
			goto out;
		}
		*eq = '\0';
		value = trim(eq + 1);
		key = trim(key);
		o = option_find(table, key);
		if (!o) {
			if (is_shared_key(key))
				continue;
			wl_error_set(err, WL_ERR_CONFIG, "config %s:%d: unknown key '%s'", path, lineno,
				     key);
			goto out;
		}
		snprintf(where, sizeof(where), "config %s:%d: ", path, lineno);
		if (option_set(o, value, where, err) < 0)
			goto out;
	}
	rc = 0;
out:
	fclose(f);
	return rc;
}

static void print_help(const struct wl_option *table, const char *usage)
{
	printf("%s\n\nOptions (each may also be set as 'name = value' in the config file):\n",
	       usage);
	printf("  --config FILE          config file (default $WARPLAB_CONFIG, else %s)\n",
	       WL_OPTIONS_DEFAULT_CONFIG);
	for (const struct wl_option *o = table; o->name; o++) {
		char left[64];

		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		printf("  %-22s %s\n", left, o->help);
	}
	printf("  %-22s %s\n  %-22s %s\n", "--help", "print this help and exit", "--version",
	       "print the version and exit");
}

/* Strings in the table start as string literals; copy them so that every
 * string target is heap-owned before anything overwrites or frees it. */
static int own_string_defaults(const struct wl_option *table, struct wl_error *err)
{
	for (const struct wl_option *o = table; o->name; o++) {
		char **target = o->target;

		if (o->type != WL_OPT_STRING || !*target)
			continue;
		*target = strdup(*target);
		if (!*target) {
			wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
			return -1;
		}
	}
	return 0;
}

enum wl_options_result wl_options_parse(const struct wl_option *table, int argc, char **argv,
					const char *usage, const char *version,
					struct wl_error *err)
{
	const char *config = NULL;
	int required = 1;

	wl_error_clear(err);
	if (own_string_defaults(table, err) < 0)
		return WL_OPTIONS_FAIL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			print_help(table, usage);
			return WL_OPTIONS_EXIT_OK;
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("%s\n", version);
			return WL_OPTIONS_EXIT_OK;
		}
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
			config = argv[i + 1];
		else if (strncmp(argv[i], "--config=", 9) == 0)
			config = argv[i] + 9;
	}
	if (!config)
		config = getenv("WARPLAB_CONFIG");
	if (!config || !*config) {
		config = WL_OPTIONS_DEFAULT_CONFIG;
		required = 0;
	}
	if (config_load(table, config, required, err) < 0)
		return WL_OPTIONS_FAIL;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *value = NULL;
		const struct wl_option *o;
		char name[128];
		const char *eq;

		if (strncmp(arg, "--", 2) != 0) {
			wl_error_set(err, WL_ERR_CONFIG, "unexpected argument '%s' (see --help)", arg);
			return WL_OPTIONS_FAIL;
		}
		arg += 2;
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
		if (strcmp(name, "config") == 0) {
			i += eq ? 0 : 1;
			continue;
		}
		o = option_find(table, name);
		if (!o) {
			wl_error_set(err, WL_ERR_CONFIG, "unknown option --%s (see --help)", name);
			return WL_OPTIONS_FAIL;
		}
		if (eq) {
			value = eq + 1;
		} else if (o->type == WL_OPT_FLAG) {
			value = "true";
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			wl_error_set(err, WL_ERR_CONFIG, "option --%s needs a value (%s)", name,
				     o->arg ? o->arg : "value");
			return WL_OPTIONS_FAIL;
		}
		if (option_set(o, value, "--", err) < 0)
			return WL_OPTIONS_FAIL;
	}
	return WL_OPTIONS_OK;
}

void wl_options_free(const struct wl_option *table)
{
	for (const struct wl_option *o = table; o->name; o++) {
		if (o->type == WL_OPT_STRING) {
			char **target = o->target;

			free(*target);
			*target = NULL;
		}
	}
}
