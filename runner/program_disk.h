/* Device binaries (CL_PROGRAM_BINARIES) of built programs, kept in a folder so
 * that a restarted runner or a fresh worker loads them instead of compiling.
 * A file is found by its key (the device, its driver, the build options and
 * the source's hash) and used only when the key and the whole source it holds
 * equal the ones asked for. */
#ifndef WL_PROGRAM_DISK_H
#define WL_PROGRAM_DISK_H

#include <stddef.h>

#include "error.h"

/* The binary saved in dir under key for exactly this source: 0 with *binary
 * (the caller frees it) and its length, or -1 when there is none that fits
 * (not an error: the program is built from source). */
int wl_program_disk_load(const char *dir, const char *key, const char *source, size_t source_len,
			 unsigned char **binary, size_t *binary_len);

/* Save binary under key with its source, creating dir if needed. A NULL or
 * empty dir saves nothing. */
int wl_program_disk_save(const char *dir, const char *key, const char *source, size_t source_len,
			 const unsigned char *binary, size_t binary_len, struct wl_error *err);

#endif
