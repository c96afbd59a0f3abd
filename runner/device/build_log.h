/* A compiler's build log, and any text the runner reports about someone's
 * kernel, as the person who wrote it sees it: the temporary file PoCL compiles
 * ("/root/.cache/pocl/kcache/tempfile_x.cl:33:18") is named "<source>", any
 * other absolute path of the runner's host (in a note, or printed by the
 * kernel's own __FILE__) becomes "<path>", and clang's " <Spelling=/usr/...>"
 * notes are dropped. No path of the host reaches a result. */
#ifndef WL_BUILD_LOG_H
#define WL_BUILD_LOG_H

/* The cleaned copy of log. Caller frees; NULL when out of memory. */
char *wl_build_log_for_users(const char *log);

#endif
