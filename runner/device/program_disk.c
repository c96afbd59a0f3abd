/* Device binaries of built programs kept on disk (see program_disk.h). A file
 * holds the key it was saved under and the whole source it was built from, and
 * both are compared byte for byte before its binary is used: the file name is
 * only a 64-bit hash, and a program must never run code built from another
 * source. Files are written under a temporary name and renamed, so a reader
 * never sees half of one. */
#include "program_disk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"

/* 2: with the build log, so a loaded program still has the compiler's
 * account of it; 3: and the PTX beside a cubin, for the same reason. */
#define MAGIC "warplab program binary 3\n"

/* The file's path for key: <dir>/<FNV-1a of key>.bin. */
static void file_path(const char *dir, const char *key, char *out, size_t len)
{
	snprintf(out, len, "%s/%016llx.bin", dir,
		 (unsigned long long)wl_fnv1a64(key, strlen(key)));
}

static int read_chunk(FILE *f, unsigned char **out, size_t *len, size_t max)
{
	unsigned long long n;

	*out = NULL;
	if (fread(&n, sizeof(n), 1, f) != 1 || n > max)
		return -1;
	*out = malloc(n ? (size_t)n : 1);
	if (!*out || (n && fread(*out, 1, (size_t)n, f) != (size_t)n)) {
		free(*out);
		*out = NULL;
		return -1;
	}
	*len = (size_t)n;
	return 0;
}

static int write_chunk(FILE *f, const void *p, size_t len)
{
	unsigned long long n = len;

	return fwrite(&n, sizeof(n), 1, f) == 1 && (!len || fwrite(p, 1, len, f) == len) ? 0 : -1;
}

int wl_program_disk_load(const char *dir, const char *key, const char *source, size_t source_len,
			 struct wl_program_file *out)
{
	char path[4096], magic[sizeof(MAGIC) - 1];
	unsigned char *saved_key = NULL, *saved_source = NULL, *log = NULL, *ptx = NULL;
	size_t key_len = 0, saved_len = 0, log_len = 0, ptx_len = 0;
	FILE *f;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!dir || !*dir)
		return -1;
	file_path(dir, key, path, sizeof(path));
	f = fopen(path, "rb");
	if (!f)
		return -1;
	if (fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	    memcmp(magic, MAGIC, sizeof(magic)) == 0 &&
	    read_chunk(f, &saved_key, &key_len, 1 << 16) == 0 && key_len == strlen(key) &&
	    memcmp(saved_key, key, key_len) == 0 &&
	    read_chunk(f, &saved_source, &saved_len, (size_t)1 << 26) == 0 && saved_len == source_len &&
	    memcmp(saved_source, source, source_len) == 0 &&
	    read_chunk(f, &out->binary, &out->binary_len, (size_t)1 << 30) == 0 && out->binary_len > 0 &&
	    read_chunk(f, &log, &log_len, (size_t)1 << 24) == 0 && (out->log = strndup((char *)log, log_len)) &&
	    read_chunk(f, &ptx, &ptx_len, (size_t)1 << 28) == 0 && (out->ptx = strndup((char *)ptx, ptx_len)))
		rc = 0;
	fclose(f);
	free(saved_key);
	free(saved_source);
	free(log);
	free(ptx);
	if (rc < 0) {
		free(out->binary);
		free(out->log);
		free(out->ptx);
		memset(out, 0, sizeof(*out));
	}
	return rc;
}

static unsigned saves;

int wl_program_disk_save(const char *dir, const char *key, const char *source, size_t source_len,
			 const struct wl_program_file *file, struct wl_error *err)
{
	char path[4096], tmp[4200];
	FILE *f;
	int ok;

	if (!dir || !*dir)
		return 0;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	file_path(dir, key, path, sizeof(path));
	/* Unique to this save: threads of one worker save side by side. */
	snprintf(tmp, sizeof(tmp), "%s.%d.%u.tmp", path, (int)getpid(), __atomic_fetch_add(&saves, 1, __ATOMIC_RELAXED));
	f = fopen(tmp, "wb");
	if (!f) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	ok = fwrite(MAGIC, 1, sizeof(MAGIC) - 1, f) == sizeof(MAGIC) - 1 &&
	     write_chunk(f, key, strlen(key)) == 0 && write_chunk(f, source, source_len) == 0 &&
	     write_chunk(f, file->binary, file->binary_len) == 0 &&
	     write_chunk(f, file->log, strlen(file->log)) == 0 &&
	     write_chunk(f, file->ptx ? file->ptx : "", file->ptx ? strlen(file->ptx) : 0) == 0;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) < 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
