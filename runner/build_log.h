/* A compiler's build log as the person who wrote the kernel sees it: the
 * temporary file PoCL compiles ("/root/.cache/pocl/kcache/tempfile_x.cl:33:18")
 * is named "<source>" and clang's " <Spelling=/usr/...>" notes are dropped, so
 * lines point into their source and no path of the runner's host is shown. */
#ifndef WL_BUILD_LOG_H
#define WL_BUILD_LOG_H

/* The cleaned copy of log. Caller frees; NULL when out of memory. */
char *wl_build_log_for_users(const char *log);

#endif
