/* Device binaries of built programs (OpenCL's CL_PROGRAM_BINARIES, NVRTC's
 * cubins), kept in a folder so that a restarted runner or a fresh worker
 * loads them instead of compiling. A file is found by its key (for OpenCL
 * the device's model, its driver, the build options and the source's hash;
 * for CUDA the compute capability, NVRTC's version, the options and the hash:
 * every device of a model on the host shares it) and used only when the key
 * and the whole source it holds equal the ones asked for. */
#ifndef WL_PROGRAM_DISK_H
#define WL_PROGRAM_DISK_H

#include <stddef.h>

#include "error.h"

/* A program as kept: its binary and the compiler's log of the build that
 * made it (a program loaded from a binary gets no new log). */
struct wl_program_file {
	unsigned char *binary;
	size_t binary_len;
	char *log;		/* NUL-terminated, possibly "" */
	char *ptx;		/* the PTX beside a cubin, NUL-terminated; NULL (or "" as
				 * loaded) where there is none */
};

/* The program saved in dir under key for exactly this source: 0 with *out
 * filled (the caller frees both parts), or -1 when there is none that fits
 * (not an error: the program is built from source); *out then holds
 * nothing. */
int wl_program_disk_load(const char *dir, const char *key, const char *source, size_t source_len,
			 struct wl_program_file *out);

/* Save file under key with its source, creating dir if needed. A NULL or
 * empty dir saves nothing. */
int wl_program_disk_save(const char *dir, const char *key, const char *source, size_t source_len,
			 const struct wl_program_file *file, struct wl_error *err);

#endif
