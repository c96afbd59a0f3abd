/* Line-at-a-time logging to stderr. Each line is formatted into one buffer and
 * written with a single write(2), so lines from several threads never mix. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *log_program = "warplab";

void wl_log_init(const char *program)
{
	log_program = program;
}

static void log_line(const char *level, const char *fmt, va_list ap)
{
	char line[2048];
	struct timespec ts;
	struct tm tm;
	size_t len;
	int n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	len = strftime(line, sizeof(line), "%Y-%m-%dT%H:%M:%S", &tm);
	n = snprintf(line + len, sizeof(line) - len, ".%03ldZ %s %s: ", ts.tv_nsec / 1000000,
		     log_program, level);
	if (n > 0)
		len += (size_t)n;
	n = vsnprintf(line + len, sizeof(line) - len, fmt, ap);
	if (n > 0)
		len += (size_t)n;
	if (len > sizeof(line) - 2)
		len = sizeof(line) - 2;
	/* A message must stay one line even when it quotes a multi-line build log. */
	for (size_t i = 0; i < len; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	line[len++] = '\n';
	if (write(STDERR_FILENO, line, len) < 0) {
		/* Nowhere left to report a failed log write. */
	}
}

void wl_log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line("info", fmt, ap);
	va_end(ap);
}

void wl_log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line("warn", fmt, ap);
	va_end(ap);
}

void wl_log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line("error", fmt, ap);
	va_end(ap);
}
