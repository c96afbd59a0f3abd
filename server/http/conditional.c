/* Entity tags, If-None-Match and gzip (conditional.h); the compression is
 * zlib's, with the gzip wrapper (windowBits 15 + 16). */
#include "conditional.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

void wl_etag_of(const void *data, size_t len, const char *suffix, char *out, size_t out_len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	snprintf(out, out_len, "\"%016llx%s\"", (unsigned long long)h, suffix ? suffix : "");
}

int wl_etag_matches(const char *header, const char *etag)
{
	size_t n = strlen(etag);
	const char *p = header;

	if (!header || !etag[0])
		return 0;
	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		len = strcspn(p, ",");
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == n && memcmp(p, etag, n) == 0)
			return 1;
		p += strcspn(p, ",");
	}
	return 0;
}

int wl_gzip(const void *data, size_t len, char **out, size_t *out_len)
{
	z_stream z;
	uLong cap;
	char *buf;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	cap = deflateBound(&z, (uLong)len);
	buf = malloc(cap);
	if (!buf) {
		deflateEnd(&z);
		return -1;
	}
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)buf;
	z.avail_out = (uInt)cap;
	rc = deflate(&z, Z_FINISH);
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(buf);
		return -1;
	}
	*out = buf;
	*out_len = z.total_out;
	return 0;
}
