/* One line per event on stderr, with a UTC timestamp, the program name and a
 * level, so the two processes' logs can be merged and grepped (journald keeps
 * them as they are). */
#ifndef WL_LOG_H
#define WL_LOG_H

/* Set the program name shown on every line (a static string). */
void wl_log_init(const char *program);

void wl_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wl_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wl_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
